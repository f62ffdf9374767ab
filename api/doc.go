// Package api is akk's public contract between the daemon and its clients
// (the CLI, the popup, an MCP host): the wire types, a typed Client, and the
// server side (Serve) that the supervisor plugs its operations into: one
// Handler interface with a method per operation, one route table
// (handler.go). The values its types carry (screen states, composer,
// interactions, decisions, ...) are package contract's, the only package of
// akk it imports: a client links no screen engine, vt or /proc reader.
//
// Transport: HTTP/1.1 with JSON bodies over a unix socket in
// $XDG_RUNTIME_DIR/akk/ (or a private directory in /tmp), directory 0700 and
// socket 0600. Every connection's peer uid is checked with SO_PEERCRED
// against the daemon's own; another uid gets 403 and the connection is
// closed before any operation runs. The clients check the same of the
// daemon before they send a byte (DialOwned: the directory not a link,
// theirs, 0700; the socket theirs; the server's SO_PEERCRED uid theirs),
// else ErrSocketNotOwned or ErrServerNotOwned. A body over MaxBody is
// 413 CodeTooLarge. Operations are POST /v1/<op>; errors are
// {"error":{"code","message"}}; GET /v1/events streams NDJSON, one event a
// line, flushed per event.
//
// A face on a TCP port (akk mcp --http) is held to the same rule: the
// daemon writes a bearer token (TokenName, 0600) beside its socket, and
// OwnerOnlyTCP refuses a loopback connection whose peer socket another uid
// owns, before any request is read (the daemon's side hands it the lookup:
// /proc/net/tcp through procid.ConnPeerUID).
//
// What it does not do: it holds no state and makes no decision; it carries
// no private authority (fingerprints, key plans, offers, draft text) — the
// types have no field for them.
package api
