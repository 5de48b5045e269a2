package cli

import (
	"bufio"
	"errors"
	"fmt"
	"slices"

	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
)

var doctorCommand = command{
	name: "doctor",
	args: "[--json] [--check-sessions] [PATH...]",
	help: "check sessions for problems (Dhara folders against their schemas too)",
	run:  (*cli).doctor,
}

func (c *cli) doctor(argv []string) error {
	// --check-sessions is the second seed's name for what doctor does to
	// every session: pi files as pi reads them, Dhara folders against
	// their schemas and themselves.
	a, err := parseArgs(argv, map[string]bool{"json": false, "check-sessions": false})
	if err != nil {
		return err
	}
	files, unreadable, err := c.files(a.pos)
	if err != nil {
		return err
	}
	files = withoutParts(files, a.pos) // a sub-agent's log is checked with its session
	folders := map[string]string{}     // the folders that could not be read, and why
	paths := slices.Clone(files)
	for _, p := range unreadable {
		folders[p.Path] = problemText(p.Err)
		paths = append(paths, p.Path)
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	problems := 0
	type problem struct {
		File    string `json:"file,omitempty"`
		Line    int    `json:"line"`
		Pointer string `json:"pointer,omitempty"`
		Message string `json:"message"`
		Warning bool   `json:"warning,omitempty"`
	}
	type fileReport struct {
		Path     string    `json:"path"`
		Format   string    `json:"format"`
		OK       bool      `json:"ok"`
		Problems []problem `json:"problems"`
	}
	report := []fileReport{}
	for _, f := range paths {
		diags, format, err := store.Check(f)
		if err != nil {
			diags = []model.Diagnostic{{Msg: problemText(err)}}
		}
		if why, ok := folders[f]; ok {
			diags, format = []model.Diagnostic{{Msg: why}}, store.FormatUnknown
		}
		errs := 0 // warnings are reported, not counted
		for _, d := range diags {
			if !d.Warning {
				errs++
			}
		}
		problems += errs
		if a.has("json") {
			r := fileReport{Path: valid(f), Format: string(format), OK: errs == 0, Problems: []problem{}}
			for _, d := range diags {
				r.Problems = append(r.Problems, problem{valid(d.File), d.Line, valid(d.Pointer), valid(d.Msg), d.Warning})
			}
			report = append(report, r)
			continue
		}
		if len(diags) == 0 {
			fmt.Fprintf(w, "%s: OK\n", sanitize.Inline(f))
			continue
		}
		for _, d := range diags {
			kind := ""
			if d.Warning {
				kind = "warning: "
			}
			fmt.Fprintf(w, "%s: %s%s\n", sanitize.Inline(d.Where(f)), kind, sanitize.Line(d.Msg))
		}
	}
	if a.has("json") {
		w.Flush()
		if err := c.writeJSON(report); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "%d %s checked, %d %s\n", len(files), plural(len(files), "session", "sessions"), problems, plural(problems, "problem", "problems"))
	}
	if problems > 0 {
		w.Flush()
		return &exitError{1, errors.New("")}
	}
	return nil
}

// withoutParts are files but the parts of other sessions (a Claude Code
// sub-agent's log beside its session), which are read with their session,
// as the list shows them, unless named themselves among pos.
func withoutParts(files, pos []string) []string {
	named := map[string]bool{}
	for _, p := range pos {
		named[p] = true
	}
	return slices.DeleteFunc(files, func(f string) bool { return !named[f] && store.IsPart(f) })
}
