package fakemodel

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAuthLogged: the log names how each request authenticated (API key,
// a subscription's OAuth token, another bearer token, none), never the
// credential.
func TestAuthLogged(t *testing.T) {
	log := NewLog(nil)
	s, err := Anthropic(Script{}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, h := range []map[string]string{
		{"x-api-key": "sk-ant-api03-fake"},
		{"Authorization": "Bearer sk-ant-oat01-fake", "anthropic-beta": "claude-code-20250219,oauth-2025-04-20"},
		{"Authorization": "Bearer some-gateway-token"},
		{},
	} {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/v1/messages/count_tokens", strings.NewReader("{}"))
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	var got []string
	for _, r := range log.Requests() {
		got = append(got, r.Auth)
	}
	if strings.Join(got, ",") != "api_key,oauth,bearer," {
		t.Errorf("auth %q", got)
	}
}

// TestResetOnHour: ResetOnHour rounds the unified reset up to the next
// whole hour (an hour already whole stays).
func TestResetOnHour(t *testing.T) {
	for _, c := range []struct {
		now  time.Time
		in   time.Duration
		want time.Time
	}{
		{time.Date(2026, 12, 2, 19, 19, 46, 0, time.UTC), 2 * time.Hour, time.Date(2026, 12, 2, 22, 0, 0, 0, time.UTC)},
		{time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC), 2 * time.Hour, time.Date(2026, 12, 2, 22, 0, 0, 0, time.UTC)},
		{time.Date(2026, 12, 2, 23, 30, 0, 0, time.UTC), time.Hour, time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC)},
	} {
		f := anthropicFailure(Failure{Kind: FailUsageLimit, ResetIn: c.in, ResetOnHour: true}, c.now, "req_1")
		want := strconv.FormatInt(c.want.Unix(), 10)
		if got := f.header.Get("anthropic-ratelimit-unified-reset"); got != want || f.header.Get("anthropic-ratelimit-unified-5h-reset") != want {
			t.Errorf("%v + %v: reset %s, want %s", c.now, c.in, got, want)
		}
	}
}
