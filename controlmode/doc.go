// Package controlmode speaks tmux control mode (tmux -C) as tmux 3.3a
// writes it: a sans-I/O decoder of the line protocol and a client that
// runs one control connection per session.
//
// # Decoder
//
// Decoder turns lines into typed events (events.go): Output and
// ExtendedOutput (pane bytes, unescaped from tmux's \ooo form, raw and not
// necessarily UTF-8), Reply (one %begin ... %end/%error block), one struct
// per notification, and Unknown/Stray for lines it does not know (newer
// tmux adds notifications; load-buffer - leaves a bare line). Replies are
// matched to command lines in order through Expectations: a block ends
// only at the line that repeats its %begin fields exactly, a line of
// several commands yields one block each, a failed command ends its line
// (tmux skips the rest), blocks with flags 0 (the implicit attach, hooks)
// answer nothing, and %pause/%continue may appear inside the block of
// refresh-client -A only. See testdata/decoder.
//
// # Client
//
// Client runs tmux -S <socket> -C attach-session -t =<session> on plain
// pipes: one reader goroutine that decodes and hands on without ever
// waiting for a consumer, one writer goroutine. Exec sends commands (one
// line, executed by tmux in one pass) and returns their replies or a
// *CommandError; ctx bounds the wait. Follow gives a pane's Feed: a
// bounded backlog of its output, re-seeded from tmux whenever the
// consumer's screen can no longer follow (overflow, %pause, respawn,
// resize, a pane that moved, a protocol anomaly). A Seed is the screen,
// the saved normal screen, the pending escape sequence and the cursor and
// modes, all taken by one command line so that no output falls between
// them. Mirror keeps a vt.Screen from a Feed, and Feed.Check compares it
// with tmux's at an exact point of the stream (CompareSeed).
//
// Input: SendKeys (key names), SendText (send-keys -l), SendBytes
// (send-keys -H), Paste (a buffer, paste-buffer -p -r -d). Identity:
// PaneInfo and Panes from tmux, ProcStat/ForegroundOf from /proc.
//
// # What it does not do
//
//   - It never sends refresh-client -C (that resizes the windows a person
//     looks at), never sets options (user or server), never attaches
//     read-only or detaching others, and detaches by closing stdin.
//   - It sees only the panes of the session it is attached to (tmux sends
//     %output for no other): run one Client per session, and take a window
//     linked into two sessions from one of them only.
//   - It does not emulate what tmux does silently: reflow on resize,
//     respawn-pane, send-keys -R and clear-history produce no output. A
//     resize is re-seeded from %layout-change; a respawn is noticed through
//     a pane_pid subscription (tmux polls it about once a second); reset
//     and clear-history are not noticed until a Check.
//   - tmux 3.3a cannot report the SGR pen, the DECSC saved cursor, the
//     character sets, tab stops, bracketed paste or focus mode, cells
//     erased with a background colour after a row's last printed cell, or
//     the first bytes of a UTF-8 character its parser holds: a screen
//     seeded at such a moment can differ until the program redraws (a
//     Check finds it and the Mirror re-seeds; a feed whose first bytes
//     after a seed are UTF-8 continuation bytes re-seeds by itself). The
//     normal screen under the alternate one is captured (SavedCapture)
//     but vt.Seed cannot load it yet.
//   - It does not prove that input reached a program: %end means tmux
//     queued the bytes on the pane's pty. Copy mode takes send-keys.
//   - A pane that prints a line equal to the closing guard of the block
//     that captures it (time and command number included) can end that
//     block early; the client then re-seeds every pane, but cannot
//     prevent it.
//   - It refuses commands that queue further commands (if-shell,
//     run-shell, source-file, the prompts): their extra blocks, some
//     arriving after a shell ran, cannot be matched to command lines.
//   - It does not choose panes, agents or sessions; the supervisor does.
package controlmode
