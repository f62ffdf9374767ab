// Package parrotrig is Parrot, akk's test agent, in the recording rig
// (recordings/rig): how its program is built from this folder's source
// (no npm package), the world it starts in (an isolated HOME and
// nothing else: it talks to no model), where it writes its journal (its
// session file) and its scenarios, registered with rig.Register when the
// package is imported.
//
// It is test tooling: the tests that record or run Parrot import it; the
// daemon never does, and it imports no package of the agent's runtime
// knowledge (agents/parrot).
package parrotrig
