package tui

import (
	"runtime"
	"strings"
	"sync"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/model"
	"skein/search"
)

// sessionSearch is a search in the open session: in the messages, the
// conversation on the current path; in the tree, every entry of every
// branch. While one is active, n and N go to its matches.
type sessionSearch struct {
	pane    pane
	input   textinput.Model
	typing  bool         // the query is being typed
	query   string       // the query searched for, as shown
	terms   []string     // what a match holds, every one, folded
	want    int          // the entry to show first (-1: the first match from the cursor)
	matches []int        // message items (messages pane) or entries (tree), in order
	cur     int          // the match shown, -1 before the first
	set     map[int]bool // the matches, for the tree's highlight
	busy    bool
	gen     int
}

// searchDoneMsg is a search's matches, found in the background.
type searchDoneMsg struct {
	path    string
	gen     int
	matches []int
	// unindexed: the index did not hold the session, and is to.
	unindexed bool
}

// holds reports whether folded text holds every term.
func holds(text string, terms []string) bool {
	low := search.Fold(text)
	for _, t := range terms {
		if !strings.Contains(low, t) {
			return false
		}
	}
	return true
}

// searchEntries finds the entries whose message holds the terms (folded),
// in the order of rows; it reads every message the index (has, nil for
// none) does not decide, so it runs in a command.
func searchEntries(s *model.Session, rows []model.TreeRow, terms []string, has []search.Has) []int {
	found := matchAll(len(rows), func(k int) bool {
		e := rows[k].Entry
		switch hasOf(has, e) {
		case search.Yes:
			return true
		case search.No:
			// A label or a name is searched with the message: read it then.
			if d := s.Detail(e); d.Label == "" && d.Title == "" {
				return false
			}
		}
		m := s.EntryMessage(e)
		text := m.SearchText()
		if d := s.Detail(e); d.Label != "" || d.Title != "" {
			text += d.Label + "\n" + d.Title
		}
		return holds(text, terms)
	})
	for k, r := range found {
		found[k] = rows[r].Entry
	}
	return found
}

// searchItems finds the message items of a path whose message holds the
// terms, reading those the index (has, nil for none) does not decide.
func searchItems(s *model.Session, items []itemRef, terms []string, has []search.Has) []int {
	return matchAll(len(items), func(i int) bool {
		it := items[i]
		if it.separator {
			return false
		}
		if has != nil && it.msg == entryContext(s, it.msg.Entry) {
			switch hasOf(has, it.msg.Entry) {
			case search.Yes:
				return true
			case search.No:
				return false
			}
		}
		m := s.Message(it.msg)
		return holds(m.SearchText(), terms)
	})
}

// searchChunk is how many rows or items a core takes at a time: a search
// of more is shared among the cores (reading messages is most of it).
var searchChunk = 2048

// matchAll is the i in [0, n) for which match holds, in order; match only
// reads, so that it runs on every core at once.
func matchAll(n int, match func(i int) bool) []int {
	chunks := (n + searchChunk - 1) / searchChunk
	found := make([][]int, chunks)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), chunks) {
		wg.Go(func() {
			for c := range next {
				for i := c * searchChunk; i < min(n, (c+1)*searchChunk); i++ {
					if match(i) {
						found[c] = append(found[c], i)
					}
				}
			}
		})
	}
	for c := range chunks {
		next <- c
	}
	close(next)
	wg.Wait()
	var out []int
	for _, f := range found {
		out = append(out, f...)
	}
	return out
}

// The search in a session (/ in the messages or the tree) goes through the
// full-text index when it holds the session's file as it is: the index
// says which messages cannot match, and, for a word, which do, so that
// only the others are read (a 100 MB session took 4 s read whole). The
// matches are the same either way: what the index does not decide is read
// and matched as before.

// inSession is what the index knows of each entry's message for terms
// (nil, false when it does not hold the file as it is, or there is none).
func (t *textIndex) inSession(path string, s *model.Session, terms []string) ([]search.Has, bool) {
	if t == nil || t.dir == "" || s == nil {
		return nil, false
	}
	x := t.index()
	if x == nil {
		return nil, false
	}
	return x.InSession(path, s, terms)
}

// indexFile brings the index up to date with one file, after a search
// read it whole: the next search of it goes through the index. A list
// search under way goes first.
func (t *textIndex) indexFile(path string) {
	if t == nil || t.dir == "" {
		return
	}
	x := t.index()
	if x == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	x.Update([]string{path}, nil)
}

// hasOf is what the index says of entry i (Unknown without one).
func hasOf(has []search.Has, i int) search.Has {
	if i < 0 || i >= len(has) {
		return search.Unknown
	}
	return has[i]
}

// entryContext is the message entry i is as it is stored, as EntryMessage
// makes it and the index reads it: a context message equal to it has the
// index's text; any other (an edited one, a checkpoint) is read.
func entryContext(s *model.Session, i int) model.ContextMessage {
	k := model.KindMessage
	switch s.Entry(i).Kind {
	case model.EntryCompaction:
		k = model.KindCompactionSummary
	case model.EntryBranchSummary:
		k = model.KindBranchSummary
	case model.EntryCustomMessage:
		k = model.KindCustom
	}
	return model.ContextMessage{Entry: i, Kind: k}
}

// itemRef is what a search needs of a transcript item.
type itemRef struct {
	msg       model.ContextMessage
	separator bool
}

// highlight marks the matches of the terms (folded) in a drawn line: the
// line is drawn plain with its matches in st, so that a match is visible
// over any style; a line without one is returned as it is.
func highlight(line string, terms []string, st lipgloss.Style) string {
	return highlightOn(line, terms, st, nil)
}

// highlightOn is highlight with what is not a match drawn in base (nil:
// plain), for a selected row.
func highlightOn(line string, terms []string, st lipgloss.Style, base *lipgloss.Style) string {
	plain := ansi.Strip(line)
	rest := func(s string) string {
		if base == nil || s == "" {
			return s
		}
		return base.Render(s)
	}
	low := search.Fold(plain)
	// The first match of any term from each place on, the longest there.
	next := func(from int) (int, int) {
		at, n := -1, 0
		for _, t := range terms {
			if t == "" {
				continue
			}
			if i := strings.Index(low[from:], t); i >= 0 && (at < 0 || from+i < at || from+i == at && len(t) > n) {
				at, n = from+i, len(t)
			}
		}
		return at, n
	}
	if at, _ := next(0); at < 0 && base == nil {
		return line
	}
	var b strings.Builder
	for from := 0; ; {
		at, n := next(from)
		if at < 0 {
			b.WriteString(rest(plain[from:]))
			return b.String()
		}
		b.WriteString(rest(plain[from:at]))
		b.WriteString(st.Render(plain[at : at+n]))
		from = at + n
	}
}

// startSearch opens the query line for the focused pane.
func (ss *sessionScreen) startSearch() {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "search " + map[pane]string{paneTree: "every branch", paneMessages: "this path"}[ss.focus]
	in.SetWidth(max(10, ss.width-4)) // else only the placeholder's first letter shows
	in.Focus()
	ss.search = &sessionSearch{pane: ss.focus, input: in, typing: true, cur: -1, want: -1}
}

// searchKey handles a key while the query is typed: enter searches, esc
// gives up.
func (ss *sessionScreen) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	sr := ss.search
	switch msg.String() {
	case "esc":
		ss.search = nil
		return nil
	case "enter":
		sr.typing = false
		sr.query = search.Fold(strings.TrimSpace(sr.input.Value()))
		if sr.query == "" {
			ss.search = nil
			return nil
		}
		sr.terms = []string{sr.query}
		return ss.runSearch()
	}
	var cmd tea.Cmd
	sr.input, cmd = sr.input.Update(msg)
	return cmd
}

// runSearch finds the search's matches in the background.
func (ss *sessionScreen) runSearch() tea.Cmd {
	sr := ss.search
	sr.gen++
	sr.busy, sr.matches, sr.cur = true, nil, -1
	s, gen, terms, path, ti := ss.s, sr.gen, sr.terms, ss.info.Path, ss.textIndex
	var find func(has []search.Has) []int
	if sr.pane == paneTree {
		rows := ss.tree.view.Rows
		find = func(has []search.Has) []int { return searchEntries(s, rows, terms, has) }
	} else {
		refs := make([]itemRef, len(ss.msgs.items))
		for i, it := range ss.msgs.items {
			refs[i] = itemRef{it.Message, it.Separator}
		}
		find = func(has []search.Has) []int { return searchItems(s, refs, terms, has) }
	}
	// Through the full-text index when it holds the file as it is; else
	// every message read, and the file indexed after (searchDone), for
	// the next search.
	return func() tea.Msg {
		has, ok := ti.inSession(path, s, terms)
		return searchDoneMsg{path, gen, find(has), !ok && ti != nil && ti.dir != ""}
	}
}

// searchAt starts a search of the messages for terms, showing first the
// match in entry want: a text match the list opened.
func (ss *sessionScreen) searchAt(want int, terms []string, shown string) tea.Cmd {
	ss.search = &sessionSearch{pane: paneMessages, query: shown, terms: terms, cur: -1, want: want}
	return ss.runSearch()
}

// searchDone takes a search's matches and, when the index did not hold
// the session, indexes it in the background.
func (ss *sessionScreen) searchDone(msg searchDoneMsg) tea.Cmd {
	var index tea.Cmd
	if msg.unindexed {
		ti, path := ss.textIndex, msg.path
		index = func() tea.Msg { ti.indexFile(path); return nil }
	}
	return tea.Batch(ss.takeMatches(msg), index)
}

// takeMatches takes a search's matches and shows the first one from the
// cursor on.
func (ss *sessionScreen) takeMatches(msg searchDoneMsg) tea.Cmd {
	sr := ss.search
	if sr == nil || msg.gen != sr.gen {
		return nil
	}
	sr.busy, sr.matches = false, msg.matches
	sr.set = make(map[int]bool, len(msg.matches))
	for _, x := range msg.matches {
		sr.set[x] = true
	}
	if len(sr.matches) == 0 {
		return nil
	}
	if sr.want >= 0 && sr.pane == paneMessages {
		for k, x := range sr.matches {
			if x < len(ss.msgs.items) && ss.msgs.items[x].Message.Entry == sr.want && !ss.msgs.items[x].Separator {
				sr.cur = k
				return ss.showMatch()
			}
		}
	}
	from := ss.msgs.focus
	var rowOf map[int]int // in the tree, each match's first row
	if sr.pane == paneTree {
		from = ss.tree.cursor
		// Found in one walk of the rows: a walk per match (rowOf) took
		// seconds in a tree of 100,000 rows, here in Update.
		rowOf = make(map[int]int, len(sr.matches))
		for k, r := range ss.tree.view.Rows {
			if _, seen := rowOf[r.Entry]; !seen && sr.set[r.Entry] {
				rowOf[r.Entry] = k
			}
		}
	}
	sr.cur = len(sr.matches) - 1
	for k, x := range sr.matches {
		at := x
		if sr.pane == paneTree {
			at = -1
			if row, ok := rowOf[x]; ok {
				at = row
			}
		}
		if at >= from {
			sr.cur = k
			break
		}
	}
	return ss.showMatch()
}

// nextMatch moves to the next (d > 0) or previous match.
func (ss *sessionScreen) nextMatch(d int) tea.Cmd {
	sr := ss.search
	if sr.busy {
		return status("still searching: n and N go to the matches once they are found")
	}
	if len(sr.matches) == 0 {
		return status("no match: esc clears the search")
	}
	sr.cur = (sr.cur + d + len(sr.matches)) % len(sr.matches)
	return ss.showMatch()
}

// showMatch puts the current match on screen.
func (ss *sessionScreen) showMatch() tea.Cmd {
	sr := ss.search
	x := sr.matches[sr.cur]
	if sr.pane == paneTree {
		if k := ss.tree.rowOf(x); k >= 0 {
			before := ss.tree.selected()
			ss.tree.cursor = k
			ss.tree.clamp()
			if ss.tree.selected() != before {
				return ss.selectionChanged()
			}
		}
		return nil
	}
	if ss.msgs.reveal(x, sr.terms) {
		return status("t: thinking shown, for the match (t hides it)")
	}
	return nil
}

// reveal puts item i under the marker with its first line that holds a
// term on screen. What hides the match is shown first: the item's calls
// and results expanded (a Read's "… 42 more lines"), else thinking. It
// says whether it turned thinking on.
func (m *msgPane) reveal(i int, terms []string) (thinking bool) {
	m.jump(i)
	if i < 0 || i >= len(m.items) {
		return false
	}
	e := m.items[i].Entry
	exp, th := m.expanded[e], m.thinking
	line := -1
	for _, try := range [][2]bool{{exp, th}, {true, th}, {exp, true}, {true, true}} {
		m.expanded[e], m.thinking = try[0], try[1]
		if line = m.matchLine(i, terms); line >= 0 {
			break
		}
	}
	if line < 0 { // drawn otherwise than searched (markup): the item's start
		m.expanded[e], m.thinking = exp, th
		return false
	}
	if !m.expanded[e] {
		delete(m.expanded, e)
	}
	m.jump(i)
	// The match below the bottom of the pane: its line a third of the
	// way down, as far as the end allows.
	if rows := m.rowsTo(i, line); rows < 0 || rows >= m.bodyHeight() {
		m.top, m.topLine = i, max(0, line-m.bodyHeight()/3)
		if mi, ml := m.maxTop(); before(mi, ml, m.top, m.topLine) {
			m.top, m.topLine = mi, ml
		}
	}
	return m.thinking && !th
}

// matchLine is the first line drawn of item i that holds a term (folded),
// alone or with the line after it (a match wrapped across two lines),
// when the item drawn holds every term, as the search matched it; -1
// when it does not.
func (m *msgPane) matchLine(i int, terms []string) int {
	lines := m.lines(i)
	flat := make([]string, len(lines))
	for k, l := range lines {
		flat[k] = strings.Join(strings.Fields(search.Fold(ansi.Strip(l))), " ")
	}
	first := -1
	for _, t := range terms {
		if t = strings.Join(strings.Fields(t), " "); t == "" {
			continue
		}
		at := -1
		for k := range flat {
			if strings.Contains(flat[k], t) || k+1 < len(flat) && strings.Contains(flat[k]+" "+flat[k+1], t) {
				at = k
				break
			}
		}
		if at < 0 {
			return -1
		}
		if first < 0 || at < first {
			first = at
		}
	}
	return first
}

// rowsTo is how many lines down the pane line of item i is drawn, -1 when
// it is above the top.
func (m *msgPane) rowsTo(i, line int) int {
	if before(i, line, m.top, m.topLine) {
		return -1
	}
	rows := 0
	for k, l := m.top, m.topLine; k < i; k, l = k+1, 0 {
		rows += len(m.lines(k)) - l
	}
	if i == m.top {
		return line - m.topLine
	}
	return rows + line
}

// searchLine is the search's line for the footer: the query being typed,
// or where the matches stand.
func (ss *sessionScreen) searchLine() string {
	sr := ss.search
	if sr == nil {
		return ""
	}
	if sr.typing {
		return sr.input.View()
	}
	where := map[pane]string{paneTree: "in the tree", paneMessages: "in the messages"}[sr.pane]
	switch {
	case sr.busy:
		return "/" + sr.query + " · searching " + where + "…"
	case len(sr.matches) == 0:
		return "/" + sr.query + " · no match " + where + " · esc clears"
	}
	return "/" + sr.query + " · " + itoa(sr.cur+1) + "/" + itoa(len(sr.matches)) + " " + where + " · n/N next/prev · esc clears"
}
