package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestRedactedSecret: the store's secret record prints nothing of it.
func TestRedactedSecret(t *testing.T) {
	r := secretRecord{V: 1, Secret: []byte("s3cr3t-store-key")}
	for _, s := range []string{r.String(), r.LogValue().String(), fmt.Sprintf("%v %+v", r, r)} {
		if strings.Contains(s, "s3cr3t") || strings.Contains(s, "115 51 99") {
			t.Errorf("secret record prints its secret: %q", s)
		}
	}
}
