package main

import (
	"bufio"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"skein/internal/jsjson"
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
	var report []byte
	if a.has("json") {
		report = append(report, '[')
	}
	for k, f := range paths {
		diags, format, err := store.Check(f)
		if err != nil {
			diags = []model.Diagnostic{{Msg: problemText(err)}}
		}
		if why, ok := folders[f]; ok {
			diags, format = []model.Diagnostic{{Msg: why}}, store.FormatUnknown
		}
		problems += len(diags)
		if a.has("json") {
			if k > 0 {
				report = append(report, ',')
			}
			report = append(report, "\n{\"path\":"...)
			report = jsjson.AppendString(report, f)
			report = append(report, `,"format":`...)
			report = jsjson.AppendString(report, string(format))
			report = append(report, `,"ok":`...)
			report = strconv.AppendBool(report, len(diags) == 0)
			report = append(report, `,"problems":[`...)
			for i, d := range diags {
				if i > 0 {
					report = append(report, ',')
				}
				report = append(report, `{"line":`...)
				report = strconv.AppendInt(report, int64(d.Line), 10)
				report = append(report, `,"message":`...)
				report = jsjson.AppendString(report, d.Msg)
				report = append(report, '}')
			}
			report = append(report, "]}"...)
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
		w.Write(append(report, "\n]\n"...))
	} else {
		fmt.Fprintf(w, "%d files checked, %d problems\n", len(files), problems)
	}
	if problems > 0 {
		w.Flush()
		return &exitError{1, errors.New("")}
	}
	return nil
}
