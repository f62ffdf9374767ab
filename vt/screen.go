package vt

// Options configures a Screen. The zero value is valid.
type Options struct {
	// Scrollback is how many lines scrolled off the top are kept.
	// 0 means DefaultScrollback; a negative value keeps none.
	Scrollback int
}

// DefaultScrollback is the scrollback kept when Options.Scrollback is 0.
const DefaultScrollback = 200

// Screen is a VT screen model fed by a pane's output stream. It is not
// safe for concurrent use.
type Screen struct {
	w, h int
}

// New returns a blank screen of the given size (each at least 1).
func New(width, height int, opts Options) *Screen { panic("vt: unimplemented") }

// Write feeds pane output. It accepts any bytes, split anywhere, and never
// fails.
func (s *Screen) Write(p []byte) (int, error) { panic("vt: unimplemented") }

// Size returns the width and height.
func (s *Screen) Size() (width, height int) { return s.w, s.h }

// Cell returns the cell at column x, row y of the visible screen.
func (s *Screen) Cell(x, y int) Cell { panic("vt: unimplemented") }

// Cursor returns the cursor.
func (s *Screen) Cursor() Cursor { panic("vt: unimplemented") }

// SetCell stores c at x, y (used to load a captured screen). A Width-2 cell
// also makes x+1 its padding cell.
func (s *Screen) SetCell(x, y int, c Cell) { panic("vt: unimplemented") }

// SetCursor moves the cursor; x may equal the width (pending wrap).
func (s *Screen) SetCursor(x, y int) { panic("vt: unimplemented") }
