package screen_test

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/vt"
)

// TestClaudeCompletion: Claude Code's completion list (thread-new,
// thread-resume: /clear and /resume typed) names the highlighted command
// only whole, in its recorded shape, highlighting the draft's command
// first; changing one thing gives none.
func TestClaudeCompletion(t *testing.T) {
	const composer, descX = 37, 32
	for _, c := range []struct {
		screentest.Shot
		draft      string
		other      string
		cmdX       int
		top, entry int // the list's first row; the second entry's row (-1: none)
		glyph      bool
	}{
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-new", Marker: 1}, "/clear", "2.1.332", 2, 32, 34, false},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume", Marker: 1}, "/clear", "2.1.332", 2, 32, 34, false},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume", Marker: 4}, "/resume", "2.1.332", 2, 31, 32, false},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-new", Marker: 1}, "/clear", "2.1.267", 4, 34, -1, true},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume", Marker: 1}, "/clear", "2.1.267", 4, 34, -1, true},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume", Marker: 4}, "/resume", "2.1.267", 4, 32, 33, true},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "thread-resume-id", Marker: 1}, "/clear", "2.1.332", 2, 32, 34, false},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "thread-resume-id", Marker: 1}, "/clear", "2.1.267", 4, 34, -1, true},
	} {
		lit, name, grey := screentest.Fg256(153, false), screentest.Fg256(153, true), screentest.Fg256(246, false)
		n := len(c.draft)
		cases := []screentest.Change{
			{Name: "another command typed", Mut: screentest.Written(3, composer, "k")},
			{Name: "a character typed after it", Mut: screentest.Written(2+n, composer, "x")},
			{Name: "an argument typed after it", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.WriteText(s, 2+n, composer, " 1", vt.Style{})
				return s
			}},
			{Name: "the highlighted entry grey", Mut: func(s *vt.Screen) *vt.Screen { screentest.Restyle(s, c.top, c.top, grey); return s }},
			{Name: "the command's name not bold", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, c.top, c.cmdX+1, c.cmdX+n, lit)
				return s
			}},
			{Name: "the description in another colour", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.RestyleCols(s, c.top, descX, descX+3, screentest.Fg256(114, false))
				return s
			}},
			{Name: "the list shifted right", Mut: func(s *vt.Screen) *vt.Screen {
				for y := c.top; y < 36; y++ {
					screentest.ShiftRight(s, y, 0)
				}
				return s
			}},
			{Name: "the description column moved", Mut: func(s *vt.Screen) *vt.Screen { screentest.ShiftRight(s, c.top, descX); return s }},
			{Name: "no blank row above the list", Mut: screentest.Written(0, c.top-1, "x")},
			{Name: "a description row over the list", Mut: func(s *vt.Screen) *vt.Screen {
				screentest.CopyRow(s, 35, c.top-1)
				return s
			}},
			{Name: "repainted in the light theme", Mut: lightPaint},
		}
		if c.glyph {
			cases = append(cases, screentest.Change{Name: "the glyph gone", Mut: screentest.Written(2, c.top, " ")})
		}
		if c.entry >= 0 {
			cases = append(cases,
				screentest.Change{Name: "two highlighted entries", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.Restyle(s, c.entry, c.entry, lit)
					screentest.RestyleCols(s, c.entry, c.cmdX+1, c.cmdX+8, name)
					return s
				}},
				screentest.Change{Name: "another entry highlighted", Mut: func(s *vt.Screen) *vt.Screen {
					screentest.Restyle(s, c.top, c.top+1, grey)
					screentest.Restyle(s, c.entry, c.entry, lit)
					screentest.RestyleCols(s, c.entry, c.cmdX+1, c.cmdX+8, name)
					if c.glyph {
						screentest.SetText(s, 2, c.top, " ")
						screentest.WriteText(s, 2, c.entry, "❯", lit)
					}
					return s
				}})
		}
		screentest.CheckCompletion(t, c.Shot, c.draft, cases, c.other, "2.1.999")
	}
}
