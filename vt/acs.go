package vt

// acsGlyph maps a byte printed while the DEC special graphics set is active
// (ESC ( 0 with SI, or ESC ) 0 with SO) to the glyph tmux 3.3a draws for it on
// a UTF-8 terminal (tty_acs_table in tty-acs.c). An empty entry means the
// byte has no line-drawing form and shows as itself: tmux keeps the ASCII
// byte in the cell and only translates it when drawing, so the parser and
// the capture reader both translate through this one table.
var acsGlyph = [128]string{
	'+': "→", // arrow pointing right
	',': "←", // arrow pointing left
	'-': "↑", // arrow pointing up
	'.': "↓", // arrow pointing down
	'0': "▮", // solid square block
	'`': "◆", // diamond
	'a': "▒", // checker board (stipple)
	'b': "␉",
	'c': "␌",
	'd': "␍",
	'e': "␊",
	'f': "°", // degree symbol
	'g': "±", // plus/minus
	'h': "␤",
	'i': "␋",
	'j': "┘", // lower right corner
	'k': "┐", // upper right corner
	'l': "┌", // upper left corner
	'm': "└", // lower left corner
	'n': "┼", // large plus or crossover
	'o': "⎺", // scan line 1
	'p': "⎻", // scan line 3
	'q': "─", // horizontal line
	'r': "⎼", // scan line 7
	's': "⎽", // scan line 9
	't': "├", // tee pointing right
	'u': "┤", // tee pointing left
	'v': "┴", // tee pointing up
	'w': "┬", // tee pointing down
	'x': "│", // vertical line
	'y': "≤", // less-than-or-equal-to
	'z': "≥", // greater-than-or-equal-to
	'{': "π", // greek pi
	'|': "≠", // not-equal
	'}': "£", // UK pound sign
	'~': "·", // bullet
}
