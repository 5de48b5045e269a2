package cli

import (
	"bufio"
	"errors"
	"fmt"

	"skein/internal/redact"
	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
)

var scanCommand = command{
	name: "scan",
	args: "[--json] [PATH...]",
	help: "which sessions hold secrets, of which kinds, at which entries (each told by its kind, first 4 characters and length); exit status 1 when one does",
	run:  (*cli).scan,
}

func (c *cli) scan(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"json": false})
	if err != nil {
		return err
	}
	files, _, err := c.files(a.pos)
	if err != nil {
		return err
	}
	files = withoutParts(files, a.pos) // a sub-agent's log is scanned with its session
	type found struct {
		Entry string `json:"entry"` // "" for the session's own (folder, name)
		Line  int    `json:"line"`
		Kind  string `json:"kind"`
		Head  string `json:"head"`
		Len   int    `json:"length"`
	}
	type report struct {
		Path    string         `json:"path"`
		Format  string         `json:"format"`
		Error   string         `json:"error,omitempty"`
		Kinds   map[string]int `json:"kinds"`
		Secrets []found        `json:"secrets"`
	}
	reports := []report{}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	holding := 0
	for _, f := range files {
		r := report{Path: valid(f), Kinds: map[string]int{}, Secrets: []found{}}
		s, err := store.OpenMapped(f)
		var secrets []model.Secret
		if err != nil {
			r.Error = valid(problemText(err))
		} else {
			r.Format = s.Info.Format
			if r.Format == "" {
				r.Format = "pi"
			}
			secrets = s.Secrets()
		}
		counts := map[redact.Kind]int{}
		for _, sec := range secrets {
			r.Kinds[sec.Kind.String()]++
			r.Secrets = append(r.Secrets, found{valid(sec.ID), sec.Line, sec.Kind.String(), valid(sec.Head), sec.Len})
			counts[sec.Kind]++
		}
		if len(secrets) > 0 {
			holding++
		}
		if a.has("json") {
			reports = append(reports, r)
			continue
		}
		switch {
		case err != nil:
			fmt.Fprintf(w, "%s: %s\n", sanitize.Inline(f), sanitize.Line(r.Error))
		case len(secrets) > 0:
			n, list := redact.Tally(func(k redact.Kind) int { return counts[k] })
			fmt.Fprintf(w, "%s: %d %s: %s\n", sanitize.Inline(f), n, plural(n, "secret", "secrets"), list)
			for _, sec := range secrets {
				where := "the session's folder or name"
				if sec.Entry >= 0 {
					where = "entry " + sanitize.Inline(sec.ID)
					if sec.Line > 0 {
						where += fmt.Sprintf(" (line %d)", sec.Line)
					}
				}
				fmt.Fprintf(w, "  %s: %s %s… (%d characters)\n", where, sec.Kind, sanitize.Inline(sec.Head), sec.Len)
			}
		}
	}
	if a.has("json") {
		w.Flush()
		if err := c.writeJSON(reports); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "%d %s scanned, %d %s secrets\n", len(files), plural(len(files), "session", "sessions"), holding, plural(holding, "holds", "hold"))
	}
	if holding > 0 {
		w.Flush()
		return &exitError{1, errors.New("")}
	}
	return nil
}
