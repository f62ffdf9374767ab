package supervisor

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
)

// replicaFeed follows a replica's pane through the test's own control
// client and counts the output bytes it has drawn (from the last seed),
// so a driver knows when the replica reached a recorded point. Its
// methods return errors rather than failing the test: drivers run in
// goroutines.
type replicaFeed struct {
	client *controlmode.Client
	pane   string
	feed   *controlmode.Feed
	got    int
}

func followReplica(client *controlmode.Client, pane string) (*replicaFeed, error) {
	p, err := controlmode.ParsePaneID(pane)
	if err != nil {
		return nil, err
	}
	feed, err := client.Follow(p)
	if err != nil {
		return nil, err
	}
	return &replicaFeed{client: client, pane: pane, feed: feed}, nil
}

// feedReplica follows c's pane through client and lets the replica start
// (release). A driver goroutine's failure is the test's error, named, and
// nil; the caller closes the feed it gets.
func feedReplica(t testing.TB, ctx context.Context, client *controlmode.Client, c *replicaCase, name string) *replicaFeed {
	rf, err := followReplica(client, c.pane)
	if err == nil {
		if err = rf.release(ctx, c.fifo); err != nil {
			rf.Close()
		}
	}
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil
	}
	return rf
}

// await is take for a driver goroutine: a failure is the test's error,
// named, and false.
func (f *replicaFeed) await(t testing.TB, ctx context.Context, name string, until int) bool {
	if err := f.take(ctx, until); err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	return true
}

// release waits for the feed's first seed, then lets the replica start.
func (f *replicaFeed) release(ctx context.Context, fifo string) error {
	for seeded := false; !seeded; {
		select {
		case <-f.feed.Ready():
		case <-ctx.Done():
			return fmt.Errorf("no seed: %w", ctx.Err())
		}
		seeded = f.feed.Take().Seed != nil
	}
	return releaseReplica(fifo)
}

// take waits until the replica has drawn until bytes.
func (f *replicaFeed) take(ctx context.Context, until int) error {
	for f.got < until {
		select {
		case <-f.feed.Ready():
		case <-time.After(15 * time.Second):
			screen, _ := f.client.Command(ctx, "capture-pane", "-p", "-t", f.pane)
			return fmt.Errorf("replica wrote %d bytes, want %d; its pane:\n%s", f.got, until, screen.Body)
		}
		u := f.feed.Take()
		if u.Seed != nil {
			f.got = 0
		}
		f.got += len(u.Data)
	}
	return nil
}

func (f *replicaFeed) Close() { f.feed.Close() }
