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

// TestRedactedPicker: a session picker logs its counts, never a title or
// detail (screen text of the person's sessions).
func TestRedactedPicker(t *testing.T) {
	const title, detail = "s3cr3t-title", "s3cr3t-detail"
	p := &Picker{Rows: []PickerRow{{Title: title, Detail: detail}}, Shown: 1, Total: 1}
	r := &Recognition{Picker: p, Completion: "/s3cr3t"}
	for _, s := range []string{p.String(), p.LogValue().String(), p.Rows[0].String(), p.Rows[0].LogValue().String(), r.String()} {
		if strings.Contains(s, "s3cr3t") {
			t.Errorf("a picker prints its text: %q", s)
		}
	}
}

// TestRedactedStatus: a status result logs its counts, never a name or
// value (screen text: paths, session ids), through the recognition too.
func TestRedactedStatus(t *testing.T) {
	p := &StatusPanel{Fields: []StatusField{{Name: "s3cr3t-name", Value: "s3cr3t-value"}, {Name: "Auth token", Redacted: true}}}
	r := &Recognition{Status: p}
	for _, s := range []string{p.String(), p.LogValue().String(), p.Fields[0].String(), p.Fields[0].LogValue().String(), r.String()} {
		if strings.Contains(s, "s3cr3t") {
			t.Errorf("a status result prints its text: %q", s)
		}
	}
	if s := p.String(); !strings.Contains(s, "fields=2") || !strings.Contains(s, "redacted=1") {
		t.Errorf("status logs %q, want its counts", s)
	}
}
