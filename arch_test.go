package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestArchitecture holds the package rules ARCHITECTURE.md states: model
// does no IO and knows no store or screen; only store reaches a format's
// package; no cloud SDK is linked.
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
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			// model's tests may read fixtures; its code may not.
			inModel := (dir == "model" || strings.HasPrefix(dir, "model/")) && !strings.HasSuffix(p, "_test.go")
			switch {
			case inModel && (path == "os" || path == "io/fs" || path == "path/filepath" || path == "syscall" || path == "net" || strings.HasPrefix(path, "net/")):
				t.Errorf("%s imports %s: model does no IO", p, path)
			case inModel && (strings.HasPrefix(path, "skein/store") || strings.HasPrefix(path, "skein/tui")):
				t.Errorf("%s imports %s: model knows no store or screen", p, path)
			case strings.HasPrefix(path, "skein/store/") && dir != "store" && !strings.HasPrefix(dir, "store/") && p != "main.go":
				t.Errorf("%s imports the format package %s: only store reaches formats, and main.go wires them", p, path)
			case dir == "model" && strings.HasPrefix(path, "skein/") && !strings.HasPrefix(path, "skein/internal/"):
				t.Errorf("%s imports %s: model imports nothing of skein's but internal/", p, path)
			case strings.HasPrefix(dir, "internal/") && strings.HasPrefix(path, "skein/") && !strings.HasPrefix(path, "skein/internal/"):
				t.Errorf("%s imports %s: internal/ packages import only each other", p, path)
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
