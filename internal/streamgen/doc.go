// Package streamgen generates pseudo-random terminal output streams for
// differential tests of akk's VT model against tmux 3.3a, and for
// benchmarks.
//
// A stream is a pure function of its seed: the same seed gives the same
// screen size, bytes, chunk boundaries and list of operations on every
// machine. Streams mix every sequence family the vt package must handle
// (see Family) with random text, wide and combining characters and broken
// UTF-8, and are cut into chunks at random places, inside escape
// sequences and UTF-8 characters too.
//
// The generator keeps to sequences whose effect on cells and cursor tmux
// 3.3a defines, including its quirks and the sequences it ignores, but it
// never emits OSC 7 (the oracle uses it as a sync marker). It does not
// judge the result: comparing against tmux is the caller's job.
package streamgen
