package cli

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"

	"skein/internal/sanitize"
	"skein/search"
	"skein/store"
)

var searchCommand = command{
	name: "search",
	args: "[--json] [--limit N] QUERY [PATH...]",
	help: `every message of every session: words at word starts, "a phrase", re:PATTERN, role: tool: cwd:`,
	run:  (*cli).search,
}

func (c *cli) search(argv []string) (err error) {
	a, err := parseArgs(argv, map[string]bool{"json": false, "limit": true})
	if err != nil {
		return err
	}
	limit, err := a.number("limit", 20)
	if err != nil {
		return err
	}
	if len(a.pos) == 0 {
		return usagef("search needs a QUERY")
	}
	q, err := search.Parse(a.pos[0])
	if err != nil {
		return usagef("search: %v", err)
	}
	for _, p := range a.pos[1:] {
		if _, err := os.Stat(p); err != nil && !strings.ContainsAny(p, "/.") {
			// skein search the file: a query of two words, not quoted.
			return usagef("search takes its QUERY as one argument: quote it (skein search %q)", strings.Join(a.pos, " "))
		}
	}
	files, unreadable, err := c.files(a.pos[1:])
	files = slices.DeleteFunc(files, store.IsPart) // shown with their sessions
	if err != nil {
		return err
	}
	defer c.warnUnreadable(&err, unreadable)
	hits := c.searchFiles(q, files, int(limit))
	if a.has("json") {
		type match [2]int
		out := make([]struct {
			Path      string  `json:"path"`
			Format    string  `json:"format"`
			SessionID string  `json:"sessionId"`
			EntryID   string  `json:"entryId"`
			Role      string  `json:"role"`
			Snippet   string  `json:"snippet"`
			Matches   []match `json:"matches"`
		}, len(hits))
		for i, h := range hits {
			o := &out[i]
			o.Path, o.Format, o.SessionID, o.EntryID, o.Role = valid(h.Path), h.Format, valid(h.SessionID), valid(h.EntryID), h.Role
			o.Snippet, o.Matches = h.Snippet, []match{}
			for _, m := range h.Matches {
				o.Matches = append(o.Matches, match(m))
			}
		}
		return c.writeJSON(out)
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	if len(hits) == 0 {
		fmt.Fprintln(w, "no message matches")
		return nil
	}
	for _, h := range hits {
		fmt.Fprintf(w, "%s  %s  %s\n    %s\n", sanitize.Inline(h.Path), sanitize.Inline(h.EntryID), sanitize.Inline(h.Role), sanitize.Line(h.Snippet))
	}
	return nil
}

// searchFiles is the query over files: through the full-text index in the
// cache folder (SKEIN_INDEX=off: none).
func (c *cli) searchFiles(q *search.Query, files []string, limit int) []search.Hit {
	var x *search.Index
	if dir := textIndexDir(c.env); dir != "" {
		x = search.OpenIndex(dir)
		defer x.Close()
	}
	update, clear := c.progressOf("indexing")
	hits := search.Files(x, q, files, limit, false, update)
	clear()
	if x != nil && debugIndex() {
		fmt.Fprintf(c.stderr, "text index: %d of %d files read whole, %d from where the index stopped\n", x.Reads, len(files), x.PartReads)
	}
	return hits
}

// debugIndex reports whether SKEIN_DEBUG=index asks the commands to say
// what their indexes read.
func debugIndex() bool { return os.Getenv("SKEIN_DEBUG") == "index" }

// textIndexDir is the full-text index's folder, "" with SKEIN_INDEX=off.
func textIndexDir(env store.Env) string {
	if os.Getenv("SKEIN_INDEX") == "off" {
		return ""
	}
	return search.IndexDir(env)
}
