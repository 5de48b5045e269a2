package cli

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"skein/internal/sanitize"
	"skein/search"
	"skein/store"
	"skein/tui/transcript"
)

var searchCommand = command{
	name: "search",
	args: "[--json] [--limit N] QUERY... [PATH...]",
	help: `every message of every session: words at word starts, "a phrase", re:PATTERN, role: tool: cwd: agent:; each hit with its session's title, project, date and agent, and skein FILE --entry ID to open it`,
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
	words, paths := queryWords(a.pos)
	q, err := search.Parse(strings.Join(words, " "))
	if err != nil {
		return usagef("search: %v", err)
	}
	files, unreadable, err := c.files(paths)
	files = slices.DeleteFunc(files, store.IsPart) // shown with their sessions
	if err != nil {
		return err
	}
	defer c.warnUnreadable(&err, unreadable)
	hits := c.searchFiles(q, files, int(limit))
	about := search.HitSessions(hits)
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
			Title     string  `json:"title"`
			Agent     string  `json:"agent"`
			Project   string  `json:"project"`
			Date      *string `json:"date"` // the message's time, else the session's last change; null for none
			Open      string  `json:"open"` // the command that opens the TUI at the message
		}, len(hits))
		for i, h := range hits {
			o := &out[i]
			o.Path, o.Format, o.SessionID, o.EntryID, o.Role = valid(h.Path), h.Format, valid(h.SessionID), valid(h.EntryID), h.Role
			o.Snippet, o.Matches = h.Snippet, []match{}
			for _, m := range h.Matches {
				o.Matches = append(o.Matches, match(m))
			}
			in := about[h.Path]
			o.Title, o.Agent, o.Project, o.Open = valid(hitTitle(in)), store.AgentOf(store.Info{Format: h.Format}), valid(in.Cwd), valid(openCommand(h))
			if ms := search.HitTime(h, in); !math.IsNaN(ms) {
				d := time.UnixMilli(int64(ms)).UTC().Format("2006-01-02T15:04:05.000Z")
				o.Date = &d
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
	for k, h := range hits {
		in := about[h.Path]
		if k > 0 {
			fmt.Fprintln(w)
		}
		// The session (its title, project, date and agent), the message
		// (its role and snippet), then how to open the TUI at it, which
		// names the file and the entry.
		date := "no date"
		if ms := search.HitTime(h, in); !math.IsNaN(ms) {
			date = time.UnixMilli(int64(ms)).Format("2006-01-02 15:04")
		}
		title, project := hitTitle(in), transcript.ShortPath(in.Cwd, c.env.Home)
		if title == "" {
			title = "(untitled)"
		}
		if project == "" {
			project = "no folder"
		}
		fmt.Fprintf(w, "%s  ·  %s  ·  %s  ·  %s\n    %s  %s\n    %s\n",
			transcript.Truncate(sanitize.Line(title), 60), sanitize.Inline(project),
			date, store.AgentOf(store.Info{Format: h.Format}), sanitize.Inline(h.Role), sanitize.Line(h.Snippet),
			sanitize.Inline(openCommand(h)))
	}
	return nil
}

// queryWords splits a search's arguments into the query's words and the
// paths searched: the first argument is the query's, and so is each one
// after it, up to the first path (one that exists, or that holds a slash or
// a dot and is no query term), so that skein search parser token needs no
// quotes.
func queryWords(pos []string) (words, paths []string) {
	words = pos[:1]
	for i, p := range pos[1:] {
		if _, err := os.Stat(p); err == nil {
			return words, pos[1+i:]
		}
		if strings.ContainsAny(p, "/.") && !isQueryTerm(p) {
			return words, pos[1+i:]
		}
		words = append(words, p)
	}
	return words, nil
}

// isQueryTerm reports whether an argument is one of the query's own terms
// (re:a.b, cwd:/x), whatever characters it holds.
func isQueryTerm(p string) bool {
	for _, prefix := range []string{"re:", "role:", "tool:", "cwd:", "agent:", `"`} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// hitTitle is what the list calls a hit's session: its name, else its
// first message.
func hitTitle(in store.Info) string {
	if in.Name != "" {
		return in.Name
	}
	return in.FirstMessage
}

// openCommand is the command line that opens the TUI on the hit's session
// with its message in focus.
func openCommand(h search.Hit) string {
	p := h.Path
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return "skein " + sanitize.ShellQuote(p) + " --entry " + sanitize.ShellQuote(h.EntryID)
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
