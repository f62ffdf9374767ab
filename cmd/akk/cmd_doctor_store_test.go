package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/store"
)

// TestDoctorStoreFiles: `akk doctor --store DIR` without a daemon runs
// the store's own check: a healthy store passes with its counts, one
// whose MANIFEST is gone fails naming it and what to do.
func TestDoctorStoreFiles(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(store.Change{Events: []store.Event{{Type: "test"}}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if c := checkStoreFiles(dir); !c.OK || !strings.Contains(c.Detail, "pebble's check passed") {
		t.Fatalf("healthy: %+v", c)
	}
	ms, _ := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
	for _, m := range ms {
		os.Remove(m)
	}
	c := checkStoreFiles(dir)
	if c.OK || !strings.Contains(c.Detail, "MANIFEST") || c.Fix == "" || strings.Contains(c.Detail, "\n") {
		t.Fatalf("no MANIFEST: %+v", c)
	}
	t.Logf("%s\nfix: %s", c.Detail, c.Fix)
}
