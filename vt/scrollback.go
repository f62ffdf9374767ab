package vt

// scrollback is a bounded ring of lines that scrolled off the top of the
// primary screen. Pushing is O(1); when full, the oldest line is handed
// back so the caller can reuse it as the screen's new bottom line, which
// keeps a scrolling flood free of allocations.
type scrollback struct {
	lines []*line
	start int // index of the oldest line
	n     int
}

func newScrollback(limit int) scrollback {
	if limit < 0 {
		limit = 0
	}
	return scrollback{lines: make([]*line, limit)}
}

// push appends l and returns the evicted oldest line, or nil.
func (r *scrollback) push(l *line) (evicted *line) {
	if len(r.lines) == 0 {
		return l
	}
	if r.n < len(r.lines) {
		r.lines[(r.start+r.n)%len(r.lines)] = l
		r.n++
		return nil
	}
	evicted = r.lines[r.start]
	r.lines[r.start] = l
	r.start = (r.start + 1) % len(r.lines)
	return evicted
}

// at returns the i-th line, 0 being the oldest.
func (r *scrollback) at(i int) *line { return r.lines[(r.start+i)%len(r.lines)] }

// clear drops every line.
func (r *scrollback) clear() {
	for i := range r.lines {
		r.lines[i] = nil
	}
	r.start, r.n = 0, 0
}

// popNewest removes and returns the most recent line, or nil.
func (r *scrollback) popNewest() *line {
	if r.n == 0 {
		return nil
	}
	i := (r.start + r.n - 1) % len(r.lines)
	l := r.lines[i]
	r.lines[i] = nil
	r.n--
	return l
}
