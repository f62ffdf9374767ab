package terminal

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// ResetTime turns a limit's reset time as an agent prints it into an
// instant, seen being when the screen showed it and loc the pane's time
// zone (the agent prints local time; a zone in parentheses, "7pm
// (Europe/Paris)", overrides loc). It reads:
//
//	"7pm", "7:01 AM", "19:01"             the next such time after seen
//	"Dec 3rd, 2026 4:25 PM", "Dec 3 4:25 PM"  that day (this year, or the next if past)
//	"in 2 hours 5 minutes", "in 3 days"   seen plus that
//
// Anything else is not read (ok false): a reset akk cannot place sends no
// wake-up, and the screen's own text is still reported.
func ResetTime(shown string, seen time.Time, loc *time.Location) (time.Time, bool) {
	s := strings.TrimSpace(shown)
	if i := strings.LastIndexByte(s, '('); i >= 0 && strings.HasSuffix(s, ")") {
		if l, err := time.LoadLocation(strings.TrimSpace(s[i+1 : len(s)-1])); err == nil {
			loc = l
		}
		s = strings.TrimSpace(s[:i])
	}
	if loc == nil {
		loc = time.Local
	}
	seen = seen.In(loc)
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "in "); ok {
		d, ok := relative(rest)
		return seen.Add(d), ok
	}
	words := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(words) == 0 {
		return time.Time{}, false
	}
	// The clock is the last word, or the last two ("4:25 PM").
	clock, date := words[len(words)-1:], words[:len(words)-1]
	if up := strings.ToUpper(clock[0]); (up == "AM" || up == "PM") && len(date) > 0 {
		clock, date = words[len(words)-2:], words[:len(words)-2]
	}
	h, m, ok := clockOf(strings.Join(clock, ""))
	if !ok {
		return time.Time{}, false
	}
	if len(date) == 0 {
		at := time.Date(seen.Year(), seen.Month(), seen.Day(), h, m, 0, 0, loc)
		if !at.After(seen) {
			at = at.AddDate(0, 0, 1)
		}
		return at, true
	}
	month, day, year, ok := dateOf(date, seen.Year())
	if !ok {
		return time.Time{}, false
	}
	at := time.Date(year, month, day, h, m, 0, 0, loc)
	if len(date) == 2 && at.Before(seen.Add(-24*time.Hour)) {
		at = at.AddDate(1, 0, 0) // "Jan 2" seen in December
	}
	return at, true
}

// clockOf reads "7pm", "7:01am", "19:01".
func clockOf(s string) (h, m int, ok bool) {
	s = strings.ToLower(s)
	ampm := ""
	if strings.HasSuffix(s, "am") || strings.HasSuffix(s, "pm") {
		ampm, s = s[len(s)-2:], s[:len(s)-2]
	}
	hs, ms, hasMin := strings.Cut(s, ":")
	h, err := strconv.Atoi(hs)
	if err != nil || len(hs) > 2 {
		return 0, 0, false
	}
	if hasMin {
		if m, err = strconv.Atoi(ms); err != nil || len(ms) != 2 || m > 59 {
			return 0, 0, false
		}
	} else if ampm == "" {
		return 0, 0, false // a bare number is no time
	}
	switch ampm {
	case "":
		if h > 23 {
			return 0, 0, false
		}
	default:
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		h %= 12
		if ampm == "pm" {
			h += 12
		}
	}
	return h, m, true
}

// dateOf reads "Dec 3rd 2026", "Dec 3", "December 3".
func dateOf(words []string, year int) (time.Month, int, int, bool) {
	if len(words) < 2 || len(words) > 3 {
		return 0, 0, 0, false
	}
	var month time.Month
	for m := time.January; m <= time.December; m++ {
		name := m.String()
		if strings.EqualFold(words[0], name) || strings.EqualFold(words[0], name[:3]) {
			month = m
		}
	}
	day, err := strconv.Atoi(strings.TrimRightFunc(words[1], unicode.IsLetter))
	if month == 0 || err != nil || day < 1 || day > 31 {
		return 0, 0, 0, false
	}
	if len(words) == 3 {
		if year, err = strconv.Atoi(words[2]); err != nil || year < 2000 || year > 2200 {
			return 0, 0, 0, false
		}
	}
	return month, day, year, true
}

// relative reads "2 hours 5 minutes", "3 days", "1 hr 20 min", "45s".
func relative(s string) (time.Duration, bool) {
	units := map[string]time.Duration{"d": 24 * time.Hour, "day": 24 * time.Hour, "h": time.Hour, "hr": time.Hour,
		"hour": time.Hour, "m": time.Minute, "min": time.Minute, "minute": time.Minute, "s": time.Second,
		"sec": time.Second, "second": time.Second}
	var total time.Duration
	n := -1 // a number waiting for its unit
	for _, w := range strings.Fields(strings.ReplaceAll(s, ",", " ")) {
		if w == "and" {
			continue
		}
		digits := strings.TrimRightFunc(w, unicode.IsLetter)
		if digits != "" {
			v, err := strconv.Atoi(digits)
			if err != nil || n >= 0 {
				return 0, false
			}
			n = v
		}
		unit := w[len(digits):]
		if unit == "" {
			continue
		}
		d, ok := units[unit]
		if !ok {
			d, ok = units[strings.TrimSuffix(unit, "s")]
		}
		if !ok || n < 0 {
			return 0, false
		}
		total, n = total+time.Duration(n)*d, -1
	}
	return total, total > 0 && n < 0
}
