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
	"time"

	"github.com/charmbracelet/x/ansi"

	"skein/internal/jsdate"
	"skein/internal/jsjson"
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

// sessionStats is what stats keeps of one session once it is read: its
// record and totals, without the session (copies of its strings).
type sessionStats struct {
	path, format, id, name, cwd, title string
	st                                 model.Stats
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
	if !slices.Contains([]string{"session", "project", "model", "day"}, by) {
		return usagef("--by wants session, project, model or day, not %q", by)
	}
	files, unreadable, err := c.files(a.pos)
	files = slices.DeleteFunc(files, store.IsPart) // shown with their sessions
	if err != nil {
		return err
	}
	roomForSessions(files, min(runtime.GOMAXPROCS(0), len(files)))
	update, clear := c.progress()
	g := newStatsGroups(by)
	problems := readStats(files, update, g.add)
	clear()
	defer c.warnUnreadable(&err, append(unreadable, problems...))
	w := bufio.NewWriterSize(c.stdout, 64<<10)
	defer w.Flush()
	if a.has("json") {
		w.Flush()
		return c.writeJSON(g.jsonRows())
	}
	if g.sessions == 0 {
		fmt.Fprintln(w, "no sessions found")
		return nil
	}
	g.writeTable(w, c.env.Home, c.terminalWidth())
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

// readStats reads the files on every core, one session a worker at a time
// (none is kept once its stats are made), and gives add each session's
// stats, one at a time, on the caller's goroutine.
func readStats(files []string, progress func(done, total int), add func(*sessionStats)) []store.Problem {
	next := make(chan string)
	out := make(chan *sessionStats, 16)
	var mu sync.Mutex
	var problems []store.Problem
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Go(func() {
			for f := range next {
				s, err := store.Open(f)
				if err != nil {
					mu.Lock()
					problems = append(problems, store.Problem{Path: f, Err: err})
					mu.Unlock()
					out <- nil
					continue
				}
				out <- newSessionStats(s)
			}
		})
	}
	go func() {
		for _, f := range files {
			next <- f
		}
		close(next)
		wg.Wait()
		close(out)
	}()
	done := 0
	for ss := range out {
		done++
		if progress != nil {
			progress(done, len(files))
		}
		if ss != nil {
			add(ss)
		}
	}
	slices.SortFunc(problems, func(a, b store.Problem) int { return cmp.Compare(a.Path, b.Path) })
	return problems
}

func newSessionStats(s *model.Session) *sessionStats {
	st := s.Stats()
	st.Context = nil // only the TUI draws it
	title := s.Name()
	if title == "" && s.Info.FirstMessage != "" && s.Info.FirstMessage != "(no messages)" {
		title = s.Info.FirstMessage // the format's own (Codex's leaves out its instructions)
	}
	if title == "" {
		for i := range s.Len() {
			if e := s.Entry(i); e.IsMessage(model.RoleUser) {
				m := s.Message(model.ContextMessage{Entry: i, Kind: model.KindMessage})
				title = m.Text(" ")
				break
			}
		}
	}
	in := s.Info
	format := in.Format
	if format == "" {
		format = "pi"
	}
	return &sessionStats{path: in.Path, format: format, id: strings.Clone(in.ID), name: strings.Clone(s.Name()),
		cwd: strings.Clone(in.Cwd), title: strings.Clone(transcript.Truncate(sanitize.Line(title), 60)), st: st}
}

// group is one row of stats: a session, a project, a model or a day.
type group struct {
	key      string // the path, cwd, model key or day
	s        *sessionStats
	sessions int
	model.Totals
	models []model.ModelUsage
	tools  []model.ToolCount
	last   float64 // ms of the latest entry
	seen   map[string]bool
}

// statsGroups adds sessions up into rows as they come.
type statsGroups struct {
	by         string
	sessions   int
	incomplete int // sessions with a usage pi cannot add
	rows       []*group
	index      map[string]*group
}

func newStatsGroups(by string) *statsGroups {
	return &statsGroups{by: by, index: map[string]*group{}}
}

func (g *statsGroups) row(key string) *group {
	r := g.index[key]
	if r == nil {
		r = &group{key: key, last: math.NaN()}
		g.index[key] = r
		g.rows = append(g.rows, r)
	}
	return r
}

func (g *statsGroups) add(ss *sessionStats) {
	g.sessions++
	if ss.st.Incomplete > 0 {
		g.incomplete++
	}
	st := &ss.st
	switch g.by {
	case "session":
		r := &group{key: ss.path, s: ss, sessions: 1, Totals: st.Totals, models: st.ByModel, tools: st.Tools, last: st.Last}
		g.rows = append(g.rows, r)
	case "project":
		r := g.row(ss.cwd)
		r.sessions++
		r.Totals.Add(st.Totals)
		r.models = model.AddModels(r.models, st.ByModel)
		r.tools = model.AddTools(r.tools, st.Tools)
		if !(r.last >= st.Last) {
			r.last = st.Last
		}
	case "model":
		for _, m := range st.ByModel {
			r := g.row(m.Key)
			r.sessions++
			r.AddUsage(m.UsageTotals)
		}
	case "day":
		for _, d := range st.Days {
			r := g.row(d.Day)
			r.sessions++
			r.Totals.Add(d.Totals)
		}
	}
}

// sorted is the rows in the table's order: sessions newest first, models
// and projects costliest first (then most tokens), days oldest first.
func (g *statsGroups) sorted() []*group {
	rows := slices.Clone(g.rows)
	slices.SortStableFunc(rows, func(a, b *group) int {
		switch g.by {
		case "session":
			if c := cmp.Compare(b.last, a.last); c != 0 { // NaN: oldest
				return c
			}
		case "day":
			if (a.key == "") != (b.key == "") {
				return cmp.Compare(b.key, a.key) // entries without a time last
			}
			return cmp.Compare(a.key, b.key)
		default:
			if c := cmp.Compare(b.Cost, a.Cost); c != 0 {
				return c
			}
			if c := cmp.Compare(b.Tokens(), a.Tokens()); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.key, b.key)
	})
	for _, r := range rows {
		model.SortModels(r.models)
	}
	return rows
}

// jsNumber is a number as JSON.stringify writes it (null when not finite).
type jsNumber float64

func (n jsNumber) MarshalJSON() ([]byte, error) {
	if f := float64(n); math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return jsjson.AppendNumber(nil, float64(n)), nil
}

type tokensJSON struct {
	Input      jsNumber `json:"input"`
	Output     jsNumber `json:"output"`
	CacheRead  jsNumber `json:"cacheRead"`
	CacheWrite jsNumber `json:"cacheWrite"`
	Total      jsNumber `json:"total"`
}

func tokensOf(u model.UsageTotals) tokensJSON {
	return tokensJSON{jsNumber(u.TokensIn), jsNumber(u.TokensOut), jsNumber(u.CacheRead), jsNumber(u.CacheWrite), jsNumber(u.Tokens())}
}

// totalsJSON are the counts and sums named as pi's getSessionStats names
// them, and skein's own after them.
type totalsJSON struct {
	UserMessages      int        `json:"userMessages"`
	AssistantMessages int        `json:"assistantMessages"`
	ToolCalls         int        `json:"toolCalls"`
	ToolResults       int        `json:"toolResults"`
	TotalMessages     int        `json:"totalMessages"`
	Tokens            tokensJSON `json:"tokens"`
	Cost              jsNumber   `json:"cost"`
	Errors            int        `json:"errors"`
	Aborts            int        `json:"aborts"`
	ActiveMs          int64      `json:"activeMs"`
}

func totalsOf(t model.Totals) totalsJSON {
	return totalsJSON{t.UserMessages, t.AssistantMessages, t.ToolCalls, t.ToolResults, t.Messages, tokensOf(t.UsageTotals), jsNumber(t.Cost), t.Errors, t.Aborts, t.Active.Milliseconds()}
}

// modelJSON is an entry of pi's getUsageCostBreakdown ({key, cost,
// tokens}), with the tokens' parts after it.
type modelJSON struct {
	Key        string   `json:"key"`
	Cost       jsNumber `json:"cost"`
	Tokens     jsNumber `json:"tokens"`
	Input      jsNumber `json:"input"`
	Output     jsNumber `json:"output"`
	CacheRead  jsNumber `json:"cacheRead"`
	CacheWrite jsNumber `json:"cacheWrite"`
}

func modelsOf(ms []model.ModelUsage) []modelJSON {
	out := make([]modelJSON, len(ms))
	for i, m := range ms {
		out[i] = modelJSON{valid(m.Key), jsNumber(m.Cost), jsNumber(m.Tokens()), jsNumber(m.TokensIn), jsNumber(m.TokensOut), jsNumber(m.CacheRead), jsNumber(m.CacheWrite)}
	}
	return out
}

type toolJSON struct {
	Name  string `json:"name"`
	Calls int    `json:"calls"`
}

func toolsOf(ts []model.ToolCount) []toolJSON {
	out := make([]toolJSON, len(ts))
	for i, t := range ts {
		out[i] = toolJSON{valid(t.Name), t.Calls}
	}
	return out
}

func isoOrNil(ms float64) *string {
	if s, ok := jsdate.ISO(ms); ok {
		return &s
	}
	return nil
}

// jsonRows are the rows as `stats --json` writes them, in the table's order:
//
//	session: {path, format, sessionId, name, cwd, first, last, userMessages,
//	         assistantMessages, toolCalls, toolResults, totalMessages,
//	         tokens: {input, output, cacheRead, cacheWrite, total}, cost,
//	         errors, aborts, activeMs, models, tools, compactions,
//	         branchSummaries, incompleteUsage}
//	project: {cwd, sessions, last, ...the totals, models, tools}
//	model:   {key, sessions, cost, tokens, input, output, cacheRead, cacheWrite}
//	day:     {day (null: entries without a time), sessions, ...the totals}
//
// models is pi's getUsageCostBreakdown ({key, cost, tokens}, the costliest
// first) with the tokens' parts; tools are {name, calls}, most called first.
func (g *statsGroups) jsonRows() []any {
	type sessionJSON struct {
		Path      string  `json:"path"`
		Format    string  `json:"format"`
		SessionID string  `json:"sessionId"`
		Name      *string `json:"name"`
		Cwd       string  `json:"cwd"`
		First     *string `json:"first"`
		Last      *string `json:"last"`
		totalsJSON
		Models          []modelJSON `json:"models"`
		Tools           []toolJSON  `json:"tools"`
		Compactions     int         `json:"compactions"`
		BranchSummaries int         `json:"branchSummaries"`
		IncompleteUsage int         `json:"incompleteUsage"`
	}
	type projectJSON struct {
		Cwd      string  `json:"cwd"`
		Sessions int     `json:"sessions"`
		Last     *string `json:"last"`
		totalsJSON
		Models []modelJSON `json:"models"`
		Tools  []toolJSON  `json:"tools"`
	}
	type byModelJSON struct {
		Key      string `json:"key"`
		Sessions int    `json:"sessions"`
		modelJSON
	}
	type dayJSON struct {
		Day      *string `json:"day"`
		Sessions int     `json:"sessions"`
		totalsJSON
	}
	out := []any{}
	for _, r := range g.sorted() {
		switch g.by {
		case "session":
			s := r.s
			var name *string
			if s.name != "" {
				n := valid(s.name)
				name = &n
			}
			out = append(out, sessionJSON{valid(s.path), s.format, valid(s.id), name, valid(s.cwd), isoOrNil(s.st.First), isoOrNil(s.st.Last),
				totalsOf(r.Totals), modelsOf(r.models), toolsOf(r.tools), s.st.Compactions, s.st.BranchSummaries, s.st.Incomplete})
		case "project":
			out = append(out, projectJSON{valid(r.key), r.sessions, isoOrNil(r.last), totalsOf(r.Totals), modelsOf(r.models), toolsOf(r.tools)})
		case "model":
			m := modelsOf([]model.ModelUsage{{Key: r.key, UsageTotals: r.UsageTotals}})[0]
			out = append(out, byModelJSON{m.Key, r.sessions, m})
		case "day":
			var day *string
			if r.key != "" {
				day = &r.key
			}
			out = append(out, dayJSON{day, r.sessions, totalsOf(r.Totals)})
		}
	}
	return out
}

// writeTable writes the rows as an aligned table, a total under them.
// A terminal's width (0: none) narrows the last column, the title, so that
// a row fits on one line.
func (g *statsGroups) writeTable(w io.Writer, home string, width int) {
	rows := g.sorted()
	var head []string
	var right []bool // columns aligned right
	lead := 0        // the columns before the numbers
	switch g.by {
	case "session":
		head, right = []string{"SESSION", "LAST", "PROJECT"}, []bool{false, false, false}
	case "project":
		head, right = []string{"PROJECT", "SESSIONS", "LAST"}, []bool{false, true, false}
	case "model":
		head, right = []string{"MODEL", "SESSIONS"}, []bool{false, true}
	case "day":
		head, right = []string{"DAY", "SESSIONS"}, []bool{false, true}
	}
	lead = len(head)
	numbers := []string{"IN", "OUT", "CACHE R", "CACHE W", "COST"}
	if g.by != "model" {
		numbers = append([]string{"MSGS", "TOOLS"}, append(numbers, "ACTIVE", "ERR", "ABORT")...)
	}
	head = append(head, numbers...)
	for range numbers {
		right = append(right, true)
	}
	if g.by == "session" {
		head = append(head, "TITLE")
		right = append(right, false)
	}
	usage := func(t model.Totals) []string {
		cols := []string{transcript.Tokens(t.TokensIn), transcript.Tokens(t.TokensOut), transcript.Tokens(t.CacheRead), transcript.Tokens(t.CacheWrite), transcript.Cost(t.Cost)}
		if g.by == "model" {
			return cols
		}
		cols = append([]string{fmt.Sprint(t.Messages), fmt.Sprint(t.ToolCalls)}, cols...)
		return append(cols, transcript.Active(t.Active), fmt.Sprint(t.Errors), fmt.Sprint(t.Aborts))
	}
	table := [][]string{head}
	var total model.Totals
	for _, r := range rows {
		var cols []string
		switch g.by {
		case "session":
			cols = []string{sanitize.Inline(model.ShortID(r.s.id)), when(r.last), shortCwd(r.s.cwd, home)}
		case "project":
			cols = []string{shortCwd(r.key, home), fmt.Sprint(r.sessions), when(r.last)}
		case "model":
			cols = []string{transcript.Truncate(sanitize.Inline(r.key), 40), fmt.Sprint(r.sessions)}
		case "day":
			day := r.key
			if day == "" {
				day = "(no time)"
			}
			cols = []string{day, fmt.Sprint(r.sessions)}
		}
		cols = append(cols, usage(r.Totals)...)
		if g.by == "session" {
			cols = append(cols, r.s.title)
		}
		table = append(table, cols)
		total.Add(r.Totals)
	}
	// The total: a session counted once however many rows it has.
	foot := make([]string, lead)
	foot[0] = "total"
	foot[1] = transcript.Count(g.sessions, "session", "sessions")
	if g.by != "session" {
		foot[1] = fmt.Sprint(g.sessions)
	}
	foot = append(foot, usage(total)...)
	if g.by == "session" {
		foot = append(foot, "")
	}
	table = append(table, foot)
	widths := make([]int, len(head))
	for _, row := range table {
		for i, c := range row {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	if last := len(widths) - 1; width > 0 && g.by == "session" {
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
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)) + c)
			} else if i < len(row)-1 {
				b.WriteString(transcript.Pad(c, widths[i]))
			} else {
				b.WriteString(c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	if g.incomplete > 0 {
		fmt.Fprintf(w, "\n%s a usage with a number or its cost missing, counted as 0 (pi's own totals fail on it)\n",
			transcript.Count(g.incomplete, "session has", "sessions have"))
	}
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
