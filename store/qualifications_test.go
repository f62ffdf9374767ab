package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestQualifications: a record is kept across a reopen, read back by its
// agent and identity, replaced by a later run of the same binary, listed
// in key order; another identity is not qualified; records that cannot
// be a qualification are refused before anything is written.
func TestQualifications(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, nil)
	id := strings.Repeat("ab", 32)
	at := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	q := Qualification{Agent: "claude", Version: "2.1.337", Identity: id, Base: "2.1.332", Akk: "dev",
		Passed: []string{"permission/shell", "composer/idle"}, NotReached: []string{"question/multi"}, At: at}
	if err := s.PutQualification(q); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openT(t, dir, nil)
	got, err := s.Qualification("claude", id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Base != "2.1.332" || !got.Passes("permission/shell") || got.Passes("question/multi") ||
		got.Passed[0] != "composer/idle" || !got.At.Equal(at) {
		t.Errorf("read back %+v", got)
	}
	if _, err := s.Qualification("claude", strings.Repeat("cd", 32)); !errors.Is(err, ErrNotFound) {
		t.Errorf("another identity: %v, want not found", err)
	}
	q.Failed, q.Passed, q.At = []string{"permission/shell"}, []string{"composer/idle"}, at.Add(time.Hour)
	if err := s.PutQualification(q); err != nil {
		t.Fatal(err)
	}
	other := Qualification{Agent: "codex", Version: "0.172.0", Identity: strings.Repeat("01", 32), Base: "0.171.0", At: at}
	if err := s.PutQualification(other); err != nil {
		t.Fatal(err)
	}
	all, err := s.Qualifications()
	if err != nil || len(all) != 2 || all[0].Agent != "claude" || all[0].Passes("permission/shell") || all[1].Agent != "codex" {
		t.Errorf("listed %+v, %v", all, err)
	}
	for name, bad := range map[string]Qualification{
		"no identity":       {Agent: "claude", Version: "2.1.337", Base: "2.1.332", At: at},
		"no base":           {Agent: "claude", Version: "2.1.337", Identity: id, At: at},
		"no time":           {Agent: "claude", Version: "2.1.337", Identity: id, Base: "2.1.332"},
		"passed and failed": {Agent: "claude", Version: "2.1.337", Identity: id, Base: "2.1.332", At: at, Passed: []string{"x"}, Failed: []string{"x"}},
		"an empty surface":  {Agent: "claude", Version: "2.1.337", Identity: id, Base: "2.1.332", At: at, NotReached: []string{""}},
	} {
		if err := s.PutQualification(bad); !errors.Is(err, ErrQualification) {
			t.Errorf("%s: %v, want ErrQualification", name, err)
		}
	}
	if got, _ := s.Qualification("claude", id); !got.At.Equal(at.Add(time.Hour)) {
		t.Errorf("a refused record changed the stored one: %+v", got)
	}
}
