package cli

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
	n, notSessions := 0, 0
	for _, p := range problems {
		var ns *store.NotSession
		if errors.As(p.Err, &ns) {
			notSessions++
			continue
		}
		n++
		if p.Path == "" {
			fmt.Fprintf(c.stderr, "skein: %s\n", transcript.OneLine(problemText(p.Err)))
		} else {
			fmt.Fprintf(c.stderr, "skein: %s: %s\n", transcript.OneLine(p.Path), transcript.OneLine(problemText(p.Err)))
		}
	}
	if notSessions > 0 {
		// Never left out without a word; not an error: a folder may hold
		// other .jsonl files.
		fmt.Fprintf(c.stderr, "skein: %d %s left out: not %s any agent's (skein doctor PATH says why)\n", notSessions, plural(notSessions, "file", "files"), plural(notSessions, "a session of", "sessions of"))
	}
	if n > 0 && *err == nil {
		*err = &exitError{1, errors.New("")}
	}
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
