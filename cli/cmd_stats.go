package cli

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/x/ansi"

	"skein/internal/par"
	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
	"skein/tui/transcript"
)

var statsCommand = command{
	name: "stats",
	args: "[--json] [--by session|project|model|day] [PATH...]",
	help: "tokens, cost, models, tools, errors and active time by session, project, model or local day",
	run:  (*cli).stats,
}

func (c *cli) stats(argv []string) (err error) {
	a, err := parseArgs(argv, map[string]bool{"json": false, "by": true})
	if err != nil {
		return err
	}
	by := "session"
	if a.has("by") {
		by = a.get("by")
	}
	if !slices.Contains(model.StatsGroupings, model.StatsBy(by)) {
		return usagef("--by wants session, project, model or day, not %q", by)
	}
	files, unreadable, err := c.files(a.pos)
	files = slices.DeleteFunc(files, store.IsPart) // shown with their sessions
	if err != nil {
		return err
	}
	var memo *store.Memo
	if os.Getenv("SKEIN_INDEX") != "off" {
		memo = store.OpenMemo(store.CacheDir(store.OSEnv()), "stats")
		defer memo.Save()
	}
	update, clear := c.progress()
	g := model.NewStatsGroups(model.StatsBy(by))
	all, problems := readStats(files, memo, update)
	for _, ss := range all {
		g.Add(ss)
	}
	clear()
	defer c.warnUnreadable(&err, append(unreadable, problems...))
	w := bufio.NewWriterSize(c.stdout, 64<<10)
	defer w.Flush()
	if a.has("json") {
		w.Flush()
		return c.writeJSON(g.JSON())
	}
	if g.Sessions == 0 {
		fmt.Fprintln(w, "no sessions found")
		return nil
	}
	writeStatsTable(w, g, c.env.Home, c.terminalWidth())
	return nil
}

// roomForSessions sets oneShot's limit for reading files a few at a time,
// none kept: a small heap (stats keep little of each session) and room for
// the atOnce largest files, which are all that can be read at once, half as
// much again for what parsing makes of them. 1,500 sessions, 100 MB: 260
// MB at the peak with oneShot's 256 MB, 63 MB with this, in about the same
// time; one 100 MB session: 190 MB. The room was atOnce times the largest:
// a store of small sessions and one of 1 GB peaked at 2.8 GB.
func roomForSessions(files []string, atOnce int) {
	if oneShotLimit == 0 {
		return
	}
	oneShotLimit = 48 << 20
	debug.SetMemoryLimit(oneShotLimit + roomFor(files, atOnce))
}

// roomFor is one and a half times the sizes of the atOnce largest files.
func roomFor(files []string, atOnce int) int64 {
	largest := make([]int64, 0, atOnce+1) // the largest sizes, in order
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		k, _ := slices.BinarySearch(largest, st.Size())
		largest = slices.Insert(largest, k, st.Size())
		if len(largest) > atOnce {
			largest = largest[1:]
		}
	}
	var n int64
	for _, size := range largest {
		n += size + size/2
	}
	return n
}

// readStats is the stats of the files, in the order of their paths, so
// that the sums of a grouping are the same whichever session was read
// first. The memo's are taken first, on every core: a warm run is done
// then. The others are read on every core, one session a worker at a
// time (none is kept once its stats are made), and kept in the memo.
func readStats(files []string, memo *store.Memo, progress func(done, total int)) ([]*model.SessionStats, []store.Problem) {
	got := make([]*model.SessionStats, len(files))
	if memo != nil {
		par.Range(len(files), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				got[i] = memoized(files[i], memo)
			}
		})
	}
	var todo []int
	for i, ss := range got {
		if ss == nil {
			todo = append(todo, i)
		}
	}
	done := len(files) - len(todo)
	if progress != nil && done > 0 {
		progress(done, len(files))
	}
	paths := make([]string, len(todo))
	for k, i := range todo {
		paths[k] = files[i]
	}
	roomForSessions(paths, min(runtime.GOMAXPROCS(0), len(paths)))

	next := make(chan int)
	type result struct {
		i   int
		ss  *model.SessionStats
		err error
	}
	out := make(chan result, 16)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(todo))) {
		wg.Go(func() {
			for i := range next {
				ss, err := readSessionStats(files[i], memo)
				out <- result{i, ss, err}
			}
		})
	}
	go func() {
		for _, i := range todo {
			next <- i
		}
		close(next)
		wg.Wait()
		close(out)
	}()
	var problems []store.Problem
	for r := range out {
		done++
		if progress != nil {
			progress(done, len(files))
		}
		got[r.i] = r.ss
		if r.err != nil {
			problems = append(problems, store.Problem{Path: files[r.i], Err: r.err})
		}
	}
	all := slices.DeleteFunc(got, func(ss *model.SessionStats) bool { return ss == nil })
	slices.SortFunc(all, func(a, b *model.SessionStats) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(problems, func(a, b store.Problem) int { return cmp.Compare(a.Path, b.Path) })
	return all, problems
}

// statsReads counts the sessions stats read (the tests' way to see that
// the memo spared the others).
var statsReads atomic.Int64

// memoized is the memo's stats of the session at path when it holds them
// for the session as it is, else nil.
func memoized(path string, memo *store.Memo) *model.SessionStats {
	if data, ok := memo.Get(path); ok {
		if ss, err := model.DecodeSessionStats(data); err == nil && ss.Path == path {
			return ss
		}
	}
	return nil
}

// readSessionStats reads the session at path for its stats, and keeps
// them in the memo, valid while its files stay as they were before the
// read.
func readSessionStats(path string, memo *store.Memo) (*model.SessionStats, error) {
	statsReads.Add(1)
	s, st, err := store.OpenStamped(path)
	if err != nil {
		return nil, err
	}
	ss := model.NewSessionStats(s, statsTitle)
	memo.Put(st, ss.AppendBinary(nil))
	return ss, nil
}

// statsTitle is a session's title as the table shows it: safe, and short
// enough that a long first prompt is not kept.
func statsTitle(title string) string { return transcript.Truncate(sanitize.Line(title), 60) }

// writeStatsTable writes the grouping as an aligned table, a total under
// the rows. A terminal's width (0: none) narrows the last column, the
// title, so that a row fits on one line.
func writeStatsTable(w io.Writer, g *model.StatsGroups, home string, width int) {
	t := g.Table(model.StatsText{
		Tokens: transcript.Tokens,
		Cost:   transcript.Cost,
		Active: transcript.Active,
		Time:   when,
		Folder: func(cwd string) string { return shortCwd(cwd, home) },
		Text:   func(s string, width int) string { return transcript.Truncate(sanitize.Inline(s), width) },
	})
	head, right := t.Head, t.Right
	table := append(append([][]string{head}, t.Rows...), t.Foot)
	widths := make([]int, len(head))
	for _, row := range table {
		for i, c := range row {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	if last := len(widths) - 1; width > 0 && g.By == model.StatsBySession {
		used := 2 * last
		for _, wd := range widths[:last] {
			used += wd
		}
		if room := max(10, width-used); widths[last] > room {
			widths[last] = room
			for _, row := range table {
				row[last] = transcript.Truncate(row[last], room)
			}
		}
	}
	for k, row := range table {
		if k == len(table)-1 {
			line := make([]string, len(widths))
			for i, wd := range widths {
				line[i] = strings.Repeat("─", wd)
			}
			fmt.Fprintln(w, strings.TrimRight(strings.Join(line, "  "), " "))
		}
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			if right[i] {
				b.WriteString(strings.Repeat(" ", widths[i]-cellWidth(c)) + c)
			} else if i < len(row)-1 {
				b.WriteString(transcript.Pad(c, widths[i]))
			} else {
				b.WriteString(c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	if c := g.Coverage(); c != "" {
		fmt.Fprintf(w, "\n%s\n", sanitize.Line(c))
	}
	if g.Incomplete > 0 {
		fmt.Fprintf(w, "\n%s a usage with a number or its cost missing, counted as 0 (pi's own totals fail on it)\n",
			transcript.Count(g.Incomplete, "session has", "sessions have"))
	}
}

// cellWidth is a cell's display width: its length when it is printable
// ASCII, as most cells are (a grapheme walk over every cell of a table of
// thousands of rows was a third of a warm run), else ansi's.
func cellWidth(c string) int {
	for i := 0; i < len(c); i++ {
		if c[i] < 0x20 || c[i] >= 0x7f {
			return ansi.StringWidth(c)
		}
	}
	return len(c)
}

func shortCwd(cwd, home string) string {
	return transcript.Truncate(sanitize.Inline(transcript.ShortPath(cwd, home)), 32)
}

// when is a time as the table shows it, in local time.
func when(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return "?"
	}
	return time.UnixMilli(int64(ms)).Format("2006-01-02 15:04")
}
