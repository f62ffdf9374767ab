package recordings

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestReplica(t *testing.T) {
	rec := &Recording{Header: Header{Width: 80, Height: 24}, Events: []Event{
		{0, Output, []byte("hello \x1b[6n\x1b[c\x1b]11;?\x07")},
		{1, Input, []byte("1")},
		{2, Output, []byte("bye")},
		{3, Input, []byte("\x1b[A")},
	}}
	for _, tc := range []struct {
		name, in, err string
	}{
		{"exact", "1\x1b[A", ""},
		{"replies skipped", "\x1b[12;1R\x1b[?1;2c\x1b]11;rgb:0000/0000/0000\x1b\\1\x1b[A", ""},
		{"split input", "\x1b[12;1", ""},
		{"escape for 1", "\x1b", `got "\x1b", recorded "1"`},
		{"up for 1", "\x1b[A", `got "\x1b[A", recorded "1"`},
		{"escape for up", "1\x1bx", `got "\x1bx", recorded "\x1b[A"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if tc.name == "split input" {
				in = "" // fed below in pieces
			}
			r, w := io.Pipe()
			var out strings.Builder
			done := make(chan error, 1)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			go func() { done <- Replica(ctx, rec, &out, r, ReplicaOptions{ReplyWait: 50 * time.Millisecond}) }()
			if tc.name == "split input" {
				for _, part := range []string{"\x1b[12;1", "R", "1", "\x1b[", "A"} {
					w.Write([]byte(part))
					time.Sleep(5 * time.Millisecond)
				}
			} else {
				w.Write([]byte(in))
			}
			err := <-done
			w.Close()
			if tc.err == "" {
				if err != nil {
					t.Fatalf("err %v", err)
				}
				if !strings.HasSuffix(out.String(), "bye") {
					t.Errorf("output %q", out.String())
				}
				return
			}
			if !errors.Is(err, ErrDivergence) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err %v, want divergence %s", err, tc.err)
			}
		})
	}
}

func TestReplicaIgnoresOnlyQueriedReplies(t *testing.T) {
	// No CPR was asked: a CPR is a divergence.
	rec := &Recording{Header: Header{Width: 80, Height: 24}, Events: []Event{
		{0, Output, []byte("plain")}, {1, Input, []byte("y")}}}
	r, w := io.Pipe()
	go w.Write([]byte("\x1b[3;4Ry"))
	err := Replica(context.Background(), rec, io.Discard, r, ReplicaOptions{ReplyWait: 50 * time.Millisecond})
	if !errors.Is(err, ErrDivergence) {
		t.Errorf("err %v, want a divergence", err)
	}
}
