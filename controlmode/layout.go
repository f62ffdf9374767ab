package controlmode

import "bytes"

// parseLayout returns the leaves of a tmux layout string such as
// "820e,80x24,0,0{40x24,0,0,2,39x24,41,0,3}": a 4-hex-digit checksum, then
// a cell "WxH,X,Y" followed by ",ID" (a pane) or by "{...}" / "[...]"
// (children side by side / stacked, separated by commas).
func parseLayout(s string) ([]PaneGeometry, bool) {
	b := []byte(s)
	comma := bytes.IndexByte(b, ',')
	if comma != 4 {
		return nil, false
	}
	p := layoutParser{b: b[comma+1:]}
	if !p.cell() || len(p.b) != 0 {
		return nil, false
	}
	return p.panes, true
}

type layoutParser struct {
	b     []byte
	panes []PaneGeometry
}

func (p *layoutParser) cell() bool {
	w, ok1 := p.number('x')
	h, ok2 := p.number(',')
	x, ok3 := p.number(',')
	y, ok4 := p.numberEnd()
	if !(ok1 && ok2 && ok3 && ok4) {
		return false
	}
	if len(p.b) == 0 {
		return false
	}
	switch p.b[0] {
	case ',':
		p.b = p.b[1:]
		id, ok := p.numberEnd()
		if !ok {
			return false
		}
		p.panes = append(p.panes, PaneGeometry{Pane: PaneID(id), Width: w, Height: h, X: x, Y: y})
		return true
	case '{', '[':
		closer := byte('}')
		if p.b[0] == '[' {
			closer = ']'
		}
		p.b = p.b[1:]
		for {
			if !p.cell() || len(p.b) == 0 {
				return false
			}
			c := p.b[0]
			p.b = p.b[1:]
			if c == closer {
				return true
			}
			if c != ',' {
				return false
			}
		}
	}
	return false
}

// number reads digits up to and including sep.
func (p *layoutParser) number(sep byte) (int, bool) {
	i := bytes.IndexByte(p.b, sep)
	if i < 0 {
		return 0, false
	}
	n, ok := parseUint(p.b[:i], 1<<31-1)
	p.b = p.b[i+1:]
	return int(n), ok
}

// numberEnd reads digits up to the next non-digit (not consumed).
func (p *layoutParser) numberEnd() (int, bool) {
	i := 0
	for i < len(p.b) && p.b[i] >= '0' && p.b[i] <= '9' {
		i++
	}
	n, ok := parseUint(p.b[:i], 1<<31-1)
	p.b = p.b[i:]
	return int(n), ok
}

// layoutPanes merges the visible layout (which holds the real size of a
// zoomed pane) with the full one (which still lists the hidden panes).
func layoutPanes(layout, visible string) ([]PaneGeometry, bool) {
	all, ok := parseLayout(layout)
	if !ok {
		return nil, false
	}
	vis, ok := parseLayout(visible)
	if !ok {
		return nil, false
	}
	for i, g := range all {
		for _, v := range vis {
			if v.Pane == g.Pane {
				all[i] = v
			}
		}
	}
	return all, true
}
