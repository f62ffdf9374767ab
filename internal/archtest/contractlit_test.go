package archtest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestContractLiterals: no contract value of akk is compared with a bare
// string. It loads the default build only: the fault build's own files
// (the crash tier's tests, the fault points) are few, and a second load
// under -tags akkfault compiled every package again, doubling this test's
// cost in a cold CI run (49 s of the unit tier).
func TestContractLiterals(t *testing.T) {
	got, err := ContractLiterals(filepath.Join("..", ".."), module+"/contract")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range got {
		t.Error(v)
	}
}

// TestContractLiteralsFixture proves the rule can fail: a module whose
// contract has one enum, compared with its constant (allowed), with ""
// (allowed), and with bare literals in an if, a != and a switch case
// (three violations, the test file's included).
func TestContractLiteralsFixture(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":               "module example.com/m\n\ngo 1.22\n",
		"contract/contract.go": "package contract\n\ntype Screen string\n\nconst Idle Screen = \"idle\"\n",
		"use/use.go": `package use

import "example.com/m/contract"

func Ok(s contract.Screen) bool { return s == contract.Idle || s == "" }

func Bad(s contract.Screen) bool {
	switch s {
	case "working":
		return true
	}
	return s == "idle"
}
`,
		"use/use_test.go": "package use\n\nimport \"example.com/m/contract\"\n\nvar _ = contract.Idle != \"idle\"\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ContractLiterals(dir, "example.com/m/contract")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"use/use.go:12: a contract value compared with a bare string: use its constant",
		"use/use.go:9: a contract value compared with a bare string: use its constant",
		"use/use_test.go:5: a contract value compared with a bare string: use its constant",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
