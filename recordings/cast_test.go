package recordings

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	rec := &Recording{
		Header: Header{Width: 120, Height: 40, Akk: &Akk{Agent: "claude", Version: "2.1.267",
			Scenario: "permission-approve", Recorder: RecorderVersion}},
		Events: []Event{
			{0.1, Output, []byte("\x1b[1mhi ❯ \"q\" \\ \x7f</>&\x00")},
			{0.2, OutputRaw, []byte{0xff, 0xe2}},
			{0.3, Input, []byte("\x1b[A\r")},
			{0.4, Resize, []byte("80x24")},
			{0.4, SeedEvent, []byte("a\n{\"cursor\":[0,0],\"alt\":false}\n")},
			{0.5, MarkerEv, []byte(`expect:idle {"composer":"empty"}`)},
		},
	}
	data, err := Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(`{"version":2,"width":120,"height":40,"akk":{"agent":"claude"`)) {
		t.Errorf("header line: %s", data[:bytes.IndexByte(data, '\n')])
	}
	if !bytes.Contains(data, []byte(`[0.100000, "o", "\u001b[1mhi ❯ \"q\" \\ \u007f</>&\u0000"]`)) {
		t.Errorf("o line not as expected:\n%s", data)
	}
	if !bytes.Contains(data, []byte(`[0.200000, "x", "/+I="]`)) {
		t.Errorf("x line not as expected:\n%s", data)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Header.Akk != *rec.Header.Akk || got.Header.Width != 120 {
		t.Errorf("header %+v", got.Header)
	}
	if len(got.Events) != len(rec.Events) {
		t.Fatalf("%d events, want %d", len(got.Events), len(rec.Events))
	}
	for i, e := range got.Events {
		w := rec.Events[i]
		if e.Time != w.Time || e.Code != w.Code || !bytes.Equal(e.Data, w.Data) {
			t.Errorf("event %d = %v %c %q, want %v %c %q", i, e.Time, e.Code, e.Data, w.Time, w.Code, w.Data)
		}
	}
}

func TestEncodeRefusesNonUTF8Text(t *testing.T) {
	for _, code := range []byte{Output, Input, SeedEvent, MarkerEv} {
		_, err := AppendEvent(nil, Event{Code: code, Data: []byte{0xff}})
		if !errors.Is(err, ErrNotUTF8) {
			t.Errorf("%c: err %v, want ErrNotUTF8", code, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	head := `{"version":2,"width":80,"height":24}` + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "empty recording"},
		{"version", `{"version":1,"width":80,"height":24}`, "version 1"},
		{"size", `{"version":2,"width":0,"height":24}`, "size 0x24"},
		{"fields", head + `[1, "o"]`, "2 fields"},
		{"code", head + `[1, "q", ""]`, "event code"},
		{"time", head + `[-1, "o", ""]`, "event time"},
		{"base64", head + `[1, "x", "!!"]`, "x event"},
		{"resize", head + `[1, "r", "80-24"]`, "size"},
		{"surrogate", head + `[1, "o", "\ud800"]`, "round-trip"},
		{"notjson", head + `[1, "o", "a"`, "event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.in))
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want ErrFormat with %q", err, tc.want)
			}
		})
	}
}

func TestDecodeAsciinemaFile(t *testing.T) {
	// A plain asciinema recording (no akk object) decodes too.
	in := "{\"version\": 2, \"width\": 10, \"height\": 2, \"timestamp\": 1, \"env\": {\"TERM\": \"xterm\"}}\n" +
		"[0.5, \"o\", \"a\\r\\nb\"]\n\n"
	rec, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Akk != nil || len(rec.Events) != 1 || string(rec.Events[0].Data) != "a\r\nb" {
		t.Errorf("got %+v", rec)
	}
}
