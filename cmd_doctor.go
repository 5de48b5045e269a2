package main

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
	args: "[--json] [PATH...]",
	help: "check session files for problems",
	run:  (*cli).doctor,
}

func (c *cli) doctor(argv []string) error {
	a, files, unreadable, err := c.pathArgs(argv)
	if err != nil {
		return err
	}
	folders := map[string]string{} // the folders that could not be read, and why
	paths := slices.Clone(files)
	for _, p := range unreadable {
		folders[p.Path] = problemText(p.Err)
		paths = append(paths, p.Path)
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	problems := 0
	type problem struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
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
		problems += len(diags)
		if a.has("json") {
			r := fileReport{Path: valid(f), Format: string(format), OK: len(diags) == 0, Problems: []problem{}}
			for _, d := range diags {
				r.Problems = append(r.Problems, problem{d.Line, valid(d.Msg)})
			}
			report = append(report, r)
			continue
		}
		name := sanitize.Inline(f)
		if len(diags) == 0 {
			fmt.Fprintf(w, "%s: OK\n", name)
			continue
		}
		for _, d := range diags {
			if d.Line > 0 {
				fmt.Fprintf(w, "%s:%d: %s\n", name, d.Line, sanitize.Line(d.Msg))
			} else {
				fmt.Fprintf(w, "%s: %s\n", name, sanitize.Line(d.Msg))
			}
		}
	}
	if a.has("json") {
		w.Flush()
		if err := c.writeJSON(report); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "%d files checked, %d problems\n", len(files), problems)
	}
	if problems > 0 {
		w.Flush()
		return &exitError{1, errors.New("")}
	}
	return nil
}
