package terminal

import (
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// TestResetTime: the reset times agents print, placed after the moment
// the screen showed them; anything else is not read.
func TestResetTime(t *testing.T) {
	utc := time.UTC
	seen := time.Date(2026, 12, 2, 14, 30, 0, 0, utc)
	at := func(mo time.Month, d, h, m int) time.Time { return time.Date(2026, mo, d, h, m, 0, 0, utc) }
	for _, c := range []struct {
		shown string
		want  time.Time // zero: not read
	}{
		{"7pm", at(12, 2, 19, 0)},
		{"7:01 AM", at(12, 3, 7, 1)}, // past today: tomorrow
		{"2:30 PM", at(12, 3, 14, 30)},
		{"19:05", at(12, 2, 19, 5)},
		{"12am", at(12, 3, 0, 0)},
		{"12:15 PM", at(12, 3, 12, 15)},
		{"Dec 3rd, 2026 4:25 PM", at(12, 3, 16, 25)},
		{"Dec 3 4:25 PM", at(12, 3, 16, 25)},
		{"January 2 9:00 AM", time.Date(2027, 1, 2, 9, 0, 0, 0, utc)},
		{"in 2 hours 5 minutes", seen.Add(2*time.Hour + 5*time.Minute)},
		{"in 3 days", seen.Add(72 * time.Hour)},
		{"in 1 hr 20 min", seen.Add(80 * time.Minute)},
		{"in 45s", seen.Add(45 * time.Second)},
		{"7pm (Asia/Tokyo)", time.Date(2026, 12, 2, 19, 0, 0, 0, mustZone(t, "Asia/Tokyo")).In(utc).AddDate(0, 0, 1)},
		{"", time.Time{}},
		{"soon", time.Time{}},
		{"7", time.Time{}},
		{"25:00", time.Time{}},
		{"13pm", time.Time{}},
		{"7:1 PM", time.Time{}},
		{"Smarch 3 4:25 PM", time.Time{}},
		{"in a while", time.Time{}},
		{"in 2", time.Time{}},
		{"in 2 fortnights", time.Time{}},
	} {
		got, ok := ResetTime(c.shown, seen, utc)
		if ok != !c.want.IsZero() || ok && !got.Equal(c.want) {
			t.Errorf("%q: %v %v, want %v", c.shown, got, ok, c.want)
		}
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	return l
}

// FuzzResetTime: any text is read or not, never a panic, and a read
// time is after the moment it was seen (minus a day for a dated reset
// printed late).
func FuzzResetTime(f *testing.F) {
	for _, s := range []string{"7pm", "7:01 AM", "Dec 3rd, 2026 4:25 PM", "in 2 hours 5 minutes", "7pm (Asia/Tokyo)", "in 45s", "(", "()"} {
		f.Add(s)
	}
	seen := time.Date(2026, 12, 2, 14, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := ResetTime(s, seen, time.UTC); ok && got.Before(seen.AddDate(-1, 0, -2)) {
			t.Fatalf("%q read as %v, long before %v", s, got, seen)
		}
	})
}

// TestPlaceBlock: a block's printed reset time is read once, when the
// block is first seen, and kept while the same block is shown (a "7pm"
// read at 6:50 pm stays today's 7 pm when seen again at 7:01 pm); another
// block is read afresh; a block with no time gets none.
func TestPlaceBlock(t *testing.T) {
	loc := time.Local
	first := time.Date(2026, 12, 2, 18, 50, 0, 0, loc)
	b := placeBlock(nil, &api.Blocked{Reason: "usage_limit", ResetsAtShown: "7pm"}, first)
	want := time.Date(2026, 12, 2, 19, 0, 0, 0, loc)
	if !b.ResetsAt.Equal(want) {
		t.Fatalf("first seen: resets %v, want %v", b.ResetsAt, want)
	}
	again := placeBlock(b, &api.Blocked{Reason: "usage_limit", ResetsAtShown: "7pm"}, first.Add(11*time.Minute))
	if !again.ResetsAt.Equal(want) {
		t.Errorf("seen again after the reset: %v, want it kept at %v", again.ResetsAt, want)
	}
	other := placeBlock(again, &api.Blocked{Reason: "rate_limited", ResetsAtShown: "in 5 minutes"}, first)
	if !other.ResetsAt.Equal(first.Add(5 * time.Minute)) {
		t.Errorf("another block: %v", other.ResetsAt)
	}
	if none := placeBlock(other, &api.Blocked{Reason: "overloaded", HTTPStatus: 529}, first); !none.ResetsAt.IsZero() {
		t.Errorf("a block with no reset time: %v", none.ResetsAt)
	}
	if placeBlock(b, nil, first) != nil {
		t.Error("no block became one")
	}
}
