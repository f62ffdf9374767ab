package vt

// Cell is one screen cell as callers see it.
//
// A wide character occupies two cells: the first holds its Text with
// Width 2, the second is a padding cell with Width 0 and empty Text.
// Combining marks are part of the Text of the cell they join.
type Cell struct {
	Text  string // a grapheme: base character plus combining marks; " " when erased
	Width uint8  // 1, 2, or 0 for the padding cell right of a wide character
	Style Style
	// Link is the OSC 8 hyperlink target the cell was printed under, if
	// any (tcell.Style holds it too, but offers no way to read it back).
	Link string
}

// Cursor is the cursor position and visibility. X may equal the screen
// width: that is the pending-wrap state after writing the last column,
// where the next printable character wraps first (tmux reports the same).
type Cursor struct {
	X, Y    int
	Visible bool
}
