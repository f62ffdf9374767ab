package archtest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
)

// Leak says where v's secret shows ("" when nowhere): in a log line through
// slog's JSON handler, or in fmt's %v, %+v and %s. Each package's
// redaction test calls it with values that hold secret in every private
// field (bytes too: they are looked for as text, hex, and the decimal
// lists fmt and JSON print).
func Leak(v any, secret string) string {
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("value", "v", v)
	forms := Forms(secret)
	var where []string
	for _, out := range []struct{ name, s string }{{"log", buf.String()}, {"%v", fmt.Sprintf("%v", v)},
		{"%+v", fmt.Sprintf("%+v", v)}, {"%s", fmt.Sprintf("%s", v)}} {
		for _, f := range forms {
			if strings.Contains(out.s, f) {
				where = append(where, out.name+": "+strings.TrimSpace(out.s))
				break
			}
		}
	}
	return strings.Join(where, "; ")
}

// Forms are the ways secret's bytes may print: the text, hex, base64 (as
// JSON encodes []byte), and the decimal lists of fmt and JSON arrays.
func Forms(secret string) []string {
	b := []byte(secret)[:8]
	dec := make([]string, len(b))
	for i, c := range b {
		dec[i] = fmt.Sprint(c)
	}
	return []string{secret, hex.EncodeToString([]byte(secret)), base64.StdEncoding.EncodeToString([]byte(secret))[:8],
		strings.Join(dec, " "), strings.Join(dec, ",")}
}
