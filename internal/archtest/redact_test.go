package archtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedaction: every type of akk that holds a fingerprint, a key plan, a
// draft, answer or task text, or a secret has a LogValue and a String
// (each package's own test logs it through slog's JSON handler and looks
// for the secret).
func TestRedaction(t *testing.T) {
	missing, err := Redaction(filepath.Join("..", ".."), RedactExempt)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Error(m)
	}
}

// TestRedactionFixture: the scan finds a private field without the
// methods, accepts one with them (on the pointer too), and fails a stale
// exemption.
func TestRedactionFixture(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a/a.go": "package a\n\ntype Bare struct{ Draft string }\n\ntype Kept struct{ fp [32]byte }\n\nfunc (k *Kept) LogValue() int { return 0 }\nfunc (k Kept) String() string { return \"\" }\n\ntype Flag struct{ Text bool }\n\ntype Auth struct{ Token string }\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Redaction(dir, map[string]string{"a.Gone": "stale"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.Auth holds Token but lacks", "a.Bare holds Draft but lacks", "a.Gone is exempt from redaction (stale)"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %d findings", got, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("finding %d: %q, want %q...", i, got[i], w)
		}
	}
}
