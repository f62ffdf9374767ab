// Package fakemodel serves fake model APIs on 127.0.0.1 for driving the
// real Claude Code, Codex, Gemini CLI and OpenCode offline: the Anthropic
// Messages API (SSE and plain JSON, HEAD /api/hello, tool_use with
// input_json_delta), the OpenAI Responses API (SSE, function calls), the
// Gemini API (SSE, functionCall) and the OpenAI Chat Completions API (SSE
// chunks, tool_calls).
//
// Replies are scripted per scenario (Script: by keyword in the latest user
// prompt, or from a queue), or, for an agent that is itself the
// controller of other agents, decided by Rules from the conversation (the
// last tool result and paths into it), so that the fake model, like an
// LLM, only ever sends ids it read. A Keyword can also fail (Failure):
// its first requests get an API error shaped like the real API's (429
// rate or usage limit with retry-after and, for Anthropic, the
// anthropic-ratelimit-unified-* headers; 529 overloaded; OpenAI 5xx or
// response.failed), bounded so that a retrying agent gets through. Every request is logged (Log), so a
// driver can wait on "the agent asked the model" instead of on screen text.
//
// It is test support: it never listens beyond the loopback interface and
// knows nothing of tmux or recordings.
package fakemodel
