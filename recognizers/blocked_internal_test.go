package recognizers

import "testing"

// TestAPIErrorShapeMatch: a shape holds on its prefix and fixed texts,
// and reads the reset time as printed up to its end marker; a shape that
// prints a reset time does not hold without one.
func TestAPIErrorShapeMatch(t *testing.T) {
	s := APIErrorShape{Prefix: "You've hit your usage limit.", Reason: BlockedUsageLimit, Status: 429,
		Resets: "try again at ", ResetsEnd: []string{". ", "."}}
	for text, want := range map[string]Block{
		"You've hit your usage limit. Upgrade to Pro, or try again at 7:01 AM.":   {Reason: BlockedUsageLimit, Status: 429, ResetsAt: "7:01 AM"},
		"You've hit your usage limit. Try again at Dec 2nd, 2026 7:01 AM.":        {},
		"You've hit your usage limit. or try again at .":                          {},
		"You have hit your usage limit. Upgrade to Pro, or try again at 7:01 AM.": {},
	} {
		got, ok := s.Match(text)
		if ok != (want != Block{}) || got != want {
			t.Errorf("%q: %+v %v, want %+v", text, got, ok, want)
		}
	}
	plain := APIErrorShape{Prefix: "API Error: Repeated 529", Has: []string{"at capacity"}, Reason: BlockedOverloaded, Status: 529}
	if b, ok := plain.Match("API Error: Repeated 529 Overloaded errors. The API is at capacity"); !ok || b.Reason != BlockedOverloaded || b.ResetsAt != "" {
		t.Errorf("plain shape: %+v %v", b, ok)
	}
	if _, ok := plain.Match("API Error: Repeated 529 Overloaded errors."); ok {
		t.Error("a shape holds without its fixed text")
	}
}
