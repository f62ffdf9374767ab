package supervisor

import (
	"context"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// replicaStage is where most replica tests play: the akk binary the
// replicas run, a tmux server fixed at the recordings' 120x40 (a replica
// draws without a resize) and an in-process daemon supervising it with o.
func replicaStage(t testing.TB, o daemonOpts) (akk string, srv *tmuxtest.Server, d *daemon) {
	t.Helper()
	akk, srv = replicaServer(t)
	return akk, srv, startDaemon(t, srv, o)
}

// replicaServer is replicaStage before its daemon, for a test that
// prepares panes or options on the server first.
func replicaServer(t testing.TB) (akk string, srv *tmuxtest.Server) {
	t.Helper()
	return tmuxAkk(t), tmuxtest.StartFixed(t, 120, 40, "sh")
}

// tmuxAkk is the akk binary, for a test that runs it in tmux panes: a
// machine without tmux skips the test before the build.
func tmuxAkk(t testing.TB) string {
	t.Helper()
	tmuxtest.RequireTmux(t)
	return buildAkk(t)
}

// driverClient is the test's own control client of the session "main",
// through which it follows and releases replicas as a person's terminal
// would, under a context that ends after within (a hung run fails rather
// than waits forever). Both end when the test does.
func driverClient(t testing.TB, srv *tmuxtest.Server, within time.Duration) (context.Context, *controlmode.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	t.Cleanup(cancel)
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return ctx, client
}
