package archtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

// TestRefusalReasonsNamed: every refusal of the daemon names its reason
// with an api.Reason constant, and api.RefusalReasons lists each constant
// once.
func TestRefusalReasonsNamed(t *testing.T) {
	bad, err := RefusalLiterals(filepath.Join("..", "..", "supervisor"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	seen := map[string]bool{}
	for _, r := range api.RefusalReasons {
		if seen[r] {
			t.Errorf("reason %q listed twice", r)
		}
		seen[r] = true
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\nfunc f() { _ = reject(\"adhoc\", \"msg\"); _ = manual(api.ReasonNoOffer, \"ok\") }\n"), 0o644)
	if got, _ := RefusalLiterals(dir); len(got) != 1 {
		t.Errorf("fixture: %q, want one literal reason found", got)
	}
}
