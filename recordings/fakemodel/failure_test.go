package fakemodel

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFailureBounded: a keyword with a Failure fails its first Times
// requests with the API's error (status, headers, body), then replies;
// the log names each failure and its status.
func TestFailureBounded(t *testing.T) {
	log := NewLog(nil)
	fail := &Failure{Kind: FailUsageLimit, Times: 2, RetryAfter: 7, ResetIn: time.Hour, ShouldRetry: "false"}
	s, err := Anthropic(Script{Keywords: []Keyword{{Word: "limit", Reply: Reply{Text: "through"}, Fail: fail}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hit the limit"}]}`
	for i := 1; i <= 2; i++ {
		resp, err := http.Post(s.URL()+"/v1/messages?beta=true", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Type  string `json:"type"`
			Error struct{ Type, Message string }
		}
		json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		h := resp.Header
		reset, _ := strconv.ParseInt(h.Get("anthropic-ratelimit-unified-reset"), 10, 64)
		if resp.StatusCode != 429 || v.Type != "error" || v.Error.Type != "rate_limit_error" || h.Get("retry-after") != "7" ||
			h.Get("x-should-retry") != "false" || h.Get("anthropic-ratelimit-unified-status") != "rejected" ||
			h.Get("anthropic-ratelimit-unified-representative-claim") != "five_hour" ||
			time.Until(time.Unix(reset, 0)) < 59*time.Minute || h.Get("request-id") == "" {
			t.Errorf("request %d: %d %+v %v", i, resp.StatusCode, v, h)
		}
	}
	_, evs := post(t, s.URL()+"/v1/messages?beta=true", body)
	if !strings.Contains(strings.Join(evs, "\n"), `"text":"through"`) {
		t.Errorf("after the failures: %v", evs)
	}
	reqs := log.Requests()
	if len(reqs) != 3 || reqs[0].Choice != "keyword:limit:fail:1" || reqs[1].Choice != "keyword:limit:fail:2" ||
		reqs[0].Status != 429 || !reqs[0].Done || reqs[2].Choice != "keyword:limit" || reqs[2].Status != 0 {
		t.Errorf("log %+v", reqs)
	}
}

// TestFailureShapes: each kind's status and body type per API, and the
// in-stream variants (Anthropic's error event, response.failed).
func TestFailureShapes(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		f          Failure
		status     int
		typ, code  string
		anthropic  bool
		wantHeader string
	}{
		{Failure{Kind: FailRateLimit}, 429, "rate_limit_error", "", true, "anthropic-ratelimit-requests-remaining"},
		{Failure{Kind: FailOverloaded}, 529, "overloaded_error", "", true, ""},
		{Failure{Kind: FailServerError}, 500, "api_error", "", true, ""},
		{Failure{Kind: FailOverloaded, Status: 503}, 503, "overloaded_error", "", true, ""},
		{Failure{Kind: FailRateLimit}, 429, "tokens", "rate_limit_exceeded", false, "x-ratelimit-reset-tokens"},
		{Failure{Kind: FailUsageLimit, ResetIn: time.Minute}, 429, "usage_limit_reached", "", false, ""},
		{Failure{Kind: FailOverloaded}, 503, "server_error", "server_is_overloaded", false, ""},
		{Failure{Kind: FailServerError, Status: 502}, 502, "server_error", "", false, ""},
	} {
		var s failureShape
		var e map[string]any
		if c.anthropic {
			s = anthropicFailure(c.f, now, "req_1")
			e = s.body["error"].(map[string]any)
		} else {
			s = responsesFailure(c.f, now, "req_1")
			e = s.body["error"].(map[string]any)
		}
		code, _ := e["code"].(string)
		if s.status != c.status || e["type"] != c.typ || code != c.code || c.wantHeader != "" && s.header.Get(c.wantHeader) == "" {
			t.Errorf("%+v (anthropic %v): %d %v %v", c.f, c.anthropic, s.status, e, s.header)
		}
		if c.f.Kind == FailUsageLimit && !c.anthropic && e["resets_at"] != now.Add(time.Minute).Unix() {
			t.Errorf("resets_at %v", e["resets_at"])
		}
	}

	log := NewLog(nil)
	over := &Failure{Kind: FailOverloaded, InStream: true}
	a, err := Anthropic(Script{Keywords: []Keyword{{Word: "busy", Fail: over}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_, evs := post(t, a.URL()+"/v1/messages", `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"busy"}]}`)
	if len(evs) != 2 || !strings.HasPrefix(evs[0], "message_start ") || !strings.HasPrefix(evs[1], `error {"error":{"message":"Overloaded","type":"overloaded_error"},"type":"error"}`) {
		t.Errorf("anthropic in-stream error: %v", evs)
	}
	o, err := Responses(Script{Keywords: []Keyword{{Word: "busy", Fail: over}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	_, evs = post(t, o.URL()+"/v1/responses", `{"stream":true,"input":[{"type":"message","role":"user","content":"busy"}]}`)
	if len(evs) != 2 || !strings.HasPrefix(evs[1], "response.failed ") || !strings.Contains(evs[1], `"code":"server_is_overloaded"`) {
		t.Errorf("responses in-stream error: %v", evs)
	}
	// Responses: plain HTTP failure with its status.
	o2, err := Responses(Script{Keywords: []Keyword{{Word: "slow", Fail: &Failure{Kind: FailRateLimit, RetryAfter: 3}}}}, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer o2.Close()
	resp, err := http.Post(o2.URL()+"/v1/responses", "application/json", strings.NewReader(`{"input":[{"type":"message","role":"user","content":"slow"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("retry-after") != "3" {
		t.Errorf("responses 429: %d %v", resp.StatusCode, resp.Header)
	}
}
