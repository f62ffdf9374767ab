package archtest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Rules are what Check enforces; Default is akk's.
type Rules struct {
	Layers       [][]string
	Leaves       []string
	Only         map[string][]string
	Exclusive    map[string][]string
	Forbidden    map[string][]string
	MaxFileLines int
	MaxFuncLines int
	LongFuncs    map[string]string
	// AgentNames are the agents' names (nil: AgentNames of the tree
	// checked); an identifier or string literal of production code that
	// contains one (case-insensitively) outside AgentHome counts as a
	// mention, and more than MaxAgentMentions is a violation: the engines
	// name no agent.
	AgentNames       []string
	AgentHome        []string
	MaxAgentMentions int
	// Places are the things only some packages may do (read /proc, run
	// tmux): one row each.
	Places []Place
}

// Place is a thing only the Only packages' production code may do, and
// the Allowed others (each with its reason). Find gives the lines of a
// file that do it; the violation reads "<file>:<line>: <Does>, which
// only <Only> <Verb>".
type Place struct {
	Does, Verb string
	Only       []string
	Allowed    map[string]string
	Find       func(*token.FileSet, *ast.File) []int
}

// Default is akk's rules (rules.go).
func Default() Rules {
	return Rules{Layers: Layers, Leaves: Leaves, Only: Only, Exclusive: Exclusive, Forbidden: Forbidden,
		MaxFileLines: MaxFileLines, MaxFuncLines: MaxFuncLines, LongFuncs: LongFuncs,
		AgentHome: AgentHome, MaxAgentMentions: MaxAgentMentions,
		Places: Places}
}

// Report is what Check found: the violations and the dashboard's figures.
type Report struct {
	Violations []string
	Packages   int
	Files      int
	Lines      int
	Funcs      int
	// Largest are the largest files and functions, biggest first.
	LargestFiles []Sized
	LargestFuncs []Sized
	// AgentMentions counts agents named outside their home, and by
	// package (see Rules.AgentNames).
	AgentMentions      int
	AgentMentionsByPkg map[string]int
}

// Sized is a file or function with its length in lines.
type Sized struct {
	Name  string
	Lines int
}

// walkGo calls fn for every .go file of the module in root, with its
// slash-separated path from root, skipping testdata, hidden directories
// and nested modules (another module's files are not this one's).
func walkGo(root string, fn func(p, rel string) error) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || exists(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		return fn(p, filepath.ToSlash(rel))
	})
}

// Check reads every production .go file of the module in root (module
// path modPath), skipping testdata, hidden directories and nested modules.
func Check(root, modPath string, r Rules) (Report, error) {
	var rep Report
	if r.AgentNames == nil {
		names, err := AgentNames(root)
		if err != nil {
			return rep, err
		}
		r.AgentNames = names
	}
	pkgs := map[string]bool{}
	usedLong := map[string]bool{}
	err := walkGo(root, func(p, rel string) error {
		if strings.HasSuffix(p, "_test.go") {
			return checkFormat(p, rel, &rep) // tests: gofmt only
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		pkgs[pkg] = true
		return checkFile(p, rel, pkg, modPath, r, &rep, usedLong)
	})
	if err != nil {
		return rep, err
	}
	for k, why := range r.LongFuncs {
		if !usedLong[k] {
			rep.Violations = append(rep.Violations, fmt.Sprintf("%s: allowed past %d lines (%s) but no longer is: remove the entry", k, r.MaxFuncLines, why))
		}
	}
	if len(r.LongFuncs) > 5 {
		rep.Violations = append(rep.Violations, fmt.Sprintf("%d functions allowed past %d lines: at most 5", len(r.LongFuncs), r.MaxFuncLines))
	}
	for pkg := range pkgs {
		if r.layer(pkg) < 0 && !matchAny(r.Leaves, pkg) {
			rep.Violations = append(rep.Violations, fmt.Sprintf("%s: package %s is in no layer of the architecture (add it to archtest.Layers)", pkg, pkg))
		}
	}
	rep.Packages = len(pkgs)
	if rep.AgentMentions > r.MaxAgentMentions {
		rep.Violations = append(rep.Violations, fmt.Sprintf("%d mentions of an agent's name outside %s (budget %d): an engine names no agent",
			rep.AgentMentions, strings.Join(r.AgentHome, ", "), r.MaxAgentMentions))
	}
	sortSized(rep.LargestFiles)
	sortSized(rep.LargestFuncs)
	rep.LargestFiles = top(rep.LargestFiles, 5)
	rep.LargestFuncs = top(rep.LargestFuncs, 5)
	sort.Strings(rep.Violations)
	return rep, nil
}

func checkFormat(path, rel string, rep *Report) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
		rep.Violations = append(rep.Violations, rel+": not gofmt-clean")
	}
	return nil
}

func checkFile(path, rel, pkg, modPath string, r Rules, rep *Report, usedLong map[string]bool) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		rep.Violations = append(rep.Violations, fmt.Sprintf("%s: does not parse: %v", rel, err))
		return nil
	}
	rep.Files++
	lines := bytes.Count(src, []byte("\n"))
	rep.Lines += lines
	rep.LargestFiles = append(rep.LargestFiles, Sized{rel, lines})
	if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
		rep.Violations = append(rep.Violations, rel+": not gofmt-clean")
	}
	if lines > r.MaxFileLines && !ast.IsGenerated(f) {
		rep.Violations = append(rep.Violations, fmt.Sprintf("%s: %d lines (budget %d)", rel, lines, r.MaxFileLines))
	}
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		if v := r.importViolation(pkg, ip, modPath); v != "" {
			rep.Violations = append(rep.Violations, rel+": "+v)
		}
	}
	for _, pl := range r.Places {
		if matchAny(pl.Only, pkg) || pl.Allowed[pkg] != "" {
			continue
		}
		for _, line := range pl.Find(fset, f) {
			rep.Violations = append(rep.Violations, fmt.Sprintf("%s:%d: %s, which only %s %s", rel, line, pl.Does, strings.Join(pl.Only, ", "), pl.Verb))
		}
	}
	if !ast.IsGenerated(f) && !matchAny(r.AgentHome, pkg) {
		if n := agentMentions(f, r.AgentNames); n > 0 {
			if rep.AgentMentionsByPkg == nil {
				rep.AgentMentionsByPkg = map[string]int{}
			}
			rep.AgentMentions += n
			rep.AgentMentionsByPkg[pkg] += n
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		rep.Funcs++
		n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
		name := funcName(fd)
		rep.LargestFuncs = append(rep.LargestFuncs, Sized{rel + ":" + name, n})
		if n <= r.MaxFuncLines {
			continue
		}
		key := rel + ":" + name
		if _, ok := r.LongFuncs[key]; ok {
			usedLong[key] = true
			continue
		}
		rep.Violations = append(rep.Violations, fmt.Sprintf("%s: %s is %d lines (budget %d)", rel, name, n, r.MaxFuncLines))
	}
	return nil
}

// tmuxExecs are the lines of f's exec.Command and exec.CommandContext
// calls whose program is the literal "tmux".
func tmuxExecs(fset *token.FileSet, f *ast.File) []int {
	var lines []int
	ast.Inspect(f, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !isIdent(sel.X, "exec") || (sel.Sel.Name != "Command" && sel.Sel.Name != "CommandContext") {
			return true
		}
		i := 0
		if sel.Sel.Name == "CommandContext" {
			i = 1
		}
		if len(call.Args) > i {
			if bl, ok := call.Args[i].(*ast.BasicLit); ok && bl.Value == `"tmux"` {
				lines = append(lines, fset.Position(call.Pos()).Line)
			}
		}
		return true
	})
	return lines
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// procLiterals are the lines of f's string literals that hold "/proc".
func procLiterals(fset *token.FileSet, f *ast.File) []int {
	var lines []int
	ast.Inspect(f, func(x ast.Node) bool {
		if bl, ok := x.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if v, err := strconv.Unquote(bl.Value); err == nil && (v == "/proc" || strings.HasPrefix(v, "/proc/")) {
				lines = append(lines, fset.Position(bl.Pos()).Line)
			}
		}
		return true
	})
	return lines
}

// agentMentions counts the identifiers and string literals of f that
// contain an agent's name; comments and import paths do not count.
func agentMentions(f *ast.File, names []string) int {
	n := 0
	has := func(s string) bool {
		s = strings.ToLower(s)
		for _, a := range names {
			if strings.Contains(s, a) {
				return true
			}
		}
		return false
	}
	ast.Inspect(f, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Ident:
			if has(x.Name) {
				n++
			}
		case *ast.BasicLit:
			if x.Kind == token.STRING && has(x.Value) {
				n++
			}
		}
		return true
	})
	return n
}

// importViolation says why package pkg may not import ip ("" if it may).
func (r Rules) importViolation(pkg, ip, modPath string) string {
	for pat, bads := range r.Forbidden {
		if matchAny([]string{pat}, pkg) && contains(bads, ip) {
			return fmt.Sprintf("imports %s, which %s must not use", ip, pkg)
		}
	}
	for lib, owners := range r.Exclusive {
		if ip == lib || strings.HasPrefix(ip, lib+"/") {
			if !matchAny(owners, pkg) {
				return fmt.Sprintf("imports %s, which only %s may use", ip, strings.Join(owners, ", "))
			}
		}
	}
	own, ok := strings.CutPrefix(ip, modPath+"/")
	if !ok {
		return ""
	}
	if matchAny(r.Leaves, own) {
		return ""
	}
	if only, ok := r.Only[pkg]; ok && !matchAny(only, own) {
		return fmt.Sprintf("imports %s: %s may import only %s", own, pkg, strings.Join(only, ", "))
	}
	from, to := r.layer(pkg), r.layer(own)
	if matchAny(r.Leaves, pkg) {
		from = r.layer(LeafAs)
	}
	switch {
	case from < 0:
		return "" // reported once for the package (Check)
	case to < 0:
		return fmt.Sprintf("imports %s, which is in no layer of the architecture", own)
	case to <= from && own != pkg:
		return fmt.Sprintf("imports %s, which is not below it (DESIGN.md: imports point down only)", own)
	}
	return ""
}

// layer is pkg's layer: a layer naming it exactly, else the first whose
// pattern covers it.
func (r Rules) layer(pkg string) int {
	for i, l := range r.Layers {
		if contains(l, pkg) {
			return i
		}
	}
	for i, l := range r.Layers {
		if matchAny(l, pkg) {
			return i
		}
	}
	return -1
}

func matchAny(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if p == pkg {
			return true
		}
		if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) {
			return true
		}
		if ok, _ := path.Match(p, pkg); ok && strings.Contains(p, "*") {
			return true
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func sortSized(s []Sized) {
	sort.Slice(s, func(i, j int) bool {
		return s[i].Lines > s[j].Lines || s[i].Lines == s[j].Lines && s[i].Name < s[j].Name
	})
}

func top(s []Sized, n int) []Sized {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Dashboard prints the report for people.
func (rep Report) Dashboard() string {
	var b strings.Builder
	fmt.Fprintf(&b, "packages %d, files %d, lines %d, functions %d, violations %d\n", rep.Packages, rep.Files, rep.Lines, rep.Funcs, len(rep.Violations))
	b.WriteString("largest files:")
	for _, s := range rep.LargestFiles {
		fmt.Fprintf(&b, " %s (%d)", s.Name, s.Lines)
	}
	b.WriteString("\nlargest functions:")
	for _, s := range rep.LargestFuncs {
		fmt.Fprintf(&b, " %s (%d)", s.Name, s.Lines)
	}
	fmt.Fprintf(&b, "\nagents named outside their folders: %d", rep.AgentMentions)
	pkgs := make([]string, 0, len(rep.AgentMentionsByPkg))
	for p := range rep.AgentMentionsByPkg {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return rep.AgentMentionsByPkg[pkgs[i]] > rep.AgentMentionsByPkg[pkgs[j]] })
	for i, p := range pkgs {
		if i == 8 {
			break
		}
		fmt.Fprintf(&b, " %s (%d)", p, rep.AgentMentionsByPkg[p])
	}
	b.WriteString("\n")
	for _, v := range rep.Violations {
		b.WriteString("VIOLATION " + v + "\n")
	}
	return b.String()
}

// AgentNames are the agents of the tree at root: the Name constant of
// each agents/<folder> package that declares one (registry and the test
// helpers declare none). An agent is one folder, so adding one adds its
// name here.
func AgentNames(root string) ([]string, error) {
	dirs, err := os.ReadDir(filepath.Join(root, "agents"))
	if err != nil {
		return nil, fmt.Errorf("archtest: agents: %w", err)
	}
	var names []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, "agents", d.Name(), "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			if n := declaredName(f); n != "" {
				names = append(names, n)
				break
			}
		}
	}
	return names, nil
}

// declaredName is the value of a file's top-level `const Name = "..."`.
func declaredName(path string) string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name != "Name" || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil {
						return v
					}
				}
			}
		}
	}
	return ""
}
