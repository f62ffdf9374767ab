package recordings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyDir checks the recordings of $AKK_VERIFY_DIR (a rig output
// directory); it is a tool for whoever records, skipped otherwise.
func TestVerifyDir(t *testing.T) {
	dir := os.Getenv("AKK_VERIFY_DIR")
	if dir == "" {
		t.Skip("AKK_VERIFY_DIR not set")
	}
	casts, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	for _, c := range casts {
		t.Run(filepath.Base(c), func(t *testing.T) {
			verifyFiles(t, c, strings.TrimSuffix(c, ".cast")+".final.txt")
		})
	}
}

func verifyFiles(t *testing.T, castPath, finalPath string) {
	t.Helper()
	rec, final, err := CorpusFile{Cast: castPath, Final: finalPath}.Load()
	if err != nil {
		t.Fatal(err)
	}
	problems, err := Verify(rec, final)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
