package cli

import (
	"fmt"

	"skein/internal/sanitize"
	"skein/workflow"
)

var deleteCommand = command{
	name:    "session delete",
	aliases: []string{"rm"},
	args:    "REF [--json]",
	help:    "move the session (a file, or a Dhara folder) to the trash",
	run:     (*cli).delete,
}

func (c *cli) delete(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"json": false})
	if err != nil {
		return err
	}
	ref, err := a.one("REF")
	if err != nil {
		return err
	}
	path, err := c.resolve(ref)
	if err != nil {
		return err
	}
	t, err := workflow.Delete(path, c.env)
	if err != nil {
		return fail(1, "%v", err)
	}
	if a.has("json") {
		return c.writeJSON(struct {
			Path      string `json:"path"`
			Trashed   string `json:"trashed"`
			TrashInfo string `json:"trashInfo"`
		}{valid(path), valid(t.File), valid(t.Info)})
	}
	fmt.Fprintf(c.stdout, "moved %s to the trash (%s)\n", sanitize.Inline(path), sanitize.Inline(t.File))
	return nil
}
