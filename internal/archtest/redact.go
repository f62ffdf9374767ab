package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// privateField names the fields that hold a fingerprint, a key plan, a
// draft, an answer or task text, or a secret or token (DESIGN invariant
// 8), when their type can hold it (text, bytes, a plan, answers).
var privateField = regexp.MustCompile(`(?i)^(fp|fingerprint|plan|draft|text|answer|answers|keys|request|requiretext|secret|token)$`)

// RedactExempt are struct types with such a field that need no redacted
// LogValue and String, each with its reason (a stale entry fails).
var RedactExempt = map[string]string{
	"vt.Cell":                      "one screen cell: what the screen shows, private only as a whole prompt region (which is fingerprinted)",
	"internal/popup.line":          "a rendered line of the person's own popup screen",
	"internal/popup.askChoice":     "a fixed choice of the popup (yes/no), not typed text",
	"recordings/fakemodel.block":   "the fake model server's reply text (a test script)",
	"recordings/fakemodel.glPart":  "the fake Google API server's request and reply text (a test script)",
	"recordings/fakemodel.Reply":   "the fake model server's reply text (a test script)",
	"recordings/hosts.PiReply":     "the fake model server's reply text as Pi shows it (a test script)",
	"supervisor.Supervisor":        "the daemon's root object: never a log attribute",
	"recognizers/replaycheck.Mark": "a marked screen of a recording (the corpus, or a qualification's run against the fake model): no person's text",
	"cmd/akk.RespondCmd":           "a command's flags, parsed from the person's own argv, never logged",
	"cmd/akk.SendCmd":              "a command's flags, parsed from the person's own argv, never logged",
	"cmd/akk.AnswerCmd":            "a command's flags, parsed from the person's own argv, never logged",
}

// Redaction lists the struct types of the module that hold a private field
// and lack a LogValue or String method (by name, on the type or its
// pointer), and stale exemptions.
func Redaction(root string, exempt map[string]string) ([]string, error) {
	type info struct {
		fields  []string
		methods map[string]bool
	}
	types := map[string]*info{}
	get := func(k string) *info {
		if types[k] == nil {
			types[k] = &info{methods: map[string]bool{}}
		}
		return types[k]
	}
	err := walkGo(root, func(p, rel string) error {
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return nil // Check reports it
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) > 0 {
					if name := recvName(d.Recv.List[0].Type); name != "" {
						get(pkg + "." + name).methods[d.Name.Name] = true
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						for _, n := range fl.Names {
							if privateField.MatchString(n.Name) && canHold(fl.Type) {
								in := get(pkg + "." + ts.Name.Name)
								in.fields = append(in.fields, n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for k, in := range types {
		if len(in.fields) == 0 {
			continue
		}
		if _, ok := exempt[k]; ok {
			continue
		}
		if !in.methods["LogValue"] || !in.methods["String"] {
			out = append(out, fmt.Sprintf("%s holds %s but lacks a redacted LogValue and String", k, strings.Join(in.fields, ", ")))
		}
	}
	for k, why := range exempt {
		if in := types[k]; in == nil || len(in.fields) == 0 {
			out = append(out, fmt.Sprintf("%s is exempt from redaction (%s) but holds no private field: remove the entry", k, why))
		}
	}
	sort.Strings(out)
	return out, nil
}

// canHold says whether a field's type can hold private text or bytes.
func canHold(t ast.Expr) bool {
	switch e := t.(type) {
	case *ast.Ident:
		return e.Name == "string" || e.Name == "Plan" || e.Name == "Answer"
	case *ast.StarExpr:
		return canHold(e.X)
	case *ast.ArrayType:
		if id, ok := e.Elt.(*ast.Ident); ok && (id.Name == "byte" || id.Name == "rune") {
			return true
		}
		return canHold(e.Elt)
	case *ast.SelectorExpr:
		return e.Sel.Name == "Plan" || e.Sel.Name == "Answer"
	}
	return false
}

func recvName(t ast.Expr) string {
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
