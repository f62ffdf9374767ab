// Package qualify proves that an agent binary akk does not pin draws the
// surfaces akk acts on exactly as a pinned version does (issue 41), so
// that akk may act on that exact binary, on those surfaces, the day it is
// released.
//
// It runs the binary the user runs, offline, through the recording rig
// (recordings/rig: a private tmux server, a throw-away HOME, the fake
// model server of the agent's API on 127.0.0.1), one scenario at a time,
// with the pinned base's scenario knowledge. Each run's recording is then
// read with the base's profile (recognizers/replaycheck.Read): a marker's
// surface passes when the base profile reads it as the rig marked it,
// names the surface the base's own recording shows there (Table), and its
// key plan sends exactly the keys the rig sent, which then had the
// scenario's recorded effect (the rig's waits on the fake model's log and
// the agent's own record). A marker the run never drew is not reached; a
// reading that differs, or keys whose effect did not follow, fail.
//
// It writes nothing but the rig's temporary directory, reads nothing of
// the user's HOME, and decides nothing about the daemon: the caller
// stores the Report (store.Qualification) and the daemon reads the store.
package qualify
