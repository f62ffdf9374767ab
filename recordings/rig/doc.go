// Package rig records real agent sessions offline: it installs a pinned
// agent with npm into a cache (or builds one from its source into the
// run), writes an isolated HOME and the agent's config, starts a fake
// model server (recordings/fakemodel) in the agent's API dialect (for an
// agent that talks to a model) and an isolated tmux server with a pane
// of fixed size, runs the agent there and drives a scenario through controlmode
// while recordings.Recorder records the pane. Waits are on the fake
// server's request log, the agent's journal (transcript, rollout, chats
// file) and stable anchors of the UI (footers, headers), each with a
// deadline, never on free text such as spinner verbs or tips.
//
// The rig is the engine; what it knows of an agent (its npm package or
// build, its fake-model dialect, its world, its journal, its scenarios)
// is an Agent value the agent's folder registers (Register). A scenario is a list of
// steps on the sticky-error driver (Steps); the step families every
// agent shares (threads, blocked surfaces, the secret question) are here
// with the hooks an agent fills in.
//
// The rig writes NAME.cast, NAME.final.txt and the journal. It never
// decides a screen state from akk's recognizers: markers come from the
// scenario's own knowledge.
//
// It also installs the MCP hosts akk's users run it in, OpenClaw and Pi,
// each on a pinned Node 24 from the npm registry (InstallHost, under a
// lock); recordings/hosts runs them.
//
// It talks only to 127.0.0.1 (and to the npm registry when installing),
// and after killing its tmux server it checks that no process of the run's
// HOME is left.
package rig
