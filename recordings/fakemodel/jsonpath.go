package fakemodel

import (
	"encoding/json"
	"strconv"
	"strings"
)

// A path names one value inside a decoded JSON document, the way a
// scenario reads a tool result it has never seen (so that it holds no
// ids of its own):
//
//	$                       the document
//	.name                   a field of an object
//	[2]                     an element of an array
//	[agent==codex]          the first element whose field equals the value
//	[free_text!=true]       the first element whose field is absent or differs
//
// A filter's field may itself be dotted (`[row.agent==codex]`); values are
// compared as text (a number as JSON writes it, true, false, null). There
// is no quoting: values and field names hold no `.`, `[`, `]` or `=`.
// lookup reports false when the path does not resolve.
func lookup(doc any, path string) (any, bool) {
	rest, ok := strings.CutPrefix(path, "$")
	if !ok {
		return nil, false
	}
	cur := doc
	for rest != "" {
		var step string
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			step, rest = rest[1:end+1], rest[end+1:]
			obj, isObj := cur.(map[string]any)
			if !isObj || step == "" {
				return nil, false
			}
			if cur, ok = obj[step]; !ok {
				return nil, false
			}
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, false
			}
			step, rest = rest[1:end], rest[end+1:]
			arr, isArr := cur.([]any)
			if !isArr {
				return nil, false
			}
			if cur, ok = element(arr, step); !ok {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return cur, true
}

// element picks an array element by index or by filter.
func element(arr []any, sel string) (any, bool) {
	if n, err := strconv.Atoi(sel); err == nil {
		if n < 0 || n >= len(arr) {
			return nil, false
		}
		return arr[n], true
	}
	neg := false
	key, want, ok := strings.Cut(sel, "==")
	if !ok {
		if key, want, ok = strings.Cut(sel, "!="); !ok {
			return nil, false
		}
		neg = true
	}
	for _, e := range arr {
		v, found := lookup(e, "$."+key)
		if eq := found && text(v) == want; eq != neg {
			return e, true
		}
	}
	return nil, false
}

// text is a JSON value as a filter or condition compares it.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
