package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"skein/export"
	"skein/internal/sanitize"
	"skein/store"
)

var exportCommand = command{
	name: "session export",
	args: "REF --format F [-o FILE|DIR [--force]] [--all-branches]\n[--no-redact]",
	help: "the session as F (json: Dhara's model, markdown, html: one page) to stdout, FILE (never over a session; another file only with --force or a yes) or DIR (named after its title and day); secrets redacted unless --no-redact",
	run:  (*cli).export,
}

func (c *cli) export(argv []string) error {
	format := ""
	a, s, _, _, err := c.sessionArgs(argv, map[string]bool{"format": true, "o": true, "all-branches": false, "force": false, "no-redact": false}, func(a *args) error {
		format = a.get("format")
		switch format {
		case "json", "markdown", "md", "html":
			return nil
		case "":
			return usagef("export needs --format json, markdown or html")
		}
		return usagef("--format is json, markdown or html, not %q", format)
	}, true)
	if err != nil {
		return err
	}
	secrets := ""
	write := func(w io.Writer) (err error) {
		o := export.Options{AllBranches: a.has("all-branches"), Location: time.Local, Redact: !a.has("no-redact")}
		secrets, err = export.As(w, s, format, o, time.Now())
		return err
	}
	// json's document cannot say what was redacted (it stays Dhara's
	// model): stderr does.
	say := func() {
		if secrets != "" {
			fmt.Fprintf(c.stderr, "secrets: %s\n", secrets)
		}
	}
	if !a.has("o") || a.get("o") == "-" {
		err := write(c.stdout)
		say()
		return err
	}
	file := a.get("o")
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		ext := map[string]string{"markdown": "md"}[format]
		if ext == "" {
			ext = format
		}
		file = filepath.Join(file, export.SessionFileName(s, ext, time.Local))
	}
	// Replaced only when the check saw a file of the user's there and they
	// allow it; a name that was free is taken by a link, which never
	// replaces a file made meanwhile.
	replace, err := c.env.CheckOutput(file)
	if err != nil {
		return fail(1, "%s", sanitize.Inline(err.Error()))
	}
	if replace && !a.has("force") && !c.confirm(fmt.Sprintf("%s exists; replace it? [y/N] ", sanitize.Inline(file))) {
		return fail(1, "%s exists; --force replaces it", sanitize.Inline(file))
	}
	if err := store.WriteOutput(file, replace, store.OutputMode(s.Info.Path), write); err != nil {
		return fail(1, "%s", sanitize.Inline(err.Error()))
	}
	fmt.Fprintf(c.stderr, "wrote %s\n", sanitize.Inline(file))
	say()
	return nil
}

// confirm asks a person at a terminal a yes-or-no question on stderr; with
// no person there (stdin or stderr not a terminal) the answer is no.
func (c *cli) confirm(question string) bool {
	if c.stdin == nil || !isTerminal(c.stderr) || !isTerminalReader(c.stdin) {
		return false
	}
	fmt.Fprint(c.stderr, question)
	line, _ := bufio.NewReader(c.stdin).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}
