package api

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestBodyTooLarge: a body over MaxBody is answered 413 with the limit
// named (the security review's finding 7: it was cut at the limit and
// answered 400 "unexpected end of JSON input"); one at the limit is read
// whole.
func TestBodyTooLarge(t *testing.T) {
	c, sock := serveT(t, &fakeHandler{wake: make(chan struct{}, 1)}, t.TempDir())
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return DialOwned(ctx, sock)
	}}}
	post := func(body string) (int, *Error) {
		resp, err := hc.Post("http://akk/v1/status", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var eb errorBody
		b, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(b, &eb); err != nil || eb.Error == nil {
			t.Fatalf("%d %s: not an error body", resp.StatusCode, b)
		}
		return resp.StatusCode, eb.Error
	}
	status := func(n int) string { // a status request of n bytes
		head := `{"terminal_id":"term_b","pad":"`
		return head + strings.Repeat("x", n-len(head)-2) + `"}`
	}
	code, e := post(status(MaxBody + 1024))
	if code != http.StatusRequestEntityTooLarge || e.Code != CodeTooLarge || !strings.Contains(e.Message, strconv.Itoa(MaxBody)) {
		t.Errorf("over the limit: %d %+v", code, e)
	}
	t.Logf("over the limit: %d %v", code, e)
	// At the limit the body is read whole: the handler's own answer.
	if code, e := post(status(MaxBody)); code != http.StatusNotFound || e.Code != CodeNotFound {
		t.Errorf("at the limit: %d %+v", code, e)
	}
	// The typed client gets the code.
	_, err := c.Status(context.Background(), StatusRequest{TerminalID: strings.Repeat("t", 2*MaxBody)})
	if !IsCode(err, CodeTooLarge) {
		t.Errorf("client: %v", err)
	}
}
