// Package recognizers turns a vt screen into an agent screen state through
// closed, versioned profiles. It does no I/O and reads no clock.
//
// Recognize(profile, screen, key) returns a Recognition: the screen state
// and composer (package contract's values), the draft's text for local renderings
// only, activity evidence (spinner, interrupt hint, timers), the isolated
// prompt region and its styled fingerprint (vt.Fingerprint, taken before
// any redaction), the public projection in seed 000's
// agent-knock-knock/terminal-interaction v1 shape with ids derived from
// the fingerprint by HMAC-SHA256 under key, the private key plan (for each
// semantic choice the exact keys and the state the recapture must show),
// the reasons an interaction is manual_required, and, private like the
// draft, the slash command a completion list highlights, the proof that
// no list is drawn, and a resume picker's rows (Completion, NoCompletion,
// Picker: what a thread transition proves before its Enter), and the
// agent's own status result, parsed row by row with credentials withheld
// (Status: what a native inspection reads). A Recognizer
// does the same for one pane again and again, reading only the rows that
// changed.
//
// # Profiles
//
// One profile value per agent@exact-version, in one table (registry.go)
// that each agent's screen grammars fill from an init function
// (Register, database/sql style): the engine names no agent. A grammar
// (Grammar) is shared where versions agree and parameterised where they
// differ, and reads the screen through the kit exported here: the Grid,
// styles (StyleSpec), numbered menus (MenuLayout), status results
// (StatusLayout), startup and API-error shapes, the plan's steps
// (ChoiceSpec) and the reasons. Lookup is exact: any other version gets
// the agent's generic profile, whose states come with a compatibility
// warning and whose interactions are all manual_required.
// Everything a profile knows is a fact of the recordings in
// recordings/testdata (texts, styles, layouts), checked against their
// markers by recognizers/replaycheck.
//
// # Exactness
//
// A prompt is actionable only when the bottom-most complete one is proven
// from styled cells: its frame or title, its header, numbered rows 1..n in
// order, exactly one current row in the profile's highlight style (never
// from text alone), the profile's footer for that step, nothing below it
// and no other prompt above it. Anything else that looks like a prompt is
// manual_required with the reason named, or not a prompt at all (text
// without the profile's styles, a quotation in the transcript). Offered
// permission decisions are approve_once and, for Claude's "4. No", reject;
// persistent grants and auto mode are never offered; Codex's "No" row is
// its Esc, a cancel that interrupts the turn, so Codex offers no reject.
//
// Whatever its shape, a question whose header or prompt asks for a
// password, token, key or other secret is manual_required (secret_input)
// under every profile, exact or generic (secret.go): akk relays no
// secret. So is a label wrapped in a way no recording of the version
// shows, a Codex question outside request_user_input's 1-3 questions of
// 2-3 options, and a model option labelled like a free-text row.
//
// # What it does not do
//
// It sends no input and keeps no state between panes. It does not read
// transcripts or rollouts (watchers does), decide turns or ownership
// (supervisor), or fence consumed prompts (dispatch): the fingerprint and
// the plan are what those need. It never imports os, time, context,
// controlmode, store or recordings (lint_test.go).
package recognizers
