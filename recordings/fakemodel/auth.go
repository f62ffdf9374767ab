package fakemodel

import (
	"net/http"
	"strings"
)

// authOf names how a request authenticated, for the log: Claude Code
// sends an API key as x-api-key, and a subscription's OAuth token
// (CLAUDE_CODE_OAUTH_TOKEN) as "Authorization: Bearer" with the beta
// "oauth-2025-04-20" in anthropic-beta (a bearer token without it is
// ANTHROPIC_AUTH_TOKEN's). The fake takes any (and none): only the log
// tells them apart, so a scenario can prove which login the agent ran
// with. The credential itself is never logged.
func authOf(h http.Header) string {
	switch {
	case strings.HasPrefix(h.Get("Authorization"), "Bearer ") && strings.Contains(h.Get("anthropic-beta"), "oauth-2025-04-20"):
		return "oauth"
	case strings.HasPrefix(h.Get("Authorization"), "Bearer "):
		return "bearer"
	case h.Get("x-api-key") != "":
		return "api_key"
	}
	return ""
}
