package controlmode

import (
	"bytes"
	"time"
)

// notifications maps each tmux 3.3a notification name (control-notify.c,
// control.c, client.c) to its parser, one row per name as in tmux's own
// table. args is the text after the name and one space (nil if the line
// was only the name).
var notifications = map[string]func(d *Decoder, args []byte) (Event, string){
	"%extended-output": parseExtendedOutput,
	"%pause":           func(_ *Decoder, a []byte) (Event, string) { return panes(a, func(p PaneID) Event { return &Pause{p} }) },
	"%continue": func(_ *Decoder, a []byte) (Event, string) {
		return panes(a, func(p PaneID) Event { return &Continue{p} })
	},
	"%pane-mode-changed": func(_ *Decoder, a []byte) (Event, string) {
		return panes(a, func(p PaneID) Event { return &PaneModeChanged{p} })
	},
	"%window-pane-changed": parseWindowPaneChanged,
	"%window-add": func(_ *Decoder, a []byte) (Event, string) {
		return windows(a, func(w WindowID) Event { return &WindowAdd{w, false} })
	},
	"%unlinked-window-add": func(_ *Decoder, a []byte) (Event, string) {
		return windows(a, func(w WindowID) Event { return &WindowAdd{w, true} })
	},
	"%window-close": func(_ *Decoder, a []byte) (Event, string) {
		return windows(a, func(w WindowID) Event { return &WindowClose{w, false} })
	},
	"%unlinked-window-close": func(_ *Decoder, a []byte) (Event, string) {
		return windows(a, func(w WindowID) Event { return &WindowClose{w, true} })
	},
	"%window-renamed":          func(_ *Decoder, a []byte) (Event, string) { return windowRenamed(a, false) },
	"%unlinked-window-renamed": func(_ *Decoder, a []byte) (Event, string) { return windowRenamed(a, true) },
	"%session-changed":         parseSessionChanged,
	"%client-session-changed":  parseClientSessionChanged,
	"%client-detached":         parseClientDetached,
	"%session-renamed":         parseSessionRenamed,
	"%sessions-changed":        func(_ *Decoder, _ []byte) (Event, string) { return &SessionsChanged{}, "" },
	"%session-window-changed":  parseSessionWindowChanged,
	"%layout-change":           parseLayoutChange,
	"%subscription-changed":    parseSubscriptionChanged,
	"%exit":                    func(_ *Decoder, a []byte) (Event, string) { return &Exit{Reason: string(a)}, "" },
	"%end":                     guardOutside,
	"%error":                   guardOutside,
	"%output":                  func(_ *Decoder, _ []byte) (Event, string) { return nil, "no pane id" },
}

// parseNotification parses a %-line outside a block (other than %output
// and %begin, which the decoder handles itself).
func parseNotification(line []byte, d *Decoder) Event {
	name, args := line, []byte(nil)
	if i := bytes.IndexByte(line, ' '); i >= 0 {
		name, args = line[:i], line[i+1:]
	}
	parse, ok := notifications[string(name)]
	if !ok {
		return &Unknown{Line: string(line)}
	}
	e, err := parse(d, args)
	if err != "" {
		return &Unknown{Line: string(line), Err: err}
	}
	return e
}

func guardOutside(_ *Decoder, _ []byte) (Event, string) { return nil, "guard outside a block" }

// cut splits off the first space-separated word.
func cut(b []byte) (word, rest []byte) {
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

func panes(a []byte, mk func(PaneID) Event) (Event, string) {
	p, ok := parseID(a, '%')
	if !ok || p < 0 {
		return nil, "bad pane id"
	}
	return mk(PaneID(p)), ""
}

func windows(a []byte, mk func(WindowID) Event) (Event, string) {
	w, ok := parseID(a, '@')
	if !ok || w < 0 {
		return nil, "bad window id"
	}
	return mk(WindowID(w)), ""
}

// parseExtendedOutput: "%<pane> <age-ms> [future fields...] : <data>".
func parseExtendedOutput(d *Decoder, a []byte) (Event, string) {
	pw, rest := cut(a)
	p, ok := parseID(pw, '%')
	if !ok || p < 0 {
		return nil, "bad pane id"
	}
	aw, rest := cut(rest)
	age, ok := parseUint(aw, 1<<63-1)
	if !ok {
		return nil, "bad age"
	}
	// The reserved fields end at the first " : " (or a leading ": ").
	var data []byte
	switch i := bytes.Index(rest, []byte(" : ")); {
	case bytes.HasPrefix(rest, []byte(": ")):
		data = rest[2:]
	case i >= 0:
		data = rest[i+3:]
	default:
		return nil, "no data separator"
	}
	return &ExtendedOutput{Pane: PaneID(p), Age: time.Duration(age) * time.Millisecond, Data: d.unescape(data)}, ""
}

func parseWindowPaneChanged(_ *Decoder, a []byte) (Event, string) {
	ww, pw := cut(a)
	w, ok1 := parseID(ww, '@')
	p, ok2 := parseID(pw, '%')
	if !ok1 || !ok2 {
		return nil, "bad ids"
	}
	return &WindowPaneChanged{Window: WindowID(w), Pane: PaneID(p)}, ""
}

func windowRenamed(a []byte, unlinked bool) (Event, string) {
	ww, name := cut(a)
	w, ok := parseID(ww, '@')
	if !ok || w < 0 {
		return nil, "bad window id"
	}
	return &WindowRenamed{Window: WindowID(w), Name: string(name), Unlinked: unlinked}, ""
}

func parseSessionChanged(_ *Decoder, a []byte) (Event, string) {
	sw, name := cut(a)
	s, ok := parseID(sw, '$')
	if !ok {
		return nil, "bad session id"
	}
	return &SessionChanged{Session: SessionID(s), Name: string(name)}, ""
}

func parseClientSessionChanged(_ *Decoder, a []byte) (Event, string) {
	client, rest := cut(a)
	sw, name := cut(rest)
	s, ok := parseID(sw, '$')
	if !ok || len(client) == 0 {
		return nil, "bad client or session id"
	}
	return &ClientSessionChanged{Client: string(client), Session: SessionID(s), Name: string(name)}, ""
}

func parseClientDetached(_ *Decoder, a []byte) (Event, string) {
	if len(a) == 0 {
		return nil, "no client"
	}
	return &ClientDetached{Client: string(a)}, ""
}

func parseSessionRenamed(_ *Decoder, a []byte) (Event, string) {
	sw, name := cut(a)
	s, ok := parseID(sw, '$')
	if !ok {
		return nil, "bad session id"
	}
	return &SessionRenamed{Session: SessionID(s), Name: string(name)}, ""
}

func parseSessionWindowChanged(_ *Decoder, a []byte) (Event, string) {
	sw, ww := cut(a)
	s, ok1 := parseID(sw, '$')
	w, ok2 := parseID(ww, '@')
	if !ok1 || !ok2 {
		return nil, "bad ids"
	}
	return &SessionWindowChanged{Session: SessionID(s), Window: WindowID(w)}, ""
}

// parseLayoutChange: "@<win> <layout> <visible-layout> <raw-flags>"; the
// flags may be empty.
func parseLayoutChange(_ *Decoder, a []byte) (Event, string) {
	ww, rest := cut(a)
	w, ok := parseID(ww, '@')
	if !ok || w < 0 {
		return nil, "bad window id"
	}
	layout, rest := cut(rest)
	visible, flags := cut(rest)
	geo, ok := layoutPanes(string(layout), string(visible))
	if !ok {
		return nil, "bad layout"
	}
	return &LayoutChange{Window: WindowID(w), Layout: string(layout), VisibleLayout: string(visible),
		Flags: string(flags), Panes: geo}, ""
}

// parseSubscriptionChanged: "<name> $<s> @<w>|- <idx>|- %<p>|- [future...] : <value>".
func parseSubscriptionChanged(_ *Decoder, a []byte) (Event, string) {
	name, rest := cut(a)
	sw, rest := cut(rest)
	ww, rest := cut(rest)
	iw, rest := cut(rest)
	pw, rest := cut(rest)
	s, ok1 := parseID(sw, '$')
	w, ok2 := parseID(ww, '@')
	p, ok3 := parseID(pw, '%')
	idx := -1
	ok4 := true
	if !(len(iw) == 1 && iw[0] == '-') {
		var n uint64
		n, ok4 = parseUint(iw, 1<<31-1)
		idx = int(n)
	}
	if len(name) == 0 || !(ok1 && ok2 && ok3 && ok4) {
		return nil, "bad fields"
	}
	var value []byte
	switch i := bytes.Index(rest, []byte(" : ")); {
	case bytes.HasPrefix(rest, []byte(": ")):
		value = rest[2:]
	case bytes.Equal(rest, []byte(":")):
	case i >= 0:
		value = rest[i+3:]
	default:
		return nil, "no value separator"
	}
	return &SubscriptionChanged{Name: string(name), Session: SessionID(s), Window: WindowID(w),
		WindowIndex: idx, Pane: PaneID(p), Value: string(value)}, ""
}
