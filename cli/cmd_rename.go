package cli

import (
	"fmt"

	"skein/internal/sanitize"
	"skein/store"
	"skein/workflow"
)

var renameCommand = command{
	name: "session rename",
	args: "REF NAME",
	help: "name the session",
	run:  (*cli).rename,
}

func (c *cli) rename(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{})
	if err != nil {
		return err
	}
	if len(a.pos) != 2 {
		return usagef("rename needs REF NAME")
	}
	path, err := c.resolve(a.pos[0])
	if err != nil {
		return err
	}
	if _, err := workflow.Rename(path, a.pos[1], c.waitNote()); err != nil {
		return refused(err)
	}
	fmt.Fprintf(c.stdout, "renamed %s to %q\n", sanitize.Inline(path), store.SessionName(path, a.pos[1]))
	return nil
}
