package cli

import (
	"bufio"
	"fmt"
	"io"

	"skein/internal/sanitize"
	"skein/model"
)

var treeCommand = command{
	name: "session tree",
	args: "[--json] [--filter F] [--all] REF",
	help: "the entry tree, drawn as pi's /tree (F: default, no-tools, user-only, labeled-only, all)",
	run:  (*cli).tree,
}

func (c *cli) tree(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"json": false, "filter": true, "all": false})
	if err != nil {
		return err
	}
	ref, err := a.one("REF")
	if err != nil {
		return err
	}
	filter := model.FilterDefault
	if a.has("all") {
		filter = model.FilterAll
	}
	if a.has("filter") {
		f, ok := model.ParseTreeFilter(a.get("filter"))
		if !ok {
			return usagef("unknown filter %q (default, no-tools, user-only, labeled-only, all)", a.get("filter"))
		}
		filter = f
	}
	s, _, err := c.open(ref, true)
	if err != nil {
		return err
	}
	if a.has("json") {
		if err := s.WriteTreeJSON(c.stdout); err != nil {
			return err
		}
		_, err := io.WriteString(c.stdout, "\n")
		return err
	}
	v := s.NewTreeView(s.Leaf(), filter)
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	for _, line := range v.Lines(v.NearestVisible(s.Leaf()), c.env.Home) {
		fmt.Fprintln(w, sanitize.Flat(line))
	}
	return nil
}
