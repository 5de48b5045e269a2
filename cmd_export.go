package main

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"skein/export"
	"skein/internal/sanitize"
	"skein/store"
)

var exportCommand = command{
	name: "session export",
	args: "REF --format F [-o FILE] [--all-branches]",
	help: "the session, of any format, as F: json (Dhara's model), markdown or html (one self-contained page); stdout, or FILE written whole",
	run:  (*cli).export,
}

func (c *cli) export(argv []string) error {
	format := ""
	a, s, _, _, err := c.sessionArgs(argv, map[string]bool{"format": true, "o": true, "all-branches": false}, func(a *args) error {
		format = a.get("format")
		switch format {
		case "json", "markdown", "md", "html":
			return nil
		case "":
			return usagef("export needs --format json, markdown or html")
		}
		return usagef("--format is json, markdown or html, not %q", format)
	}, false)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	switch format {
	case "json":
		err = export.JSON(&out, s, time.Now())
	case "html":
		err = export.HTML(&out, s, export.Options{AllBranches: true, Location: time.Local})
	default:
		err = export.Markdown(&out, s, export.Options{AllBranches: a.has("all-branches"), Location: time.Local})
	}
	if err != nil {
		return err
	}
	if !a.has("o") || a.get("o") == "-" {
		_, err = c.stdout.Write(out.Bytes())
		return err
	}
	file := a.get("o")
	if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() {
		return fail(1, "%s is not a regular file", sanitize.Inline(file))
	}
	if err := store.WriteFileAtomic(file, out.Bytes()); err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "wrote %s\n", sanitize.Inline(file))
	return nil
}
