package recognizers

import (
	"strings"
	"testing"
)

// TestRedactedIDs: the id deriver prints nothing of its fingerprint. (The
// exported types are checked in internal/archtest; recognizers imports
// nothing but vt, so the check is written out here.)
func TestRedactedIDs(t *testing.T) {
	const secret = "s3cr3t-fingerprint"
	d := ids{fp: []byte(secret), profile: []byte("claude@2.1.267")}
	for _, s := range []string{d.String(), d.LogValue().String()} {
		if strings.Contains(s, secret) {
			t.Errorf("ids prints its fingerprint: %q", s)
		}
	}
}
