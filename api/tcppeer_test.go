package api

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-knock-knock/akk/internal/procid"
)

// TestOwnerOnlyTCP: a loopback connection of our own uid is served; one
// the listener takes for another uid's, or whose owner it cannot find
// (here: not a TCP connection at all), gets 403 with a readable reason
// and never reaches the server, and the refusal is reported.
func TestOwnerOnlyTCP(t *testing.T) {
	tcp := func(t *testing.T) net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	unix := func(t *testing.T) net.Listener {
		ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	tests := []struct {
		name   string
		listen func(*testing.T) net.Listener
		uid    int
		status int
		body   string // in the reply
		peer   int    // reported to refused
	}{
		{"our own uid", tcp, os.Getuid(), http.StatusOK, "served", 0},
		{"another uid", tcp, os.Getuid() + 1, http.StatusForbidden, fmt.Sprintf("uid %d may not use this akk daemon", os.Getuid()), os.Getuid()},
		{"an owner not found", unix, os.Getuid(), http.StatusForbidden, "the owner of this connection is unknown", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inner := tc.listen(t)
			var mu sync.Mutex
			var refusals []string
			ln := OwnerOnlyTCP(inner, tc.uid, procid.ConnPeerUID, func(peer int, err error) {
				mu.Lock()
				refusals = append(refusals, fmt.Sprintf("%d %v", peer, err))
				mu.Unlock()
			})
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "served") })}
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
			cl := &http.Client{Transport: &http.Transport{Dial: func(string, string) (net.Conn, error) {
				return net.Dial(inner.Addr().Network(), inner.Addr().String())
			}}}
			resp, err := cl.Post("http://127.0.0.1/", "application/json", strings.NewReader(`{"a body":"left unread"}`))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.body) {
				t.Errorf("got %d %s, want %d %q", resp.StatusCode, b, tc.status, tc.body)
			}
			mu.Lock()
			defer mu.Unlock()
			if tc.status == http.StatusOK {
				if len(refusals) != 0 {
					t.Errorf("refused: %q", refusals)
				}
				return
			}
			if len(refusals) != 1 || !strings.HasPrefix(refusals[0], fmt.Sprint(tc.peer)+" ") {
				t.Errorf("refusals %q, want one of peer %d", refusals, tc.peer)
			}
		})
	}
	if !errors.Is(errOtherUID, errPeer) {
		t.Error("errOtherUID is not an errPeer")
	}
}
