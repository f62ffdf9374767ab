package streamgen

import "strconv"

// Parameter generators. They favour the values where terminals differ:
// missing, zero, one, the screen edges and beyond, and the odd forms tmux's
// parameter parser treats specially.

// count returns a count parameter (CUU, ICH, SU, ...).
func (g *gen) count() string {
	switch n := g.r.IntN(100); {
	case n < 10:
		return ""
	case n < 15:
		return "0"
	case n < 32:
		return "1"
	case n < 57:
		return strconv.Itoa(2 + g.r.IntN(4))
	case n < 85:
		return strconv.Itoa(1 + g.r.IntN(max(g.w, g.h)+3))
	case n < 92:
		return strconv.Itoa(50 + g.r.IntN(950))
	case n < 95:
		return "9999"
	case n < 98:
		return "00" + strconv.Itoa(1+g.r.IntN(9)) // leading zeros
	default:
		return "2:1" // a sub-parameter where a number belongs: tmux ignores the sequence
	}
}

// coord returns a 1-based coordinate parameter for an axis of size n.
func (g *gen) coord(n int) string {
	switch k := g.r.IntN(100); {
	case k < 8:
		return ""
	case k < 13:
		return "0"
	case k < 20:
		return "1"
	case k < 27:
		return strconv.Itoa(n)
	case k < 90:
		return strconv.Itoa(1 + g.r.IntN(n+2))
	case k < 97:
		return strconv.Itoa(n + 1 + g.r.IntN(200))
	default:
		return "65535"
	}
}

// csi writes ESC [ params final.
func (g *gen) csi(params, final string) {
	g.str("\x1b[")
	g.str(params)
	g.str(final)
}

// esc writes ESC followed by s.
func (g *gen) esc(s string) {
	g.str("\x1b")
	g.str(s)
}

// st writes a string terminator: ESC \ mostly, BEL sometimes (only OSC
// accepts BEL; elsewhere it is part of the string or ignored).
func (g *gen) st() {
	if g.chance(1, 3) {
		g.str("\a")
	} else {
		g.str("\x1b\\")
	}
}
