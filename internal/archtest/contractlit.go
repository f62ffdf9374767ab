package archtest

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"

	"golang.org/x/tools/go/packages"
)

// ContractLiterals lists the places in the packages below dir (their tests
// too) where a value of one of contract's types is compared with a bare
// string literal (== or !=, or a switch case) rather than with its
// constant: the contract's values have one spelling, and a literal that
// drifts from it ("awaiting-approval") compiles and never matches. The
// empty string (a zero value) is allowed. It needs type information, so
// it loads the packages with the go command (compiled export data).
func ContractLiterals(dir, contractPath string, tags ...string) ([]string, error) {
	cfg := &packages.Config{Dir: dir, Tests: true,
		Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	for _, t := range tags {
		cfg.BuildFlags = append(cfg.BuildFlags, "-tags="+t)
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("archtest: load %s: %w", dir, err)
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("archtest: %s: %v", p.PkgPath, p.Errors[0])
		}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if seen[name] {
				continue // a package's files recur in its test variant
			}
			seen[name] = true
			for _, pos := range contractLiteralsIn(f, p.TypesInfo, contractPath) {
				at := p.Fset.Position(pos)
				rel, _ := filepath.Rel(dir, at.Filename)
				out = append(out, fmt.Sprintf("%s:%d: a contract value compared with a bare string: use its constant", filepath.ToSlash(rel), at.Line))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func contractLiteralsIn(f *ast.File, info *types.Info, contractPath string) []token.Pos {
	var at []token.Pos
	check := func(lit, other ast.Expr) {
		if bl, ok := lit.(*ast.BasicLit); ok && bl.Kind == token.STRING && isContract(info.TypeOf(other), contractPath) {
			if v, err := strconv.Unquote(bl.Value); err == nil && v != "" {
				at = append(at, bl.Pos())
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				check(n.X, n.Y)
				check(n.Y, n.X)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil {
				for _, s := range n.Body.List {
					for _, e := range s.(*ast.CaseClause).List {
						check(e, n.Tag)
					}
				}
			}
		}
		return true
	})
	return at
}

func isContract(t types.Type, contractPath string) bool {
	nt, ok := types.Unalias(t).(*types.Named)
	return ok && nt.Obj().Pkg() != nil && nt.Obj().Pkg().Path() == contractPath
}
