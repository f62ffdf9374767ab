package mcpserver

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// idFields maps every id field (by name; "[]" for an array's items) to
// its prefix.
var idFields = map[string]string{
	"terminal_id": prefixTerminal, "turn_id": prefixTurn, "watch_id": prefixWatch, "session_id": prefixSession,
	"interaction_id": prefixInteraction, "question_id": prefixQuestion, "selected_option_ids[]": prefixOption,
	"notification_id": prefixNotification, "conflicting_session_id": prefixSession,
}

// keyFields are keys that are not ids of ours (no prefix) and not free
// text, each with its pattern and length: a caller's message_id, and the
// agent's own conversation id (a UUID) from the candidates.
var keyFields = map[string]struct {
	pattern string
	max     int
}{"message_id": {messageIDPattern, messageIDMax}, "native_thread_id": {threadIDPattern, 36}}

// freeText are the only paths where a string without a pattern or an
// enum may appear.
var freeText = []string{"request", "answers[].text"}

// forbiddenNames may not name any input field, whatever its schema: they
// are the private authority or the raw terminal input.
var forbiddenNames = regexp.MustCompile(`key|index|label|fingerprint|route|token|secret|offer|plan|digest|raw|command`)

var wantTools = []string{ToolList, ToolStatus, ToolSend, ToolAnswer, ToolApprove, ToolRespond, ToolCancel, ToolWatch, ToolUnwatch,
	ToolClose, ToolRenew, ToolRecover, ToolRetryCallback, ToolNewThread, ToolResumeThread, ToolReconcile, ToolNativeInspect,
	ToolIdentifyForeground, ToolIdentifyAndSend, ToolModelOptions, ToolSetModel, ToolRepairModel}

// TestSchemaHygiene walks every tool's input schema as a host receives it
// (tools/list JSON) and fails unless every object is closed, no field is
// an integer or a number, every string is bounded, every id has its
// prefix's pattern, free text is only where the contract puts it, and
// respond_interaction has no terminal_id.
func TestSchemaHygiene(t *testing.T) {
	_, srv := newFakeServer(t)
	cs := connect(t, srv, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		b, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var root map[string]any
		if err := json.Unmarshal(b, &root); err != nil {
			t.Fatal(err)
		}
		w := &schemaWalker{t: t, tool: tl.Name}
		w.walk(root, "")
		if tl.Name == ToolRespond && slices.Contains(w.fields, "terminal_id") {
			t.Errorf("%s accepts terminal_id: terminal-scoped response authority is for local people only", tl.Name)
		}
		for _, ft := range w.free {
			if !slices.Contains(freeText, ft) {
				t.Errorf("%s: free text at %s", tl.Name, ft)
			}
		}
		if tl.Description == "" || len(tl.Description) < 80 {
			t.Errorf("%s: description %q does not tell a model when to use it", tl.Name, tl.Description)
		}
		if acting := tl.Name == ToolApprove || tl.Name == ToolRespond; acting && !strings.Contains(tl.Description, "explicitly decided") {
			t.Errorf("%s: description does not say it needs the user's explicit intent", tl.Name)
		}
	}
	sort.Strings(names)
	want := slices.Clone(wantTools)
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

type schemaWalker struct {
	t      *testing.T
	tool   string
	fields []string // every property name
	free   []string // paths of free-text strings
}

func (w *schemaWalker) errorf(path, format string, args ...any) {
	w.t.Helper()
	w.t.Errorf("%s %s: "+format, append([]any{w.tool, path}, args...)...)
}

func (w *schemaWalker) walk(s map[string]any, path string) {
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "if", "patternProperties", "$ref", "$defs"} {
		if _, ok := s[k]; ok && !(k == "not" && path == "") {
			w.errorf(path, "uses %s, which this walk cannot vouch for", k)
		}
	}
	switch s["type"] {
	case "object":
		if ap, ok := s["additionalProperties"]; !ok || ap != false {
			w.errorf(path, "additionalProperties is %v, want false", ap)
		}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			w.fields = append(w.fields, name)
			if forbiddenNames.MatchString(name) {
				w.errorf(path, "field %q names private authority or raw input", name)
			}
			w.walk(p.(map[string]any), join(path, name))
		}
	case "array":
		if _, ok := s["maxItems"]; !ok {
			w.errorf(path, "array without maxItems")
		}
		items, ok := s["items"].(map[string]any)
		if !ok {
			w.errorf(path, "array without an items schema")
			return
		}
		w.walk(items, path+"[]")
	case "string":
		w.checkString(s, path)
	default:
		w.errorf(path, "type %v (integers, numbers, booleans and untyped values are not allowed)", s["type"])
	}
}

func (w *schemaWalker) checkString(s map[string]any, path string) {
	if _, ok := s["maxLength"]; !ok {
		w.errorf(path, "string without maxLength")
	}
	name := path[strings.LastIndexByte(path, '.')+1:]
	pattern, _ := s["pattern"].(string)
	if prefix, isID := idFields[name]; isID {
		if want := idPattern(prefix); pattern != want {
			w.errorf(path, "id pattern %q, want %q", pattern, want)
		}
		if ml, _ := s["maxLength"].(float64); int(ml) != len(prefix)+idChars {
			w.errorf(path, "id maxLength %v, want %d", s["maxLength"], len(prefix)+idChars)
		}
		return
	}
	if k, isKey := keyFields[name]; isKey {
		if ml, _ := s["maxLength"].(float64); pattern != k.pattern || int(ml) != k.max {
			w.errorf(path, "key pattern %q maxLength %v, want %q %d", pattern, s["maxLength"], k.pattern, k.max)
		}
		return
	}
	if strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_ids[]") {
		w.errorf(path, "an id field with no known prefix")
	}
	if _, isEnum := s["enum"]; !isEnum && pattern == "" {
		w.free = append(w.free, path)
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// privateKeys may not appear as a key anywhere in a tool's result (DESIGN
// invariant 8): the screen text and styled prompt are a person's, the rest
// is private authority.
var privateKeys = regexp.MustCompile(`(?i)fingerprint|route|token|secret|key_plan|offer_id|^ansi$|^screen$|draft_text|controller`)

// assertClean fails when a tool result carries a private key, in its
// structured content or its text content.
func assertClean(t *testing.T, tool string, res *mcp.CallToolResult) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal(b, &v)
	walkKeys(v, func(k string) {
		if privateKeys.MatchString(k) {
			t.Errorf("%s: result carries %q: %s", tool, k, b)
		}
	})
	if strings.Contains(string(b), "mcp:") {
		t.Errorf("%s: result names a controller: %s", tool, b)
	}
}

func walkKeys(v any, fn func(string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			fn(k)
			walkKeys(e, fn)
		}
	case []any:
		for _, e := range x {
			walkKeys(e, fn)
		}
	}
}
