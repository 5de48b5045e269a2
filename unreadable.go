package main

import (
	"errors"
	"fmt"
	"io/fs"

	"skein/store"
	"skein/tui/transcript"
)

// problemText says in a few words why a path could not be read: a folder or
// file it may not read, or something that is not a file.
func problemText(err error) string {
	var nr *store.NotRegularError
	var pe *fs.PathError
	switch {
	case errors.As(err, &nr):
		return nr.Kind + ", not a session file"
	case errors.As(err, &pe):
		return "cannot read: " + pe.Err.Error()
	}
	return err.Error()
}

// warnUnreadable names on stderr, one line each, the paths a listing could
// not read (files that are not pi sessions are not warned about: a folder
// may hold other logs), and makes the exit status 1 when there are any and
// *err is nil.
func (c *cli) warnUnreadable(err *error, problems []store.Problem) {
	n := 0
	for _, p := range problems {
		var ns *store.NotSession
		if errors.As(p.Err, &ns) {
			continue
		}
		n++
		if p.Path == "" {
			fmt.Fprintf(c.stderr, "skein: %s\n", transcript.OneLine(problemText(p.Err)))
		} else {
			fmt.Fprintf(c.stderr, "skein: %s: %s\n", transcript.OneLine(p.Path), transcript.OneLine(problemText(p.Err)))
		}
	}
	if n > 0 && *err == nil {
		*err = &exitError{1, errors.New("")}
	}
}
