package cli

import (
	"fmt"

	"skein/internal/sanitize"
	"skein/workflow"
)

var labelCommand = command{
	name: "session label",
	args: "REF ID [TEXT]",
	help: "set a label; no TEXT clears it",
	run:  (*cli).label,
}

func (c *cli) label(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{})
	if err != nil {
		return err
	}
	if len(a.pos) < 2 || len(a.pos) > 3 {
		return usagef("label needs REF ID [TEXT] (no TEXT clears the label)")
	}
	path, err := c.resolve(a.pos[0])
	if err != nil {
		return err
	}
	text := ""
	if len(a.pos) == 3 {
		text = a.pos[2]
	}
	if _, err := workflow.Label(path, a.pos[1], text, c.waitNote()); err != nil {
		return refused(err)
	}
	if text == "" {
		fmt.Fprintf(c.stdout, "cleared the label of %s\n", sanitize.Inline(a.pos[1]))
	} else {
		fmt.Fprintf(c.stdout, "labelled %s %q\n", sanitize.Inline(a.pos[1]), text)
	}
	return nil
}
