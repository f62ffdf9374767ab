// Package recordings reads and writes recorded agent sessions and replays
// them.
//
// A recording is an asciicast v2 file (playable by asciinema) with akk's
// header object and event codes (DESIGN.md, "Recordings"):
//
//	o  pane output, UTF-8 text (an incomplete rune is carried into the next o)
//	x  pane output bytes that are not UTF-8, base64 (players ignore it)
//	i  the exact bytes sent to the pane
//	r  a resize "WxH", followed by
//	s  a seed: the pane's screen as tmux had it (see Screen)
//	m  a marker "expect:<screen_state> <json>": ground truth written by
//	   whoever made the recording, never by akk's recognizers
//
// The codec (Header, Event, Encoder, Decode, OutputSplitter, Screen,
// Marker) is pure: no I/O, no clock. Replay drives a vt.Screen through a
// recording. Recorder turns a controlmode pane feed into events.
//
// The package never imports recognizers: a recording must be able to prove
// a recognizer wrong. It does not start agents or fake model servers: those
// live in the rig (recordings/rig) and recordings/fakemodel.
package recordings
