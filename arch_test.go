package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestArchitecture holds the package rules ARCHITECTURE.md states: model
// does no IO and knows no store or screen; no package outside store/
// reaches a format's package, but the converters (store/convert, which the
// front ends import; export, whose json is Dhara's model) and the wiring
// (store/formats, from main.go and the tests); the root package is main.go
// alone, and only it calls cli; no cloud SDK is linked.
func TestArchitecture(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (p == "third_party" || p == "testdata" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		dir := filepath.ToSlash(filepath.Dir(p))
		if dir == "." && p != "main.go" && !strings.HasSuffix(p, "_test.go") {
			t.Errorf("%s is in the root package: main.go only wires, the command line is cli's", p)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			// model's tests may read fixtures; its code may not.
			inModel := (dir == "model" || strings.HasPrefix(dir, "model/")) && !strings.HasSuffix(p, "_test.go")
			switch {
			case inModel && (path == "os" || path == "io/fs" || path == "path/filepath" || path == "syscall" || path == "net" || strings.HasPrefix(path, "net/")):
				t.Errorf("%s imports %s: model does no IO", p, path)
			case inModel && (strings.HasPrefix(path, "skein/store") || strings.HasPrefix(path, "skein/tui")):
				t.Errorf("%s imports %s: model knows no store or screen", p, path)
			case path == "skein/store/formats" && (p == "main.go" || strings.HasSuffix(p, "_test.go")):
				// main.go wires the formats; a test registers them too.
			case path == "skein/store/dhara" && dir == "export":
				// export is a converter: its json is Dhara's model.
			case strings.HasPrefix(path, "skein/store/") && path != "skein/store/convert" && dir != "store" && !strings.HasPrefix(dir, "store/"):
				t.Errorf("%s imports the format package %s: formats are reached through store's Backend, and store/formats wires them", p, path)
			case dir == "model" && strings.HasPrefix(path, "skein/") && !strings.HasPrefix(path, "skein/internal/"):
				t.Errorf("%s imports %s: model imports nothing of skein's but internal/", p, path)
			case strings.HasPrefix(dir, "internal/") && strings.HasPrefix(path, "skein/") && !strings.HasPrefix(path, "skein/internal/"):
				t.Errorf("%s imports %s: internal/ packages import only each other", p, path)
			case path == "skein/cli" && p != "main.go":
				t.Errorf("%s imports skein/cli: only main.go calls the command line", p)
			case path == "skein/mcpserver" && dir != "cli" && dir != "mcpserver":
				t.Errorf("%s imports skein/mcpserver: only the command line starts the MCP server", p)
			case dir == "mcpserver" && path == "skein/tui":
				t.Errorf("%s imports skein/tui: the MCP server stands beside the screens, not on them", p)
			case strings.HasPrefix(path, "github.com/modelcontextprotocol/") && dir != "mcpserver" && !(dir == "cli" && strings.HasSuffix(p, "_test.go")) && p != filepath.Join("cli", "cmd_mcp.go"):
				t.Errorf("%s imports %s: the MCP SDK is mcpserver's (and cmd_mcp.go's transport)", p, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked", checked)
	}
	model, err := exec.Command("go", "list", "-deps", "./model/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(model)) {
		if strings.HasPrefix(dep, "skein/") && !strings.HasPrefix(dep, "skein/model") && !strings.HasPrefix(dep, "skein/internal/") {
			t.Errorf("model depends on %s", dep)
		}
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "aws") || strings.HasPrefix(dep, "cloud.google.com") || strings.HasPrefix(dep, "google.golang.org/grpc") {
			t.Errorf("the binary links %s", dep)
		}
	}
}

// formatPackages are the session formats' packages: each implements its
// backend and registers itself with store.
var formatPackages = []string{"store/pi", "store/dhara", "store/dhara05", "store/claude", "store/codex", "store/gemini", "store/copilot", "store/qwen", "store/cursor", "store/openclaw", "store/omp", "store/droid", "store/kimi", "store/kimicli", "store/cline", "store/opencode", "store/kilo", "store/claudeai", "store/chatgpt"}

// converters may import the formats they write (ARCHITECTURE.md names
// them): store/convert imports and exports every format; export writes
// Dhara's JSON model.
var converters = map[string][]string{
	"store/convert": formatPackages,
	"export":        {"store/dhara"},
}

// TestFormatsArePlugins: the core knows no format (go list -deps ./store
// names none), and no format package depends on another: a format is a
// package of its own that registers itself, and only the converters
// ARCHITECTURE.md names reach several.
func TestFormatsArePlugins(t *testing.T) {
	mod, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module := strings.TrimSpace(string(mod)) + "/"
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", pkg, err)
		}
		var own []string
		for _, d := range strings.Fields(string(out)) {
			if strings.HasPrefix(d, module) {
				own = append(own, strings.TrimPrefix(d, module))
			}
		}
		return own
	}
	isFormat := func(p string) (string, bool) {
		for _, f := range formatPackages {
			if p == f || strings.HasPrefix(p, f+"/") {
				return f, true
			}
		}
		return "", false
	}
	core := deps("store")
	if len(core) < 3 {
		t.Fatalf("store depends on %q: the listing went wrong", core)
	}
	for _, d := range core {
		if f, ok := isFormat(d); ok {
			t.Errorf("store depends on the format package %s: the core knows no format", f)
		}
	}
	for _, f := range formatPackages {
		for _, d := range deps(f) {
			if g, ok := isFormat(d); ok && g != f {
				t.Errorf("the format package %s depends on %s: no format package imports another", f, g)
			}
		}
	}
	for conv, allowed := range converters {
		for _, d := range deps(conv) {
			if g, ok := isFormat(d); ok && !slices.Contains(allowed, g) {
				t.Errorf("the converter %s depends on %s, which ARCHITECTURE.md does not let it", conv, g)
			}
		}
	}
}

// TestArchitectureNamesEveryPackage: ARCHITECTURE.md names every package of
// the module, in backquotes, as its path in the module (`store/pi`,
// `internal/jscan`; the root package as `main`), so that a package added
// without a word there fails here rather than going unexplained.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	pkgs := strings.Fields(string(out))
	// go list skips testdata/ and third_party/chroma (a module of its
	// own); a listing this short means the command went wrong.
	if len(pkgs) < 20 {
		t.Fatalf("go list ./... gave %d packages: %q", len(pkgs), pkgs)
	}
	module := strings.TrimSpace(string(mod))
	for _, p := range pkgs {
		name := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if p == module {
			name = "main"
		}
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("ARCHITECTURE.md does not name the package %s (as `%s`): say where it stands and what it holds", p, name)
		}
	}
}

// TestNoFormatSwitchOutsideTheFormats: no screen and no command compares a
// session's format with one of store's format constants (==, !=, a switch
// case); what differs by format comes from the backend (store.Wording,
// Supports, Resume and the optional interfaces).
func TestNoFormatSwitchOutsideTheFormats(t *testing.T) {
	fset := token.NewFileSet()
	isFormatConst := func(e ast.Expr) bool {
		if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
			e = call.Args[0] // string(store.FormatPi)
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		return ok && x.Name == "store" && strings.HasPrefix(sel.Sel.Name, "Format") && sel.Sel.Name != "Format"
	}
	checked := 0
	for _, dir := range []string{".", "cli", "tui", "tui/transcript", "workflow", "mcpserver"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, p := range files {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if (n.Op == token.EQL || n.Op == token.NEQ) && (isFormatConst(n.X) || isFormatConst(n.Y)) {
						t.Errorf("%s: compares a format constant; ask the backend", fset.Position(n.Pos()))
					}
				case *ast.CaseClause:
					for _, e := range n.List {
						if isFormatConst(e) {
							t.Errorf("%s: a case of a format constant; ask the backend", fset.Position(e.Pos()))
						}
					}
				}
				return true
			})
		}
	}
	if checked < 20 {
		t.Fatalf("only %d files checked", checked)
	}
}
