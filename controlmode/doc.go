// Package controlmode speaks tmux control mode (tmux -C): a sans-I/O decoder
// of the line protocol and a client that runs one control connection.
package controlmode
