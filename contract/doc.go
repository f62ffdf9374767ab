// Package contract is the public contract's vocabulary: the seed-000
// terminal-interaction projection and every enum a terminal row carries
// (screen_state, composer, the interaction's kind and state, response
// kinds, decisions, delivery modes, the permission's tool, and the three
// activity axes), as typed constants.
//
// It is the leaf everything that speaks the contract imports: the
// recognizers make these values, the supervisor combines them, api carries
// them on the wire, and the faces (CLI, MCP, popup, web page) show them.
// One spelling each: a contract value is compared with its constant here,
// never with a bare string (the architecture test checks it).
//
// It does not hold the wire's envelopes (requests, responses, errors,
// outcomes: package api), any agent's name (the agents register
// themselves), or anything that reads a screen. It imports nothing of akk
// and does no I/O.
package contract
