package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// RefusalLiterals lists the refusals in the production files of dir whose
// reason is not a named api.Reason* constant: a caller branches on the
// reason, so it is part of the contract.
func RefusalLiterals(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, ok := call.Fun.(*ast.Ident)
			if !ok || (fn.Name != "reject" && fn.Name != "manual") {
				return true
			}
			if sel, ok := call.Args[0].(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Reason") {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "api" {
					return true
				}
			}
			out = append(out, fmt.Sprintf("%s: %s(...) with a reason that is not an api.Reason constant", fset.Position(call.Pos()), fn.Name))
			return true
		})
	}
	return out, nil
}
