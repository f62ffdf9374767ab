// Package mcpserver serves akk's public contract to LLM hosts over the
// Model Context Protocol: the agent_knock_knock_<op> tools (list, status,
// send, approve, respond_interaction, cancel, watch, unwatch, close, renew,
// recover, retry_callback), built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk), over stdio or streamable HTTP
// on a loopback address. Over HTTP every request must carry the daemon's
// bearer token (api.ReadToken), name a loopback Host and Origin, and come
// from a socket of the daemon's uid (api.OwnerOnlyTCP): a port any local
// user can reach is made as strict as the 0600 unix socket (DESIGN
// invariant 10). On stdio a host that closes its input after its last
// request still gets every reply (drainTransport).
//
// Why here: it is a second face of the api contract, not a part of the
// daemon. It is a client of the running daemon through api.Client, like
// the CLI, and imports api only (DESIGN's import order), so it holds no
// store and can make no decision the daemon would not make for the CLI.
// It lives under api/ because that is its natural home in DESIGN's
// layout; a top-level package would add a layer the import order lacks.
//
// What it adds over the API:
//   - Hand-written input schemas that accept only semantic ids (each with
//     its prefix's pattern) and bounded text: no integers, no keys, menu
//     indexes, labels, fingerprints or routes. send's optional message_id
//     (an idempotency key, ^[A-Za-z0-9._-]{1,64}$) is the one caller-chosen
//     token; like the daemon's offers it is scoped to the MCP session's
//     controller. respond_interaction takes no
//     terminal_id: terminal-scoped response authority is for a person at a
//     local terminal, never for a model.
//   - One controller identity per MCP session (`mcp:<random>`): a Status
//     shown in one host conversation makes an offer that only that
//     conversation can consume (DESIGN invariant 7).
//   - Wake-ups: a terminal's new interaction (naming the Turn or Watch on
//     it, when this server saw them created), a managed Turn's end and a
//     Watch's own end reach the host as resource-update notifications of
//     akk://wakeups and as log messages. They carry ids and states only,
//     never authority; the host must call status again before it acts.
//   - A first check of typed text (control characters, a leading native
//     slash command, length) so that a raw key never leaves this process;
//     the daemon checks again.
//
// What it does not do: it keeps no state beyond the MCP sessions and a
// short ring of wake-ups, never retries a mutation, never asks the daemon
// for a person's renderings (styled prompt, screen text, drafts), and
// never supplies terminal-scoped response authority.
package mcpserver
