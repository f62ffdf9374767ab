// Package archtest is the house rules of akk as a Go test (seed 001's
// health budget): the import graph DESIGN.md draws, where pebble, fsnotify
// and the clock may be used, file and function sizes, gofmt. Check reads
// a module's source with go/parser; TestArchitecture runs it on akk and
// prints the dashboard, and a fixture proves each rule can fail.
//
// Test files are only checked for gofmt: a test may import what it needs
// to stand up the parts it tests (a tmux server, a real store).
package archtest
