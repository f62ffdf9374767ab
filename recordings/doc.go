// Package recordings reads and writes recorded agent sessions (asciicast v2
// with akk's header and markers), replays them, and holds the live rig.
// It never imports recognizers.
package recordings
