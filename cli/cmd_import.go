package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"skein/internal/sanitize"
	"skein/store/convert"
)

var importCommand = command{
	name: "session import",
	args: "--file F [--format X] [--to T] [--out D]\n[--cwd D] [--json]",
	help: "a new session in store T (dhara or pi) from file or Dhara folder F of format X ({import formats}; guessed when left out); --out D: into D; --cwd D: its cwd when F names none; the same bytes again say where they went",
	run:  (*cli).importSession,
}

func (c *cli) importSession(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"format": true, "file": true, "to": true, "out": true, "cwd": true, "json": false})
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
	to := a.get("to")
	if a.has("to") && !slices.Contains(convert.Targets, to) {
		return usagef("--to %s: skein imports into %s", to, strings.Join(convert.Targets, " or "))
	}
	format := a.get("format")
	if a.has("format") && !slices.Contains(convert.Formats(), format) {
		return fail(1, "no importer for the format %q (formats: %s)", format, strings.Join(convert.Formats(), ", "))
	}
	env := c.env
	results, skipped, err := convert.ImportFileSkipping(file, convert.Options{Format: format, To: to, Out: a.get("out"), Cwd: a.get("cwd"), Env: env})
	if errors.Is(err, convert.ErrUnknownFormat) {
		return fail(1, "%s: %v: name it with --format", sanitize.Inline(file), err)
	}
	if err != nil && len(results) == 0 {
		c.printSkipped(skipped)
		return fail(1, "%s: %v", sanitize.Inline(file), err)
	}
	// What was imported stays imported: the conversations skipped are
	// named, on stderr and in --json, and the import still exits 0.
	defer c.printSkipped(skipped)
	if a.has("json") {
		for k := range results {
			results[k].Path, results[k].Earlier, results[k].Title = valid(results[k].Path), valid(results[k].Earlier), valid(results[k].Title)
		}
		for k := range skipped {
			skipped[k].Item, skipped[k].Title, skipped[k].Reason = valid(skipped[k].Item), valid(skipped[k].Title), valid(skipped[k].Reason)
		}
		var werr error
		if len(results) == 1 && len(skipped) == 0 {
			werr = c.writeJSON(results[0])
		} else {
			werr = c.writeJSON(struct {
				convert.Result
				Sessions []convert.Result  `json:"sessions"`
				Skipped  []convert.Skipped `json:"skipped,omitempty"`
			}{results[0], results, skipped})
		}
		if err != nil {
			return fail(1, "%s: %v", sanitize.Inline(file), err)
		}
		return werr
	}
	if len(results) > 0 && results[0].Guessed {
		fmt.Fprintf(c.stderr, "reading %s as %s\n", sanitize.Inline(file), results[0].Format)
	}
	for _, r := range results {
		// A conversation of an export is named as the list names it (an
		// untitled one by its first message, not by the export's file).
		what := sanitize.Inline(filepath.Base(file))
		if r.Listed != "" {
			what = fmt.Sprintf("%q", sanitize.Line(r.Listed))
		}
		switch {
		case r.Already:
			fmt.Fprintf(c.stdout, "already imported: %s\n", sanitize.Inline(r.Path))
			continue
		case r.Earlier != "":
			fmt.Fprintf(c.stdout, "the file changed since it was imported into %s: imported anew\n", sanitize.Inline(r.Earlier))
		}
		fmt.Fprintf(c.stdout, "imported %s into %s\n", what, sanitize.Inline(r.Path))
		if r.Note != "" {
			fmt.Fprintf(c.stderr, "note: %s\n", r.Note)
		}
	}
	if err != nil {
		return fail(1, "%s: %v", sanitize.Inline(file), err)
	}
	return nil
}

// printSkipped names on stderr each conversation of an export that was
// not imported, and why.
func (c *cli) printSkipped(skipped []convert.Skipped) {
	for _, sk := range skipped {
		what := "a conversation"
		switch {
		case sk.Title != "" && sk.Item != "":
			what = fmt.Sprintf("%q (%s)", sanitize.Line(sk.Title), sanitize.Inline(sk.Item))
		case sk.Title != "":
			what = fmt.Sprintf("%q", sanitize.Line(sk.Title))
		case sk.Item != "":
			what = sanitize.Inline(sk.Item)
		}
		fmt.Fprintf(c.stderr, "skipped %s: %s\n", what, sanitize.Line(sk.Reason))
	}
}
