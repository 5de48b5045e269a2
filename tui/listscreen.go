package tui

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/model"
	"skein/search"
	"skein/store"
	"skein/tui/transcript"
)

// sortMode orders the list.
type sortMode int

const (
	sortModified sortMode = iota
	sortCreated
	sortMessages
	sortName
)

var sortNames = [...]string{"modified", "created", "messages", "name"}

// listRow is one visible row: a session, nested under the one it was forked
// from.
type listRow struct {
	info   *store.Info
	depth  int
	forks  int
	orphan bool        // a fork whose parent is not listed
	hit    *search.Hit // listed for its messages: the best match in it
}

// listScreen finds a session: every session newest first, forks under their
// parents, a fuzzy filter, sort and project toggles and a preview.
type listScreen struct {
	*shared
	demo       bool
	demoLooked []string // where skein found no session, when that opened the demo
	now        func() time.Time

	infos   []*store.Info
	rows    []listRow
	cursor  int
	offset  int
	sort    sortMode
	project string
	agent   string          // the a key's filter: an agent's name, "" for every agent
	left    []store.Problem // files and folders the scan left out, and why
	// imports are the copies imports made in this run, and the agent of
	// each one's original: their rows say so.
	imports map[string]string
	// provisional are the index's records not yet checked by the scan,
	// by their place in infos.
	provisional map[string]int
	// The rows before the filter, the filter's last matches, and the
	// sessions' text lowered for it.
	base      *listBase
	lastHits  []int32 // the last filter's matches, as indexes of base.infos
	lastQuery string
	lower     map[*store.Info]loweredInfo
	// startedIn is the folder skein was started in: p scopes to it first.
	startedIn string
	filter    string
	typing    bool
	text      textSearch // the filter's search of the sessions' messages
	scanning  bool
	done      int
	total     int

	preview     map[string]previewMsg
	previewPath string
	gone        map[string]bool // sessions moved to the trash from here

	width, height int
}

func newListScreen(sh *shared) listScreen {
	return listScreen{shared: sh, now: time.Now, scanning: true, preview: map[string]previewMsg{}, gone: map[string]bool{}}
}

func (l *listScreen) SetSize(w, h int) {
	l.width, l.height = w, h
	l.clamp()
}

// add takes a batch of scanned sessions. A provisional batch (the index's
// records) is replaced record by record as the scan checks the files, and
// what the scan did not find when it ends is dropped.
func (l *listScreen) add(msg scanMsg) {
	if msg.provisional {
		l.provisional = map[string]int{}
	}
	for i := range msg.infos {
		info := msg.infos[i]
		if k, ok := l.provisional[info.Path]; ok && !msg.provisional {
			l.infos[k] = &info
			delete(l.provisional, info.Path)
			continue
		}
		if msg.provisional {
			l.provisional[info.Path] = len(l.infos)
		}
		l.infos = append(l.infos, &info)
	}
	if msg.finished && len(l.provisional) > 0 {
		kept := l.infos[:0]
		for _, in := range l.infos {
			if _, gone := l.provisional[in.Path]; !gone {
				kept = append(kept, in)
			}
		}
		l.infos, l.provisional = kept, nil
	}
	l.left = append(l.left, msg.left...)
	l.done, l.total = msg.done, msg.total
	l.scanning = !msg.finished
	sel := l.selectedPath()
	l.rebuild()
	l.selectPath(sel)
}

// titleWith is a title cut to w columns with suffix kept whole after it,
// when the suffix leaves the title a few columns.
func titleWith(t, suffix string, w int) string {
	sw := ansi.StringWidth(suffix)
	if suffix == "" || ansi.StringWidth(t)+sw <= w || w-sw < 8 {
		return truncate(t+suffix, w)
	}
	return truncate(t, w-sw) + suffix
}

// markImport notes that the session at path is the copy an import made
// in this run of a session of agent's, which its row says.
func (l *listScreen) markImport(path, agent string) {
	if l.imports == nil {
		l.imports = map[string]string{}
	}
	l.imports[path] = agent
}

// addInfo lists a session written since the scan (a fork).
func (l *listScreen) addInfo(info store.Info) {
	sel := l.selectedPath()
	l.infos = append(l.infos, &info)
	l.rebuild()
	l.selectPath(sel)
}

// replace updates a session's record (after a rename or a label).
func (l *listScreen) replace(info store.Info) {
	for k, in := range l.infos {
		if in.Path == info.Path {
			l.infos[k] = &info
		}
	}
	delete(l.preview, info.Path)
	if l.previewPath == info.Path {
		l.previewPath = "" // read it again
	}
	sel := l.selectedPath()
	l.rebuild()
	l.selectPath(sel)
}

// leftOut notes why the file at path is not listed (nil: it is, or it is
// gone), replacing what was noted of it.
func (l *listScreen) leftOut(path string, why error) {
	kept := l.left[:0]
	for _, p := range l.left {
		if p.Path != path {
			kept = append(kept, p)
		}
	}
	l.left = kept
	if why != nil {
		l.left = append(l.left, store.Problem{Path: path, Err: why})
	}
}

// anyIn reports whether a session was made in the folder dir.
func (l *listScreen) anyIn(dir string) bool {
	for _, in := range l.infos {
		if model.ProjectKey(in.Cwd) == model.ProjectKey(dir) {
			return true
		}
	}
	return false
}

// has reports whether the session at path is listed.
func (l *listScreen) has(path string) bool {
	for _, in := range l.infos {
		if in.Path == path {
			return true
		}
	}
	return false
}

// remove drops a session gone to the trash.
func (l *listScreen) remove(path string) {
	kept := l.infos[:0]
	for _, in := range l.infos {
		if in.Path != path {
			kept = append(kept, in)
		}
	}
	l.infos = kept
	l.gone[path] = true
	if l.provisional != nil { // the records moved: their places again
		delete(l.provisional, path)
		for k, in := range l.infos {
			if _, ok := l.provisional[in.Path]; ok {
				l.provisional[in.Path] = k
			}
		}
	}
	l.rebuild()
}

func (l *listScreen) selected() *store.Info {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return nil
	}
	return l.rows[l.cursor].info
}

func (l *listScreen) selectedPath() string {
	if in := l.selected(); in != nil {
		return in.Path
	}
	return ""
}

func (l *listScreen) selectPath(path string) {
	for i, r := range l.rows {
		if r.info.Path == path {
			l.cursor = i
			l.clamp()
			return
		}
	}
	l.clamp()
}

// show selects the session at path, clearing the filter, then the project
// scope, when they hide it.
func (l *listScreen) show(path string) tea.Cmd {
	shown := func() bool {
		return slices.ContainsFunc(l.rows, func(r listRow) bool { return r.info.Path == path })
	}
	var cmd tea.Cmd
	if !shown() && l.filter != "" {
		l.filter, l.typing = "", false
		l.rebuild()
		cmd = l.textChanged()
	}
	if !shown() && l.project != "" {
		l.project = ""
		l.rebuild()
	}
	if !shown() && l.agent != "" {
		l.agent = ""
		l.rebuild()
	}
	l.selectPath(path)
	return tea.Batch(cmd, l.previewCmd())
}

// listBase is what the rows are made from before the filter: the sessions
// of the project, sorted, with their forks. It is made again only when the
// sessions, the sort or the project change, not at each letter typed.
type listBase struct {
	agents   string // the agents it is narrowed to, joined
	infos    []*store.Info
	low      []loweredInfo // infos' text as the filter matches it
	children map[*store.Info][]*store.Info
	tops     []*store.Info
	orphans  map[*store.Info]bool
}

// rebuild recomputes the visible rows after a change of the sessions, the
// sort or the project (and the filter).
func (l *listScreen) rebuild() {
	l.base = nil
	if len(l.lower) > 2*len(l.infos)+64 {
		l.lower = nil // records replaced since: their lowered text goes
	}
	l.refilter()
}

// makeBase sorts the project's sessions and nests forks under parents.
func (l *listScreen) makeBase() *listBase {
	infos := make([]*store.Info, 0, len(l.infos))
	agents := l.agentsAsked()
	for _, in := range l.infos {
		if (l.project == "" || model.ProjectKey(in.Cwd) == model.ProjectKey(l.project)) && ofAgents(in, agents) {
			infos = append(infos, in)
		}
	}
	// Each order is total (ties go by path): an unstable sort gives the
	// one order there is.
	less := l.less()
	slices.SortFunc(infos, func(a, b *store.Info) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	// Nest forks under their parents: by path, or by file name when the store
	// was moved since the fork was made.
	byPath, byBase := make(map[string]*store.Info, len(infos)), make(map[string]*store.Info, len(infos))
	for _, in := range infos {
		byPath[filepath.Clean(in.Path)] = in
		byBase[filepath.Base(in.Path)] = in
	}
	parentOf := func(in *store.Info) *store.Info {
		if !in.HasParent || in.ParentSession == "" {
			return nil
		}
		if p, ok := byPath[filepath.Clean(in.ParentSession)]; ok && p != in {
			return p
		}
		if p, ok := byBase[filepath.Base(in.ParentSession)]; ok && p != in {
			return p
		}
		return nil
	}
	b := &listBase{agents: strings.Join(agents, "\x00"), infos: infos, children: map[*store.Info][]*store.Info{}, orphans: map[*store.Info]bool{}}
	for _, in := range infos {
		if p := parentOf(in); p != nil {
			b.children[p] = append(b.children[p], in)
		} else {
			b.tops = append(b.tops, in)
			b.orphans[in] = in.HasParent && in.ParentSession != "" && l.project == ""
		}
	}
	return b
}

// refilter recomputes the rows for the filter. A filter that extends the
// last one scores only the last one's matches (a longer query never
// matches more: TestFilterOnlyNarrows); the sessions' text is lowered once.
func (l *listScreen) refilter() {
	if l.base != nil && l.base.agents != strings.Join(l.agentsAsked(), "\x00") {
		l.base = nil // agent: typed or changed in the / box
	}
	if l.base == nil {
		l.base = l.makeBase()
		l.lastHits, l.lastQuery = nil, ""
	}
	b := l.base
	query := l.filterWords()
	l.rows = l.rows[:0]
	if len(query) > 0 && b.low == nil {
		// The sessions' text lowered for the filter, when it is first used.
		b.low = make([]loweredInfo, len(b.infos))
		for k, in := range b.infos {
			b.low[k] = l.lowered(in)
		}
	}
	if len(query) > 0 {
		// Filtered: the best matches first, flat, in the sort order within
		// a score. Sessions are their index in b.infos.
		key := strings.Join(query, " ")
		var candidates []int32
		if l.lastHits != nil && l.lastQuery != "" && strings.HasPrefix(key, l.lastQuery) {
			candidates = l.lastHits
		}
		type scored struct{ at, score int32 }
		var hits []scored
		next := make([]int32, 0, len(candidates))
		try := func(k int32) {
			if sc := matchScoreLow(query, b.low[k]); sc > 0 {
				hits = append(hits, scored{k, int32(sc)})
				next = append(next, k)
			}
		}
		if candidates == nil {
			for k := range b.infos {
				try(int32(k))
			}
		} else {
			for _, k := range candidates {
				try(k)
			}
		}
		slices.SortStableFunc(hits, func(x, y scored) int { return int(y.score - x.score) })
		l.lastHits, l.lastQuery = next, key
		for _, h := range hits {
			in := b.infos[h.at]
			l.rows = append(l.rows, listRow{info: in, forks: len(b.children[in]), orphan: b.orphans[in]})
		}
		l.addTextRows(b)
		l.clamp()
		return
	}
	l.lastHits, l.lastQuery = nil, ""
	seen := make(map[*store.Info]bool, len(b.infos))
	var walk func(in *store.Info, depth int)
	walk = func(in *store.Info, depth int) {
		if seen[in] { // a fork loop: show each session once
			return
		}
		seen[in] = true
		l.rows = append(l.rows, listRow{info: in, depth: depth, forks: len(b.children[in]), orphan: b.orphans[in]})
		for _, c := range b.children[in] {
			walk(c, depth+1)
		}
	}
	for _, in := range b.tops {
		walk(in, 0)
	}
	for _, in := range b.infos { // members of a fork loop have no top
		if !seen[in] {
			walk(in, 0)
		}
	}
	l.clamp()
}

// addTextRows lists, after the sessions the filter matched, the other
// sessions of the list whose messages match it.
func (l *listScreen) addTextRows(b *listBase) {
	if l.text.query == "" || l.text.query != strings.TrimSpace(l.filter) || len(l.text.hits) == 0 {
		return
	}
	listed := make(map[string]bool, len(l.rows))
	for _, r := range l.rows {
		listed[r.info.Path] = true
	}
	byPath := make(map[string]*store.Info, len(b.infos))
	for _, in := range b.infos {
		byPath[in.Path] = in
	}
	for i := range l.text.hits {
		h := &l.text.hits[i]
		if in := byPath[h.Path]; in != nil && !listed[h.Path] {
			listed[h.Path] = true
			l.rows = append(l.rows, listRow{info: in, hit: h})
		}
	}
}

// loweredMsg is the sessions' text lowered for the filter, made in the
// background for a base.
type loweredMsg struct {
	base *listBase
	low  []loweredInfo
}

// lowerCmd lowers the base's sessions' text in the background, so that
// the first letter typed does not (10,000 sessions: tens of ms).
func (l *listScreen) lowerCmd() tea.Cmd {
	b := l.base
	if b == nil || b.low != nil {
		return nil
	}
	infos := slices.Clone(b.infos)
	known := make([]loweredInfo, len(infos))
	have := make([]bool, len(infos))
	for k, in := range infos {
		known[k], have[k] = l.lower[in]
	}
	return func() tea.Msg {
		for k, in := range infos {
			if !have[k] {
				known[k] = lowerInfo(in)
			}
		}
		return loweredMsg{b, known}
	}
}

// lowered takes the lowered text, if it is for the base still shown.
func (l *listScreen) loweredDone(msg loweredMsg) {
	if l.base != msg.base || l.base.low != nil {
		return
	}
	if l.lower == nil {
		l.lower = make(map[*store.Info]loweredInfo, len(msg.low))
	}
	for k, in := range msg.base.infos {
		l.lower[in] = msg.low[k]
	}
	l.base.low = msg.low
}

func lowerInfo(in *store.Info) loweredInfo {
	return loweredInfo{strings.ToLower(in.Name), strings.ToLower(in.FirstMessage + " " + in.Cwd + " " + in.ID)}
}

// loweredInfo is a session's text as the filter matches it.
type loweredInfo struct{ name, rest string }

// lowered is in's text in lower case, made once per record.
func (l *listScreen) lowered(in *store.Info) loweredInfo {
	if lw, ok := l.lower[in]; ok {
		return lw
	}
	lw := lowerInfo(in)
	if l.lower == nil {
		l.lower = map[*store.Info]loweredInfo{}
	}
	l.lower[in] = lw
	return lw
}

func (l *listScreen) less() func(a, b *store.Info) bool {
	switch l.sort {
	case sortCreated:
		return func(a, b *store.Info) bool { return newer(a.Created, b.Created, a, b) }
	case sortMessages:
		return func(a, b *store.Info) bool {
			if a.MessageCount != b.MessageCount {
				return a.MessageCount > b.MessageCount
			}
			return newer(a.Modified, b.Modified, a, b)
		}
	case sortName:
		return func(a, b *store.Info) bool {
			ta, tb := strings.ToLower(title(a)), strings.ToLower(title(b))
			if ta != tb {
				return ta < tb
			}
			return a.Path < b.Path
		}
	}
	return func(a, b *store.Info) bool { return newer(a.Modified, b.Modified, a, b) }
}

// newer orders times newest first (none last), then sessions x and y by
// path.
func newer(a, b float64, x, y *store.Info) bool {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return x.Path < y.Path
	case math.IsNaN(a):
		return false
	case math.IsNaN(b):
		return true
	case a != b:
		return a > b
	}
	return x.Path < y.Path
}

// title is what a row calls a session: its name, else its first message.
func title(in *store.Info) string {
	if in.Name != "" {
		return in.Name
	}
	return in.FirstMessage
}

// matchScore rates a session against the filter's words, 0 for no match.
// Every word must appear in the name, first message, folder or id: as it is
// (best in the name), or fuzzily, its letters in order within a short span.
func matchScore(query []string, in *store.Info) int {
	return matchScoreLow(query, loweredInfo{strings.ToLower(in.Name), strings.ToLower(in.FirstMessage + " " + in.Cwd + " " + in.ID)})
}

func matchScoreLow(query []string, lw loweredInfo) int {
	name, rest := lw.name, lw.rest
	total := 0
	for _, q := range query {
		switch {
		case strings.Contains(name, q):
			total += 30
		case strings.Contains(rest, q):
			total += 20
		case fuzzy(q, name) || fuzzy(q, rest):
			total += 5
		default:
			return 0
		}
	}
	return total
}

// fuzzy reports whether q's letters appear in s in order, each within a
// few bytes of the one before (so that a long text does not match
// anything). The limit is a letter's, not the query's: a longer query
// never matches where a shorter one did not, so typing more letters only
// narrows the list.
func fuzzy(q, s string) bool {
	first, size := utf8.DecodeRuneInString(q)
	for start := 0; start < len(s); {
		i := strings.IndexRune(s[start:], first)
		if i < 0 {
			return false
		}
		at := start + i
		if subsequenceWithin(q[size:], s[at+size:]) {
			return true
		}
		start = at + size
	}
	return false
}

// fuzzyGap is how many bytes may come between two letters of a fuzzy match.
const fuzzyGap = 3

func subsequenceWithin(q, s string) bool {
	for _, r := range q {
		i := strings.IndexRune(s, r)
		if i < 0 || i > fuzzyGap {
			return false
		}
		s = s[i+utf8.RuneLen(r):]
	}
	return true
}

func (l *listScreen) clamp() {
	if l.cursor >= len(l.rows) {
		l.cursor = len(l.rows) - 1
	}
	if l.cursor < 0 {
		l.cursor = 0
	}
	h := l.listHeight()
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if h > 0 && l.cursor >= l.offset+h {
		l.offset = l.cursor - h + 1
	}
	// Fewer rows than before (a filter, a project scope): as many as fit
	// are shown, none left hidden above an empty end.
	l.offset = min(l.offset, len(l.rows)-h)
	if l.offset < 0 {
		l.offset = 0
	}
}

// listHeight is the rows the list shows: the height less header, column
// titles and footer.
func (l *listScreen) listHeight() int { return max(1, l.height-4) }

// openMsg asks the root to open a session: posted (shared.post), so that
// the keys typed after enter reach the session screen.
type openMsg struct {
	info  *store.Info
	at    string   // an entry to open at ("" for the leaf)
	terms []string // and the texts to mark in it (folded)
	query string   // the list's query that found it, as typed
	// keys are pressed once it is read (the action an import goes on
	// with), at the entry sel.
	keys []tea.KeyPressMsg
	sel  string
}

// Update handles a key on the list. The filter, while typed, takes every key
// but the few that end it.
func (l *listScreen) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := l.keys
	if l.typing {
		switch {
		case msg.Code == tea.KeyEnter:
			l.typing = false
		case msg.Code == tea.KeyEscape:
			l.typing, l.filter = false, ""
			l.refilter()
			return tea.Batch(l.previewCmd(), l.textChanged())
		case msg.Code == tea.KeyBackspace:
			if l.filter != "" {
				_, size := utf8.DecodeLastRuneInString(l.filter)
				l.filter = l.filter[:len(l.filter)-size]
				l.refilter()
				return tea.Batch(l.previewCmd(), l.textChanged())
			}
		case msg.Code == tea.KeyUp || msg.Code == tea.KeyDown:
			l.move(map[bool]int{true: -1, false: 1}[msg.Code == tea.KeyUp])
		case msg.Text != "":
			l.filter += msg.Text
			l.cursor = 0
			l.refilter()
			return tea.Batch(l.previewCmd(), l.textChanged())
		}
		return l.previewCmd()
	}
	switch {
	case key.Matches(msg, k.Filter):
		l.typing = true
	case key.Matches(msg, k.ClearFilter):
		if l.filter != "" {
			l.filter = ""
			sel := l.selectedPath()
			l.rebuild()
			l.selectPath(sel)
			return tea.Batch(l.previewCmd(), l.textChanged())
		}
	case key.Matches(msg, k.Up):
		l.move(-1)
	case key.Matches(msg, k.Down):
		l.move(1)
	case key.Matches(msg, k.Top):
		l.cursor = 0
	case key.Matches(msg, k.Bottom):
		l.cursor = len(l.rows) - 1
	case key.Matches(msg, k.PageUp):
		l.move(-l.listHeight())
	case key.Matches(msg, k.PageDown):
		l.move(l.listHeight())
	case key.Matches(msg, k.Stats):
		if in := l.selected(); in != nil {
			v, load := loadStats(*in, l.home)
			l.post(openDialogMsg{v})
			return load
		}
	case key.Matches(msg, k.Sort):
		l.sort = (l.sort + 1) % sortMode(len(sortNames))
		sel := l.selectedPath()
		l.rebuild()
		l.selectPath(sel)
	case key.Matches(msg, k.Project):
		// As pi's /resume scopes to the current project: the folder skein
		// was started in, or, with no session there, the selection's.
		sel := l.selected()
		switch {
		case l.project != "":
			l.project = ""
		case l.startedIn != "" && l.anyIn(l.startedIn):
			l.project = l.startedIn
		case sel != nil:
			l.project = sel.Cwd
		}
		path := l.selectedPath()
		l.rebuild()
		l.selectPath(path)
	case key.Matches(msg, k.Agent):
		l.nextAgent()
	case key.Matches(msg, k.Open):
		if l.cursor >= 0 && l.cursor < len(l.rows) && l.rows[l.cursor].hit != nil {
			// A text match opens its session at the message, the match marked.
			r := l.rows[l.cursor]
			query := strings.TrimSpace(l.filter)
			l.post(openMsg{info: r.info, at: r.hit.EntryID, terms: matchTerms(r.hit), query: query})
			return nil
		}
		if in := l.selected(); in != nil {
			l.post(openMsg{info: in})
			return nil
		}
	}
	l.clamp()
	return l.previewCmd()
}

func (l *listScreen) move(d int) {
	l.cursor += d
	l.clamp()
}

// click selects the row under the pointer (the rows start on the fourth
// line, after the header, the filter line and the column titles).
func (l *listScreen) click(x, y int) tea.Cmd {
	listW := l.width
	if l.showsPreview() {
		listW = l.width - previewWidth(l.width) - 1
	}
	if k := l.offset + y - 3; y >= 3 && x < listW && k < len(l.rows) {
		l.cursor = k
		l.clamp()
		return l.previewCmd()
	}
	return nil
}

// scroll moves the list by the mouse wheel.
func (l *listScreen) scroll(d int) tea.Cmd {
	l.move(d)
	return l.previewCmd()
}

// previewCmd asks for the selected session's preview once the selection has
// rested a moment, unless it is known.
func (l *listScreen) previewCmd() tea.Cmd {
	path := l.selectedPath()
	if path == "" || path == l.previewPath || !l.showsPreview() {
		return nil
	}
	l.previewPath = path
	if _, ok := l.preview[path]; ok {
		return nil
	}
	return previewAfter(path, 120*time.Millisecond)
}

func (l *listScreen) showsPreview() bool { return l.width >= 110 && l.height >= 12 }

// previewWidth is the preview's width beside a list w wide: a third, so
// that at 120 columns the list keeps 79, room for the agent's column with
// the title and project as wide as before it came.
func previewWidth(w int) int { return max(36, w/3) }

// View draws the list screen.
func (l *listScreen) View() string {
	st := l.styles
	w := l.width
	var b strings.Builder
	// Header: what is listed, and the scan's progress.
	head := st.Title.Render("skein") + st.Muted.Render(" · sessions")
	if l.demo {
		head += st.Warning.Render(" · demo")
	}
	info := fmt.Sprintf("%d", len(l.rows))
	if len(l.rows) != len(l.infos) {
		info = fmt.Sprintf("%d of %d", len(l.rows), len(l.infos))
	}
	info += " · sort: " + sortNames[l.sort]
	if l.project != "" {
		info += " · project: " + shortPath(l.project, l.home)
		if l.project == l.startedIn {
			info += " (this folder)"
		}
	} else {
		info += " · all projects"
	}
	if l.agent != "" {
		info += " · agent: " + l.agent
	}
	if l.scanning {
		info = fmt.Sprintf("scanning %d/%d · ", l.done, l.total) + info
	}
	if n := len(l.left); n > 0 {
		info += " · " + transcript.Count(n, "file", "files") + " left out (!)"
	}
	b.WriteString(fit(head+"  "+st.Muted.Render(transcript.OneLine(info)), w) + "\n")
	// Filter line.
	switch {
	case l.typing:
		b.WriteString(fit(st.Accent.Render("/ ")+transcript.OneLine(l.filter)+st.Accent.Render("█")+l.textNote(""), w) + "\n")
	case l.filter != "":
		b.WriteString(fit(st.Muted.Render("filter: ")+transcript.OneLine(l.filter)+l.textNote("  (esc clears)"), w) + "\n")
	case l.demo:
		b.WriteString(fit(st.Warning.Render(transcript.OneLine(l.demoNote())), w) + "\n")
	default:
		b.WriteString("\n")
	}
	listW := w
	previewW := 0
	if l.showsPreview() {
		previewW = previewWidth(w)
		listW = w - previewW - 1
	}
	rows := l.viewRows(listW)
	if previewW > 0 {
		sep := st.Dim.Render(strings.Repeat("│\n", l.height-3))
		pv := l.viewPreview(previewW, l.height-3)
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, rows, strings.TrimSuffix(sep, "\n"), pv))
	} else {
		b.WriteString(rows)
	}
	b.WriteString("\n")
	return b.String()
}

// demoNote says what the demo is, what is done to it is thrown away first:
// then where skein looked and found nothing, when that is why it opened.
func (l *listScreen) demoNote() string {
	note := "Demo: changes are thrown away on exit."
	if len(l.demoLooked) == 0 {
		return note
	}
	looked := make([]string, len(l.demoLooked))
	for i, r := range l.demoLooked {
		looked[i] = shortPath(r, l.home)
	}
	return note + " No sessions in " + strings.Join(looked, ", ")
}

// columns decides which columns fit in width w.
func columns(w int) (project, model, branches, agent bool) {
	return w >= 70, w >= 100, w >= 84, w >= 56
}

func (l *listScreen) viewRows(w int) string {
	st := l.styles
	h := l.height - 3
	showProject, showModel, showBranches, showAgent := columns(w)
	const timeW, msgW, brW, modelW = 11, 6, 5, 18 // a date is 10 wide
	const projW = 22
	titleW := w - timeW - msgW - 2
	if showProject {
		titleW -= projW + 1
	}
	if showBranches {
		titleW -= brW + 1
	}
	if showModel {
		titleW -= modelW + 1
	}
	if showAgent {
		titleW -= agentColW + 1
	}
	lines := make([]string, 0, h)
	hdr := pad("session", titleW) + " "
	if showAgent {
		hdr += pad("agent", agentColW) + " "
	}
	if showProject {
		hdr += pad("project", projW) + " "
	}
	// Sorted by creation, the time column is the creation time.
	timeName, timeOf := "modified", func(in *store.Info) float64 { return in.Modified }
	if l.sort == sortCreated {
		timeName, timeOf = "created", func(in *store.Info) float64 { return in.Created }
	}
	hdr += padLeft(timeName, timeW) + padLeft("msgs", msgW)
	if showBranches {
		hdr += " " + padLeft("br", brW)
	}
	if showModel {
		hdr += "  " + pad("model", modelW-1)
	}
	lines = append(lines, st.Dim.Render(fit(hdr, w)))
	if len(l.rows) == 0 {
		msg := "no sessions found · i imports one from a file"
		switch {
		case l.scanning:
			msg = "scanning…"
		case l.filter != "":
			msg = "no session matches the filter"
		case l.agent != "":
			msg = "no session of " + l.agent + " · a shows every agent"
		}
		lines = append(lines, st.Muted.Render("  "+msg))
	}
	now := l.now()
	query := l.filterWords()
	for i := l.offset; i < len(l.rows) && len(lines) < h; i++ {
		r := l.rows[i]
		in := r.info
		indent := strings.Repeat("  ", r.depth)
		if r.depth > 0 {
			indent = indent[:len(indent)-2] + "↳ "
		}
		t := indent + transcript.OneLine(title(in))
		if r.hit != nil {
			t = hitCell(r.hit, in, titleW)
		}
		switch {
		case r.orphan && l.gone[in.ParentSession]:
			t += " (fork of a deleted session)"
		case r.orphan:
			t += " (fork; parent not found)"
		}
		// What the row is besides its title stays when the title is cut.
		suffix := ""
		if r.forks > 0 {
			suffix = fmt.Sprintf(" (+%d fork", r.forks) + map[bool]string{true: "s", false: ""}[r.forks > 1] + ")"
		}
		from := l.imports[in.Path]
		if from == "" && in.ImportedFrom != "" {
			// An import of an earlier run: its folder says where from.
			from = in.ImportedFrom
			if b := store.ForFormat(store.Format(from)); b.Format() == store.Format(from) {
				from = b.Wording().Agent
			}
		}
		if from != "" {
			// The agent named where the column has room for it.
			long := " (import of a " + from + " session)"
			if titleW-ansi.StringWidth(suffix+long) >= 12 {
				suffix += long
			} else {
				suffix += " (import)"
			}
		}
		cell := pad(titleWith(t, suffix, titleW), titleW)
		line := cell + " "
		if showAgent {
			line += pad(agentCell(store.AgentOf(*in), agentColW), agentColW) + " "
		}
		if showProject {
			line += pad(transcript.TruncateStart(transcript.OneLine(shortPath(in.Cwd, l.home)), projW), projW) + " "
		}
		line += padLeft(relTime(now, timeOf(in)), timeW) + padLeft(shortCount(in.MessageCount), msgW)
		if showBranches {
			line += " " + padLeft(shortCount(in.Branches), brW)
		}
		if showModel {
			line += "  " + truncate(transcript.OneLine(in.Model), modelW-1)
		}
		line = fit(line, w)
		switch {
		case r.hit != nil && i == l.cursor:
			full := pad(ansi.Strip(line), w)
			n := min(len(cell), len(full))
			line = highlightOn(full[:n], matchTerms(r.hit), st.Match, &st.Selected) + st.Selected.Render(full[n:])
		case r.hit != nil:
			line = highlightOn(cell, matchTerms(r.hit), st.Match, &st.Muted) + line[len(cell):]
		case i == l.cursor && len(query) > 0:
			full := pad(ansi.Strip(line), w)
			n := min(len(cell), len(full))
			line = markMatches(full[:n], query, st.Match, &st.Selected) + st.Selected.Render(full[n:])
		case i == l.cursor:
			line = selectedRow(st.Selected, line, w)
		case len(query) > 0 && strings.HasPrefix(line, cell):
			line = markMatches(cell, query, st.Match, nil) + line[len(cell):]
		}
		lines = append(lines, line)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func (l *listScreen) viewPreview(w, h int) string {
	st := l.styles
	in := l.selected()
	var lines []string
	add := func(s string) { lines = append(lines, fit(" "+s, w)) }
	if in == nil {
		return strings.Repeat("\n", h-1)
	}
	add(st.Bold.Render(truncate(transcript.OneLine(title(in)), w-2)))
	add(st.Muted.Render(transcript.TruncateStart(transcript.OneLine(shortPath(in.Cwd, l.home)), w-2)))
	// Whose session it is, from its record's format (a file of any
	// agent's may lie in any folder, and an import is another agent's
	// session than its original).
	add(st.Dim.Render(store.AgentOf(*in) + " · " + transcript.OneLine(model.ShortID(in.ID))))
	add(st.Dim.Render("created " + absTime(in.Created)))
	lines = append(lines, "")
	pv, ok := l.preview[in.Path]
	switch {
	case !ok:
		add(st.Dim.Render("loading…"))
	case pv.err != nil:
		add(st.Error.Render(truncate(transcript.OneLine(pv.err.Error()), w-2)))
	default:
		s := pv.stats
		add(fmt.Sprintf("%d messages · %d tool calls", s.Messages, s.ToolCalls))
		add(fmt.Sprintf("tokens %s in · %s out", transcript.Tokens(s.TokensIn), transcript.Tokens(s.TokensOut)))
		if s.Cost > 0 || s.Unpriced > 0 {
			add("cost " + model.CostText(s.UsageTotals, dollars))
		}
		if len(s.Models) > 0 {
			add("models " + truncate(transcript.OneLine(strings.Join(s.Models, ", ")), w-9))
		}
		add(transcript.Count(in.Branches, "branch", "branches") + " · " + transcript.Count(s.Compactions, "compaction", "compactions") + " · " +
			transcript.Count(s.Labels, "label", "labels") + " · " + transcript.Count(l.forksOf(in), "fork", "forks"))
		if pv.secrets != "" {
			// What an export or a copy would redact: seen before sharing.
			add(st.Warning.Render(truncate("⚠ "+pv.secrets, w-2)))
		}
		lines = append(lines, "")
		for _, pl := range pv.lines {
			if len(lines) >= h-1 {
				break
			}
			role := st.User.Render("you ")
			if pl.role == model.RoleAssistant {
				role = st.Assistant.Render("ai  ")
			}
			for k, wl := range wrapLines(transcript.OneLine(pl.text), w-6, 3) {
				if len(lines) >= h {
					break
				}
				if k == 0 {
					add(role + wl)
				} else {
					add("    " + wl)
				}
			}
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}

func (l *listScreen) forksOf(in *store.Info) int {
	for _, r := range l.rows {
		if r.info == in {
			return r.forks
		}
	}
	return 0
}

// help returns the screen's short and full help.
func (l *listScreen) help() ([]key.Binding, [][]key.Binding) {
	short, full := l.keys.listHelp()
	if in := l.selected(); in != nil {
		b := store.Of(*in)
		return unavailable(l.keys, b, short), unavailableRows(l.keys, b, full)
	}
	return short, full
}

func absTime(ms float64) string {
	if math.IsNaN(ms) {
		return "?"
	}
	return time.UnixMilli(int64(ms)).Format("2006-01-02 15:04")
}

func shortPath(p, home string) string { return transcript.ShortPath(p, home) }

func relTime(now time.Time, ms float64) string { return transcript.RelTime(now, ms) }

// fit cuts a styled line to width w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// truncate cuts plain text to width w with an ellipsis.
func truncate(s string, w int) string { return transcript.Truncate(s, w) }

func pad(s string, w int) string {
	if n := w - ansi.StringWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// shortCount is a count that fits its column: 9999, then 174k, then 1.2M.
func shortCount(n int) string {
	switch {
	case n < 10_000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	}
}

func padLeft(s string, w int) string {
	if n := w - ansi.StringWidth(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// wrapLines wraps plain text to width w, at most n lines.
func wrapLines(s string, w, n int) []string {
	if w <= 0 {
		return nil
	}
	lines := strings.Split(ansi.Wordwrap(s, w, " -"), "\n")
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = truncate(lines[n-1]+" …", w)
	}
	for i := range lines {
		lines[i] = truncate(lines[i], w)
	}
	return lines
}

// markMatches highlights in a plain cell the words of a filter: each word
// where it stands as it is, else the letters of its fuzzy match; the rest
// is drawn in base, when there is one.
func markMatches(cell string, query []string, st lipgloss.Style, base *lipgloss.Style) string {
	low := search.Fold(cell)
	marked := make([]bool, len(cell))
	for _, q := range query {
		if i := strings.Index(low, q); i >= 0 {
			for k := i; k < i+len(q); k++ {
				marked[k] = true
			}
			continue
		}
		for _, at := range fuzzyAt(q, low) {
			_, size := utf8.DecodeRuneInString(low[at:])
			for k := at; k < at+size; k++ {
				marked[k] = true
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(cell); {
		j := i
		for j < len(cell) && marked[j] == marked[i] {
			j++
		}
		switch {
		case marked[i]:
			b.WriteString(st.Render(cell[i:j]))
		case base != nil:
			b.WriteString(base.Render(cell[i:j]))
		default:
			b.WriteString(cell[i:j])
		}
		i = j
	}
	return b.String()
}

// fuzzyAt is where fuzzy finds q's letters in s, nil when it does not.
func fuzzyAt(q, s string) []int {
	first, size := utf8.DecodeRuneInString(q)
	for start := 0; start < len(s); {
		i := strings.IndexRune(s[start:], first)
		if i < 0 {
			return nil
		}
		at := start + i
		pos := []int{at}
		rest, off := s[at+size:], at+size
		ok := true
		for _, r := range q[size:] {
			k := strings.IndexRune(rest, r)
			if k < 0 || k > fuzzyGap {
				ok = false
				break
			}
			pos = append(pos, off+k)
			n := k + utf8.RuneLen(r)
			rest, off = rest[n:], off+n
		}
		if ok {
			return pos
		}
		start = at + size
	}
	return nil
}
