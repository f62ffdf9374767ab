package fakemodel

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Failure answers a main-loop request with an API error instead of a
// reply, as the real APIs do at a rate limit, a usage limit or under
// load. It is bounded: a Keyword's first Times requests fail, later ones
// get its Reply, so an agent that retries gets through in the end and a
// recording ends either way.
type Failure struct {
	// Kind chooses the error's body and headers, shaped like the real
	// API's (see the table in failureShape): FailRateLimit, FailUsageLimit,
	// FailOverloaded, FailServerError.
	Kind string
	// Status is the HTTP status; 0: the kind's usual one (429, or 529 for
	// Anthropic overload and 503 for Responses overload, 500 for a server
	// error).
	Status int
	// Times is how many requests fail before the Reply is sent; 0: one.
	Times int
	// RetryAfter is the retry-after header in seconds; 0: none.
	RetryAfter int
	// ResetIn puts a reset time now+ResetIn into the kind's reset fields
	// (Anthropic anthropic-ratelimit-unified-reset, Responses resets_at);
	// 0: none.
	ResetIn time.Duration
	// ResetOnHour rounds that reset time up to the next whole hour, so an
	// agent that drops ":00" prints its short form ("10pm").
	ResetOnHour bool
	// ShouldRetry is the x-should-retry header ("true", "false"; "" none).
	// The Anthropic SDK and Claude Code take "false" as "do not retry".
	ShouldRetry string
	// InStream sends the error inside an SSE stream that started with 200
	// (Anthropic's "error" event after message_start, the Responses API's
	// response.failed) instead of as the HTTP status.
	InStream bool
}

// Failure kinds.
const (
	// A per-minute rate limit of an API key (Anthropic rate_limit_error,
	// OpenAI rate_limit_exceeded).
	FailRateLimit = "rate_limit"
	// A subscription's usage limit: Anthropic's unified rate limit
	// (anthropic-ratelimit-unified-status: rejected, representative claim
	// five_hour), OpenAI's usage_limit_reached with resets_at.
	FailUsageLimit = "usage_limit"
	// The API is overloaded (Anthropic 529 overloaded_error, OpenAI
	// server_is_overloaded).
	FailOverloaded = "overloaded"
	// An internal server error (Anthropic 500 api_error, OpenAI 500
	// server_error).
	FailServerError = "server_error"
)

// failureShape is one error as an API sends it: status, headers and the
// JSON body.
type failureShape struct {
	status int
	header http.Header
	body   map[string]any
}

// anthropicRateLimit is the Messages API's own 429 message, word for word
// (agents show it): kept as the payload sample it is.
//
//go:embed anthropic_ratelimit.txt
var anthropicRateLimit string

// anthropicFailure shapes f as the Messages API sends it.
func anthropicFailure(f Failure, now time.Time, reqID string) failureShape {
	s := failureShape{header: http.Header{}}
	typ, msg := "api_error", "Internal server error"
	switch f.Kind {
	case FailRateLimit:
		s.status, typ = 429, "rate_limit_error"
		msg = anthropicRateLimit
		s.header.Set("anthropic-ratelimit-requests-limit", "50")
		s.header.Set("anthropic-ratelimit-requests-remaining", "0")
		s.header.Set("anthropic-ratelimit-requests-reset", now.Add(cmpDur(f.ResetIn, time.Minute)).UTC().Format(time.RFC3339))
	case FailUsageLimit:
		s.status, typ, msg = 429, "rate_limit_error", "This request would exceed your account's rate limit. Please try again later."
		s.header.Set("anthropic-ratelimit-unified-status", "rejected")
		s.header.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
		s.header.Set("anthropic-ratelimit-unified-5h-status", "rejected")
		s.header.Set("anthropic-ratelimit-unified-5h-utilization", "1.0")
		s.header.Set("anthropic-ratelimit-unified-overage-status", "rejected")
		s.header.Set("anthropic-ratelimit-unified-overage-disabled-reason", "out_of_credits")
		if f.ResetIn > 0 {
			reset := strconv.FormatInt(f.resetAt(now).Unix(), 10)
			s.header.Set("anthropic-ratelimit-unified-reset", reset)
			s.header.Set("anthropic-ratelimit-unified-5h-reset", reset)
		}
	case FailOverloaded:
		s.status, typ, msg = 529, "overloaded_error", "Overloaded"
	case FailServerError:
		s.status = 500
	}
	if f.Status != 0 {
		s.status = f.Status
	}
	s.body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": reqID}
	s.header.Set("request-id", reqID)
	s.common(f)
	return s
}

// responsesFailure shapes f as the Responses API sends it.
func responsesFailure(f Failure, now time.Time, reqID string) failureShape {
	s := failureShape{header: http.Header{}}
	e := map[string]any{"type": "server_error", "param": nil, "code": nil,
		"message": "The server had an error while processing your request. Sorry about that!"}
	switch f.Kind {
	case FailRateLimit:
		s.status = 429
		e["type"], e["code"] = "tokens", "rate_limit_exceeded"
		e["message"] = "Rate limit reached for gpt-5.5 in organization org-fake on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s. Visit https://platform.openai.com/account/rate-limits to learn more."
		s.header.Set("x-ratelimit-limit-tokens", "30000")
		s.header.Set("x-ratelimit-remaining-tokens", "0")
		s.header.Set("x-ratelimit-reset-tokens", "2.4s")
	case FailUsageLimit:
		s.status = 429
		e["type"], e["message"], e["plan_type"] = "usage_limit_reached", "The usage limit has been reached", "plus"
		delete(e, "param")
		delete(e, "code")
		if f.ResetIn > 0 {
			e["resets_at"], e["resets_in_seconds"] = now.Add(f.ResetIn).Unix(), int(f.ResetIn.Seconds())
		}
	case FailOverloaded:
		s.status = 503
		e["code"] = "server_is_overloaded"
		e["message"] = "Our servers are currently overloaded. Please try again later."
	case FailServerError:
		s.status = 500
	}
	if f.Status != 0 {
		s.status = f.Status
	}
	s.body = map[string]any{"error": e}
	s.header.Set("x-request-id", reqID)
	s.common(f)
	return s
}

func (s *failureShape) common(f Failure) {
	if f.RetryAfter > 0 {
		s.header.Set("retry-after", strconv.Itoa(f.RetryAfter))
	}
	if f.ShouldRetry != "" {
		s.header.Set("x-should-retry", f.ShouldRetry)
	}
}

// write sends the failure as the HTTP status.
func (s failureShape) write(w http.ResponseWriter) {
	for k, vs := range s.header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(s.status)
	json.NewEncoder(w).Encode(s.body)
}

// resetAt is now+ResetIn, rounded up to the hour when ResetOnHour.
func (f Failure) resetAt(now time.Time) time.Time {
	at := now.Add(f.ResetIn)
	if f.ResetOnHour {
		if h := at.Truncate(time.Hour); h.Before(at) {
			at = h.Add(time.Hour)
		}
	}
	return at
}

func cmpDur(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// failing counts a keyword's failures; it is the one piece of state a
// Failure needs (the requests a retrying agent repeats look alike).
type failing struct {
	n map[string]int
}

// take reports whether the keyword's next request fails.
func (fl *failing) take(word string, f *Failure) bool {
	if f == nil {
		return false
	}
	if fl.n == nil {
		fl.n = map[string]int{}
	}
	times := f.Times
	if times <= 0 {
		times = 1
	}
	if fl.n[word] >= times {
		return false
	}
	fl.n[word]++
	return true
}

// failChoice names a failed request's choice in the log:
// "keyword:<word>:fail:<n>".
func failChoice(word string, n int) string { return fmt.Sprintf("keyword:%s:fail:%d", word, n) }
