package benchinput

// Log returns about n bytes of plain ASCII log lines, each ending in CRLF,
// as a build or a server prints them into a pane that scrolls: a timestamp,
// a level, a component and a message with key=value fields. Most lines fit
// in Width columns; about one in thirty is longer and soft-wraps. There are
// no escape sequences and no other control characters.
//
// The stream is made of whole lines, so its length is n or up to one line
// less, and Log(m) is a prefix of Log(n) for m <= n.
func Log(n int) []byte {
	s := newStream(n)
	r := &rng{s: 0x106}
	ms := 0 // milliseconds since the first line
	for !s.full {
		ms += r.between(0, 40)
		logLine(s, r, ms)
	}
	return s.buf
}

var (
	logLevels     = []string{"INFO ", "INFO ", "INFO ", "DEBUG", "DEBUG", "WARN ", "ERROR"}
	logComponents = []string{"http", "worker", "db.pool", "scheduler", "cache", "auth", "build", "test-runner"}
	logWords      = []string{
		"request", "completed", "started", "connection", "reset", "retrying", "compiling",
		"package", "ok", "failed", "timeout", "waiting", "for", "lock", "acquired", "flushed",
		"segment", "queue", "drained", "cache", "miss", "hit", "upstream", "responded",
		"with", "status", "checkpoint", "written", "shard", "rebalanced", "token", "refreshed",
	}
	logKeys = []string{"id", "path", "status", "dur", "bytes", "attempt", "pkg", "user", "shard", "rows"}
)

func logLine(s *stream, r *rng, ms int) {
	s.begin()
	b := s.buf
	start := len(b)
	// 2026-03-01T09:14:07.123Z
	sec := ms / 1000
	b = append(b, "2026-03-01T"...)
	b = append2(b, 9+sec/3600%15)
	b = append(b, ':')
	b = append2(b, sec/60%60)
	b = append(b, ':')
	b = append2(b, sec%60)
	b = append(b, '.')
	b = append2(b, ms%1000/10)
	b = append(b, byte('0'+ms%10), 'Z', ' ')
	b = append(b, logLevels[r.intn(len(logLevels))]...)
	b = append(b, " ["...)
	b = append(b, logComponents[r.intn(len(logComponents))]...)
	b = append(b, '-')
	b = appendInt(b, r.intn(16))
	b = append(b, "] "...)

	target := r.between(40, Width-2)
	if r.intn(30) == 0 {
		target = r.between(Width+1, 3*Width) // a long line that wraps
	}
	for len(b)-start < target {
		if r.intn(3) == 0 {
			b = append(b, logKeys[r.intn(len(logKeys))]...)
			b = append(b, '=')
			switch r.intn(3) {
			case 0:
				b = appendInt(b, r.intn(100000))
			case 1:
				b = append(b, "/api/v1/"...)
				b = append(b, logWords[r.intn(len(logWords))]...)
			default:
				b = appendInt(b, r.intn(1000))
				b = append(b, '.')
				b = appendInt(b, r.intn(10))
				b = append(b, "ms"...)
			}
		} else {
			b = append(b, logWords[r.intn(len(logWords))]...)
		}
		b = append(b, ' ')
	}
	b = b[:len(b)-1] // no trailing space
	if limit := start + Width - 1; target < Width && len(b) > limit {
		b = b[:limit] // the last word overshot: cut it at the screen's edge
	}
	s.buf = append(b, '\r', '\n')
	s.end()
}

// append2 appends v as two digits.
func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10%10), byte('0'+v%10)) }
