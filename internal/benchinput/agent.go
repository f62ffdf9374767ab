package benchinput

// Agent returns about n bytes of full-screen agent-TUI redraws of a
// Width x Height screen, the way Ink (Claude Code) and ratatui (Codex) paint:
// every frame hides the cursor, positions each row with CUP, changes SGR
// every 3 to 8 cells (256-colour and truecolour foreground and background,
// bold, italic, resets, combined forms), draws rounded boxes with
// box-drawing characters, prints text in which WideFraction of the
// characters are wide (CJK ideographs and emoji), erases the rest of short
// rows with EL, and ends by placing and showing the cursor.
//
// The stream is made of whole tokens: it never ends inside an escape
// sequence or a UTF-8 sequence, so its length is n or a few bytes less. It
// is valid UTF-8, never writes past the last column (no autowrap), never
// scrolls, and Agent(m) is a prefix of Agent(n) for m <= n.
func Agent(n int) []byte {
	s := newStream(n)
	r := &rng{s: 0xa6e47}
	s.str("\x1b[H\x1b[2J")
	for !s.full {
		agentFrame(s, r)
	}
	return s.buf
}

// Row layouts of one frame.
const (
	rowFree   = iota // text of varying length, then EL
	rowTop           // ╭───╮
	rowBoxed         // │ text │
	rowBottom        // ╰───╯
)

func agentFrame(s *stream, r *rng) {
	s.str("\x1b[?25l")
	// A box of varying height somewhere in the upper half, a second one
	// (the input box) at the bottom, free text in between: the shape of an
	// agent transcript with its prompt.
	boxTop := r.between(1, 6)
	boxBottom := boxTop + r.between(3, 14)
	for row := 1; row <= Height && !s.full; row++ {
		layout := rowFree
		switch row {
		case boxTop, Height - 3:
			layout = rowTop
		case boxBottom, Height:
			layout = rowBottom
		default:
			if (row > boxTop && row < boxBottom) || row > Height-3 {
				layout = rowBoxed
			}
		}
		agentRow(s, r, row, layout)
	}
	s.str("\x1b[0m")
	cup(s, Height-1, 3+r.intn(40))
	s.str("\x1b[?25h")
}

func cup(s *stream, row, col int) {
	s.begin()
	s.buf = append(s.buf, "\x1b["...)
	s.buf = appendInt(s.buf, row)
	s.buf = append(s.buf, ';')
	s.buf = appendInt(s.buf, col)
	s.buf = append(s.buf, 'H')
	s.end()
}

func agentRow(s *stream, r *rng, row, layout int) {
	cup(s, row, 1)
	cells := Width
	if layout == rowFree {
		cells = r.between(12, Width)
	}
	col := 0 // cells drawn so far
	for col < cells && !s.full {
		sgr(s, r)
		run := min(r.between(3, 8), cells-col) // cells until the next SGR
		for run > 0 && !s.full {
			// The last cell of a boxed or border row is its right edge.
			first, last := col == 0, col == Width-1
			var w int
			switch layout {
			case rowTop:
				w = boxCell(s, first, last, '╭', '─', '╮')
			case rowBottom:
				w = boxCell(s, first, last, '╰', '─', '╯')
			case rowBoxed:
				if first || last {
					s.rune('│')
					w = 1
				} else {
					w = textCell(s, r, min(run, Width-1-col))
				}
			default:
				w = textCell(s, r, run)
			}
			col += w
			run -= w
		}
	}
	if cells < Width {
		s.str("\x1b[K")
	}
}

func boxCell(s *stream, first, last bool, left, mid, right rune) int {
	switch {
	case first:
		s.rune(left)
	case last:
		s.rune(right)
	default:
		s.rune(mid)
	}
	return 1
}

// wideChance is the chance that a text cell starts a wide character. It is
// above WideFraction because border characters are never wide and a wide
// character is replaced by a narrow one when fewer than two cells remain
// before the next SGR change or the row's end.
const wideChance = 0.087

// textCell prints one character that fits in room cells and returns its
// width.
func textCell(s *stream, r *rng, room int) int {
	if room >= 2 && r.chance(wideChance) {
		if r.intn(4) == 0 {
			// Emoticons and transport symbols: Emoji_Presentation, wide
			// everywhere, no variation selector needed.
			if r.intn(2) == 0 {
				s.rune(rune(0x1f600 + r.intn(0x50)))
			} else {
				s.rune(rune(0x1f680 + r.intn(0x46)))
			}
		} else {
			// CJK Unified Ideographs assigned since Unicode 1.1.
			s.rune(rune(0x4e00 + r.intn(0x5000)))
		}
		return 2
	}
	const text = "abcdefghijklmnopqrstuvwxyz    ABCDEFGHIJ0123456789.,:;-_/()[]{}<>=+*#@'\"`|~!?$%&^"
	s.rune(rune(text[r.intn(len(text))]))
	return 1
}

// sgr writes one SGR change, picked among the forms agent TUIs emit.
func sgr(s *stream, r *rng) {
	s.begin()
	b := append(s.buf, "\x1b["...)
	switch r.intn(9) {
	case 0: // 256-colour foreground
		b = append(b, "38;5;"...)
		b = appendInt(b, r.intn(256))
	case 1: // 256-colour background
		b = append(b, "48;5;"...)
		b = appendInt(b, r.intn(256))
	case 2, 3: // truecolour foreground (Ink and ratatui themes use RGB)
		b = append(b, "38;2;"...)
		b = appendRGB(b, r)
	case 4: // truecolour background
		b = append(b, "48;2;"...)
		b = appendRGB(b, r)
	case 5:
		b = append(b, '1') // bold
	case 6:
		b = append(b, '3') // italic
	case 7: // reset in its two spellings
		if r.intn(2) == 0 {
			b = append(b, '0')
		}
	case 8: // combined: reset, bold or dim, foreground colour
		b = append(b, "0;"...)
		if r.intn(2) == 0 {
			b = append(b, "1;"...)
		} else {
			b = append(b, "2;"...)
		}
		if r.intn(2) == 0 {
			b = append(b, "38;5;"...)
			b = appendInt(b, r.intn(256))
		} else {
			b = append(b, "38;2;"...)
			b = appendRGB(b, r)
		}
	}
	s.buf = append(b, 'm')
	s.end()
}

func appendRGB(b []byte, r *rng) []byte {
	b = appendInt(b, r.intn(256))
	b = append(b, ';')
	b = appendInt(b, r.intn(256))
	b = append(b, ';')
	return appendInt(b, r.intn(256))
}
