package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"skein/internal/sanitize"
	"skein/store"
)

var importCommand = command{
	name: "session import",
	args: "--file F [--format FORMAT] [--out DIR] [--json]",
	help: "a new Dhara session from another agent's session file (FORMAT: pi, dhara-jsonl, codex, claude, openai; guessed when left out); the same bytes again say where they went",
	run:  (*cli).importSession,
}

func (c *cli) importSession(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"format": true, "file": true, "to": true, "out": true, "json": false})
	if err != nil {
		return err
	}
	if len(a.pos) > 0 {
		return usagef("import takes no REF: name the file with --file")
	}
	file := a.get("file")
	if file == "" {
		return usagef("import needs --file F")
	}
	if to := a.get("to"); a.has("to") && to != "dhara" {
		return usagef("--to %s: skein imports into Dhara's store for now", to)
	}
	st, err := os.Stat(file)
	if err != nil {
		return fail(1, "%v", err)
	}
	if !st.Mode().IsRegular() {
		return fail(1, "%s is not a regular file", sanitize.Inline(file))
	}
	format := a.get("format")
	if format == "" {
		if format, err = store.GuessFormat(file); err != nil {
			return fail(1, "%s: %v", sanitize.Inline(file), err)
		}
		if !a.has("json") {
			fmt.Fprintf(c.stderr, "reading %s as %s\n", sanitize.Inline(file), format)
		}
	}
	if !slices.Contains(store.ImportFormats, format) {
		return fail(1, "no importer for the format %q (formats: %s)", format, strings.Join(store.ImportFormats, ", "))
	}
	root := c.env.DharaSessionRoot()
	if a.has("out") {
		root = a.get("out")
	}
	src, err := store.SourceOf(file, format)
	if err != nil {
		return fail(1, "%v", err)
	}
	if same, _ := store.Imported(root, src); same != "" {
		if a.has("json") {
			return c.writeJSON(struct {
				Path    string `json:"path"`
				Format  string `json:"format"`
				Already bool   `json:"already"`
			}{valid(same), format, true})
		}
		fmt.Fprintf(c.stdout, "already imported: %s\n", sanitize.Inline(same))
		return nil
	}
	_, earlier := store.Imported(root, src)
	s, err := store.OpenAs(file, format)
	if err != nil {
		return fail(1, "%s: %v", sanitize.Inline(file), err)
	}
	built := store.DharaModel(s, time.Now(), map[string][]byte{"importedFrom": src.JSON()})
	dir, err := store.WriteDhara(root, built)
	if err != nil {
		return fail(1, "%v", err)
	}
	if a.has("json") {
		return c.writeJSON(struct {
			Path   string `json:"path"`
			Format string `json:"format"`
		}{valid(dir), format})
	}
	if earlier != "" {
		fmt.Fprintf(c.stdout, "the file changed since it was imported into %s: imported anew\n", sanitize.Inline(earlier))
	}
	fmt.Fprintf(c.stdout, "imported %s into %s\n", sanitize.Inline(filepath.Base(file)), sanitize.Inline(dir))
	return nil
}
