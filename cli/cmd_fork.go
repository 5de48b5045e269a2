package cli

import (
	"fmt"

	"skein/internal/sanitize"
	"skein/store"
	"skein/workflow"
)

var forkCommand = command{
	name: "session fork",
	args: "REF --at ID [--before] [--json]",
	help: "a new session beside REF holding the path to ID, or for a Dhara session a new branch (--before: to the parent of user message ID, printed back)",
	run:  (*cli).fork,
}

func (c *cli) fork(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"at": true, "before": false, "json": false})
	if err != nil {
		return err
	}
	ref, err := a.one("REF")
	if err != nil {
		return err
	}
	if !a.has("at") {
		return usagef("fork needs --at ID (the entry to fork at)")
	}
	s, path, err := c.open(ref, false)
	if err != nil {
		return err
	}
	at, ok := s.Index(a.get("at"))
	if !ok {
		return fail(1, "%s has no entry %q", path, a.get("at"))
	}
	f, err := workflow.Fork(path, s, at, a.has("before"))
	if err != nil {
		return refused(err)
	}
	text := f.Message
	if a.has("json") {
		out := struct {
			Path          string  `json:"path"`
			ParentSession string  `json:"parentSession,omitempty"`
			ID            string  `json:"id"`
			Branch        string  `json:"branch,omitempty"`
			ParentBranch  string  `json:"parentBranchId,omitempty"`
			Message       *string `json:"message,omitempty"`
		}{Path: valid(f.Path), ParentSession: valid(f.ParentSession), ID: f.ID, Branch: valid(f.Branch), ParentBranch: valid(f.ParentBranch)}
		if a.has("before") {
			m := valid(text)
			out.Message = &m
		}
		return c.writeJSON(out)
	}
	if f.SameSession {
		fmt.Fprintf(c.stdout, "forked at %s: the new branch %s of %s (from %s, %d entries)\n", sanitize.Inline(a.get("at")), sanitize.Inline(f.Branch), sanitize.Inline(f.Path), sanitize.Inline(f.ParentBranch), f.Entries)
	} else {
		fmt.Fprintf(c.stdout, "forked %d entries into %s\nresume it with: %s\n", f.Entries, sanitize.Inline(f.Path), sanitize.Inline(store.ResumeLine(store.Of(s.Info), f.Path, s.Info.Cwd)))
	}
	if a.has("before") {
		fmt.Fprintf(c.stdout, "the message it stops before:\n%s\n", sanitize.Text(text))
	}
	return nil
}
