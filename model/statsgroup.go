package model

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"skein/internal/prices"
	"skein/internal/sanitize"
)

// StatsBy is what the rows of a stats grouping are.
type StatsBy string

// The groupings: a row a session, a project (its working folder), a model
// (provider/model), or a local day.
const (
	StatsBySession StatsBy = "session"
	StatsByProject StatsBy = "project"
	StatsByModel   StatsBy = "model"
	StatsByDay     StatsBy = "day"
)

// StatsGroupings are the groupings, in the order help names them.
var StatsGroupings = []StatsBy{StatsBySession, StatsByProject, StatsByModel, StatsByDay}

// SessionStats is what a grouping keeps of one session once it is read:
// its record and totals, without the session (copies of its strings), so
// that a store of sessions can be added up one session at a time.
type SessionStats struct {
	Path, Format, ID, Name, Cwd, Title string
	Stats                              Stats
}

// NewSessionStats is s's record and totals. Its title is the session's
// name, else the format's first message, else the first user message's
// text, as short makes it (the caller's: made safe and cut to a width, so
// that a long first prompt is not kept).
func NewSessionStats(s *Session, short func(string) string) *SessionStats {
	st := s.Stats()
	st.Context = nil // only the TUI draws it
	title := s.Name()
	if title == "" && s.Info.FirstMessage != "" && s.Info.FirstMessage != NoMessages {
		title = s.Info.FirstMessage // the format's own (Codex's leaves out its instructions)
	}
	if title == "" {
		for i := range s.Len() {
			if e := s.Entry(i); e.IsMessage(RoleUser) {
				m := s.Message(ContextMessage{Entry: i, Kind: KindMessage})
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
	return &SessionStats{Path: in.Path, Format: format, ID: strings.Clone(in.ID), Name: strings.Clone(s.Name()),
		Cwd: strings.Clone(in.Cwd), Title: strings.Clone(short(title)), Stats: st}
}

// StatsRow is one row of a grouping: a session, a project, a model or a
// day.
type StatsRow struct {
	Key      string        // the path, cwd, model key or day ("": no time)
	Session  *SessionStats // the session, by session only
	Sessions int           // the sessions added into the row
	Totals
	Models []ModelUsage
	Tools  []ToolCount
	Last   float64 // ms of the latest entry; NaN when none has a time
}

// StatsGroups adds sessions up into rows as they come.
type StatsGroups struct {
	By         StatsBy
	Sessions   int // the sessions added, each once however many rows it has
	Incomplete int // sessions with a usage pi cannot add
	// Unpriced are the sessions with usage no price covers (their cost is
	// n/a, or partly so), and UnpricedModels the models of that usage, in
	// order of first use; Tabled are the sessions whose cost is the price
	// table's, Recorded those with a usage or a cost their agent recorded
	// (the rest have no usage at all).
	Unpriced, Tabled, Recorded int
	UnpricedModels             []string
	rows                       []*StatsRow
	index                      map[string]*StatsRow
}

// NewStatsGroups is an empty grouping by by.
func NewStatsGroups(by StatsBy) *StatsGroups {
	return &StatsGroups{By: by, index: map[string]*StatsRow{}}
}

func (g *StatsGroups) row(key string) *StatsRow { return g.rowAs(key, key) }

// rowAs is the row indexed by key, shown as name (the first name it met).
func (g *StatsGroups) rowAs(key, name string) *StatsRow {
	r := g.index[key]
	if r == nil {
		r = &StatsRow{Key: name, Last: math.NaN()}
		g.index[key] = r
		g.rows = append(g.rows, r)
	}
	return r
}

// ProjectKey is what tells two projects apart: their folder, compared as
// its file system does. A Windows folder (a drive letter, or a UNC path)
// is one whatever the case of its letters and whichever slash it is
// written with: c:\src\IDAHO is C:\src\idaho.
func ProjectKey(cwd string) string {
	windows := len(cwd) >= 3 && cwd[1] == ':' && (cwd[2] == '\\' || cwd[2] == '/') &&
		(cwd[0] >= 'a' && cwd[0] <= 'z' || cwd[0] >= 'A' && cwd[0] <= 'Z') || strings.HasPrefix(cwd, `\\`)
	if !windows {
		return cwd
	}
	return strings.ToLower(strings.ReplaceAll(cwd, "/", `\`))
}

// Add adds a session's stats into its rows: its own, its project's, each
// of its models', each of its days'.
func (g *StatsGroups) Add(ss *SessionStats) {
	g.Sessions++
	if ss.Stats.Incomplete > 0 {
		g.Incomplete++
	}
	st := &ss.Stats
	if st.TableCost {
		g.Tabled++
	} else if st.Tokens() > 0 || st.Cost != 0 {
		g.Recorded++
	}
	if st.Unpriced > 0 {
		g.Unpriced++
		for _, m := range st.ByModel {
			if m.Unpriced > 0 && !slices.Contains(g.UnpricedModels, m.Key) {
				g.UnpricedModels = append(g.UnpricedModels, m.Key)
			}
		}
	}
	switch g.By {
	case StatsBySession:
		r := &StatsRow{Key: ss.Path, Session: ss, Sessions: 1, Totals: st.Totals, Models: st.ByModel, Tools: st.Tools, Last: st.Last}
		g.rows = append(g.rows, r)
	case StatsByProject:
		r := g.rowAs(ProjectKey(ss.Cwd), ss.Cwd)
		r.Sessions++
		r.Totals.Add(st.Totals)
		r.Models = AddModels(r.Models, st.ByModel)
		r.Tools = AddTools(r.Tools, st.Tools)
		if !(r.Last >= st.Last) {
			r.Last = st.Last
		}
	case StatsByModel:
		for _, m := range st.ByModel {
			r := g.row(m.Key)
			r.Sessions++
			r.AddUsage(m.UsageTotals)
		}
	case StatsByDay:
		for _, d := range st.Days {
			r := g.row(d.Day)
			r.Sessions++
			r.Totals.Add(d.Totals)
		}
	}
}

// Sorted is the rows in the table's order: sessions newest first, models
// and projects costliest first (then most tokens), days oldest first.
func (g *StatsGroups) Sorted() []*StatsRow {
	rows := slices.Clone(g.rows)
	slices.SortStableFunc(rows, func(a, b *StatsRow) int {
		switch g.By {
		case StatsBySession:
			if c := cmp.Compare(b.Last, a.Last); c != 0 { // NaN: oldest
				return c
			}
		case StatsByDay:
			if (a.Key == "") != (b.Key == "") {
				return cmp.Compare(b.Key, a.Key) // entries without a time last
			}
			return cmp.Compare(a.Key, b.Key)
		default:
			if c := cmp.Compare(b.Cost, a.Cost); c != 0 {
				return c
			}
			if c := cmp.Compare(b.Tokens(), a.Tokens()); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Key, b.Key)
	})
	for _, r := range rows {
		SortModels(r.Models)
	}
	return rows
}

// StatsText is how a stats table writes its values: the screen's or the
// command line's own (tokens as 12.3k, a cost to the cent...). Each
// function gets the value as it is; Text gets session text, to be made
// safe and cut to a width.
type StatsText struct {
	Tokens func(float64) string
	Cost   func(float64) string
	Active func(time.Duration) string
	Time   func(ms float64) string // a row's latest entry
	Folder func(cwd string) string // a project's folder
	Text   func(s string, width int) string
}

// StatsTable is a grouping laid out as a table: the headings, which
// columns align right, a row of cells a group, and the total under them. By session, the last
// column is the title, which a narrow terminal may cut.
type StatsTable struct {
	Head  []string
	Right []bool
	Rows  [][]string
	Foot  []string
}

// Total is what the rows add up to: the table's last row and `stats
// --json`'s total. By model it is the models' usage alone (a message has
// no model).
func (g *StatsGroups) Total() Totals {
	var total Totals
	for _, r := range g.Sorted() { // the table's order: sums of floats depend on it
		total.Add(r.Totals)
	}
	return total
}

// Coverage says which sessions the cost covers, for the line under a
// table: how many are priced and which models have no price, how many
// were priced from the price table and how many as their agent recorded
// (a session with no usage is neither);
// "" when every cost is one its agent recorded.
//
//	cost: 39 of 40 sessions priced, 1 n/a (no price for openai/gpt-9);
//	7 from the price table (models.dev, 2026-07-02), 33 as their agent recorded
func (g *StatsGroups) Coverage() string {
	if g.Unpriced == 0 && g.Tabled == 0 {
		return ""
	}
	s := fmt.Sprintf("cost: %d of %d sessions priced", g.Sessions-g.Unpriced, g.Sessions)
	if g.Unpriced > 0 {
		s += fmt.Sprintf(", %d n/a (no price for %s)", g.Unpriced, strings.Join(g.UnpricedModels, ", "))
	}
	if g.Tabled > 0 {
		t := prices.Current()
		from := t.Path
		if from == "" {
			src, _, _ := strings.Cut(t.Source, ",")
			from = src + ", " + t.Date
		}
		s += fmt.Sprintf("; %d from the price table (%s)", g.Tabled, from)
		if g.Recorded > 0 {
			s += fmt.Sprintf(", %d as their agent recorded", g.Recorded)
		}
	}
	return s
}

// Table lays the rows out in the table's order, their cells written by f.
func (g *StatsGroups) Table(f StatsText) StatsTable {
	var t StatsTable
	switch g.By {
	case StatsBySession:
		t.Head, t.Right = []string{"SESSION", "LAST", "PROJECT"}, []bool{false, false, false}
	case StatsByProject:
		t.Head, t.Right = []string{"PROJECT", "SESSIONS", "LAST"}, []bool{false, true, false}
	case StatsByModel:
		t.Head, t.Right = []string{"MODEL", "SESSIONS"}, []bool{false, true}
	case StatsByDay:
		t.Head, t.Right = []string{"DAY", "SESSIONS"}, []bool{false, true}
	}
	lead := len(t.Head) // the columns before the numbers
	numbers := []string{"IN", "OUT", "CACHE R", "CACHE W", "COST"}
	if g.By != StatsByModel {
		numbers = append([]string{"MSGS", "TOOLS"}, append(numbers, "ACTIVE", "ERR", "ABORT")...)
	}
	t.Head = append(t.Head, numbers...)
	for range numbers {
		t.Right = append(t.Right, true)
	}
	if g.By == StatsBySession {
		t.Head = append(t.Head, "TITLE")
		t.Right = append(t.Right, false)
	}
	usage := func(u Totals) []string {
		cols := []string{f.Tokens(u.TokensIn), f.Tokens(u.TokensOut), f.Tokens(u.CacheRead), f.Tokens(u.CacheWrite), CostText(u.UsageTotals, f.Cost)}
		if g.By == StatsByModel {
			return cols
		}
		cols = append([]string{fmt.Sprint(u.Messages), fmt.Sprint(u.ToolCalls)}, cols...)
		return append(cols, f.Active(u.Active), fmt.Sprint(u.Errors), fmt.Sprint(u.Aborts))
	}
	total := g.Total()
	sorted := g.Sorted()
	var short []string
	if g.By == StatsBySession {
		ids := make([]string, len(sorted))
		for i, r := range sorted {
			ids[i] = r.Session.ID
		}
		short = ShortIDs(ids)
	}
	for i, r := range sorted {
		var cols []string
		switch g.By {
		case StatsBySession:
			cols = []string{sanitize.Inline(short[i]), f.Time(r.Last), f.Folder(r.Session.Cwd)}
		case StatsByProject:
			cols = []string{f.Folder(r.Key), fmt.Sprint(r.Sessions), f.Time(r.Last)}
		case StatsByModel:
			cols = []string{f.Text(r.Key, 40), fmt.Sprint(r.Sessions)}
		case StatsByDay:
			day := r.Key
			if day == "" {
				day = "(no time)"
			}
			cols = []string{day, fmt.Sprint(r.Sessions)}
		}
		cols = append(cols, usage(r.Totals)...)
		if g.By == StatsBySession {
			cols = append(cols, r.Session.Title)
		}
		t.Rows = append(t.Rows, cols)
	}
	// The total: a session counted once however many rows it has.
	t.Foot = make([]string, lead)
	t.Foot[0] = "total"
	t.Foot[1] = fmt.Sprint(g.Sessions)
	if g.By == StatsBySession {
		t.Foot[1] += " session"
		if g.Sessions != 1 {
			t.Foot[1] += "s"
		}
	}
	t.Foot = append(t.Foot, usage(total)...)
	if g.By == StatsBySession {
		t.Foot = append(t.Foot, "")
	}
	return t
}
