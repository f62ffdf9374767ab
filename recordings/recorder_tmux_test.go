package recordings

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// streamBytes is pane output of every kind the codec splits: ASCII, escape
// sequences, multi-byte runes (cut anywhere by the pty), and bytes that
// are not UTF-8.
func streamBytes(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	parts := [][]byte{[]byte("plain text "), []byte("\x1b[1;31mred\x1b[m"), []byte("❯ ─ 😀 é"),
		{0xff}, {0xe2, 0x9d}, {0xc0, 0xaf}, []byte("\r\n"), {0xed, 0xa0, 0x80}, []byte("\x1b[2K\x1b[H")}
	var b []byte
	for len(b) < n {
		b = append(b, parts[r.IntN(len(parts))]...)
	}
	return b
}

// TestTmuxRecorderLosesNothing: a recording of a pane, decoded (o and x
// events), holds the same bytes as a pipe-pane copy of the same run.
func TestTmuxRecorderLosesNothing(t *testing.T) {
	dir := t.TempDir()
	data := streamBytes(256 << 10)
	src := filepath.Join(dir, "data")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// stty raw: the pty passes the bytes as they are (no \n -> \r\n), so
	// the copy can also be compared with the source.
	srv := tmuxtest.Start(t, 100, 30, "sh -c 'stty raw -echo; read _ < "+fifo+"; cat "+src+"; sleep 30'")
	copyPath := filepath.Join(dir, "pipe-pane.copy")
	srv.MustRun("pipe-pane", "-t", "main", "-o", "cat > "+copyPath)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env, Backlog: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	panes, err := client.Panes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := client.Follow(panes[0].Pane)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(feed, Header{Width: 100, Height: 30})
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rec.Run(rctx) }()
	if _, err := rec.Barrier(ctx); err != nil { // the first seed
		t.Fatal(err)
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var copied []byte
	for ctx.Err() == nil {
		if copied, _ = os.ReadFile(copyPath); len(copied) >= len(data) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	end, err := rec.Barrier(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	<-done
	got := rec.Finish(end)
	recorded := OutputBytes(got.Events)
	if !bytes.Equal(copied, data) {
		t.Fatalf("pipe-pane copy has %d bytes, the source %d (the pty changed them?)", len(copied), len(data))
	}
	if !bytes.Equal(recorded, copied) {
		i := 0
		for i < min(len(recorded), len(copied)) && recorded[i] == copied[i] {
			i++
		}
		t.Fatalf("recorded %d bytes, pipe-pane %d; first difference at %d", len(recorded), len(copied), i)
	}
	var nx int
	for _, e := range got.Events {
		if e.Code == OutputRaw {
			nx++
		}
	}
	if nx == 0 {
		t.Error("no x events: the stream's invalid bytes went missing")
	}
	// And the file round-trips.
	enc, err := Encode(got)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := Decode(enc)
	if err != nil || !bytes.Equal(OutputBytes(dec.Events), copied) {
		t.Fatalf("encoded recording does not decode to the same bytes (%v)", err)
	}
	t.Logf("%d bytes, %d events (%d x)", len(recorded), len(got.Events), nx)
}
