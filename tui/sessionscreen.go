package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"skein/model"
	"skein/store"
	"skein/tui/transcript"
)

// pane names what has focus on the session screen.
type pane int

const (
	paneTree pane = iota
	paneMessages
)

// sessionScreen reads one session: a header, the tree and the messages on
// the path to the tree's selection.
type sessionScreen struct {
	*shared

	info store.Info
	s    *model.Session
	// openAt is the entry to open at, with openTerms marked in it (a text
	// match the list opened), until the session is shown.
	openAt string
	// selectAt is an entry to select once the session is shown (an
	// action goes on there, on an imported copy).
	selectAt  string
	openTerms []string
	openQuery string   // the list's query, shown on the search line
	tail      *msgPane // the last screen of a large session, while it loads
	stats     model.Stats
	err       error
	loading   bool

	tree   treePane
	msgs   msgPane
	focus  pane
	replay *replayView
	search *sessionSearch // a search in the session, nil when none
	// Following the file: where the reader was in the messages, kept
	// across a reading again; and the entries added since the reader last
	// went to the end (G shows them).
	keep  *scrollPos
	fresh int
	// waiting are the keys pressed while the session loaded, applied when
	// it has.
	waiting []tea.KeyPressMsg

	width, height int
	stacked       bool

	// What the header says of the selection, computed when it changes.
	hdrModel, hdrThinking string
	pos, posTotal         int
	// gen counts selection changes: a path built in the background for an
	// older one is dropped, and one not yet begun is not built (latest is
	// the newest, which the build commands read).
	gen    int
	latest *atomic.Int64
}

// inlinePath is the longest path built in Update, a few milliseconds of
// work; a longer one is built by a command, so that keys never wait.
const inlinePath = 2000

// pathBuiltMsg is a path built in the background for selection gen.
type pathBuiltMsg struct {
	path string
	gen  int
	b    builtPath
}

func newSessionScreen(info store.Info, sh *shared) *sessionScreen {
	return &sessionScreen{shared: sh, info: info, loading: true}
}

// tailLoaded shows the end of a large session while the whole loads.
func (ss *sessionScreen) tailLoaded(s *model.Session) {
	p := newMsgPane(s, ss.shared)
	p.SetSize(ss.width, max(2, ss.height-3))
	p.setLeaf(s.Leaf())
	ss.tail = &p
}

// loaded takes the session read in the background, and returns the
// command that builds a long selected path.
func (ss *sessionScreen) loaded(msg sessionLoadedMsg) tea.Cmd {
	ss.loading = false
	ss.tail = nil
	if msg.err != nil {
		ss.err = msg.err
		return nil
	}
	keep := ""
	if ss.s != nil && ss.tree.selected() >= 0 {
		keep = ss.s.Entry(ss.tree.selected()).ID // a reload keeps the selection
	}
	ss.s, ss.stats = msg.s, msg.stats
	ss.tree = newTreePane(ss.s, msg.view, ss.shared)
	if i, ok := ss.s.Index(keep); ok && keep != "" {
		ss.tree.cursor = ss.tree.view.NearestVisible(i)
	}
	ss.msgs = newMsgPane(ss.s, ss.shared)
	if i, ok := ss.s.Index(ss.selectAt); ok && ss.selectAt != "" {
		ss.tree.cursor = ss.tree.view.NearestVisible(i)
		ss.tree.clamp()
	}
	ss.selectAt = ""
	opening := ss.openAt != ""
	if i, ok := ss.s.Index(ss.openAt); ok && opening {
		// The branch through the message, to its end: n and N then reach
		// the matches after it too.
		ss.tree.cursor = ss.tree.view.NearestVisible(leafThrough(ss.s, i))
		ss.tree.clamp()
		ss.focus = paneMessages
	}
	ss.layout()
	cmd := ss.selectionChanged()
	if opening && cmd == nil {
		cmd = ss.openSearch() // the path is shown: mark the match
	}
	ss.setFocus(ss.focus)
	if len(ss.waiting) > 0 {
		// Posted, not a command's message: a key typed meanwhile comes
		// after them.
		ss.post(replayKeysMsg{ss.info.Path, ss.waiting})
		ss.waiting = nil
	}
	return cmd
}

// maxWaiting is the most keys kept while a session loads.
const maxWaiting = 32

// replayKeysMsg gives the keys pressed while a session loaded back to the
// root, which routes them as if they were pressed now (a dialog the first
// opens takes the next).
type replayKeysMsg struct {
	path string
	keys []tea.KeyPressMsg
}

func keyNames(keys []tea.KeyPressMsg) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.String()
	}
	return strings.Join(names, " ")
}

// selectionChanged follows the tree's selection: the messages on its path
// and the header's model, thinking level and position. A long path is built
// by the command it returns.
func (ss *sessionScreen) selectionChanged() tea.Cmd {
	leaf := ss.tree.selected()
	if leaf < 0 && ss.msgs.leaf >= 0 {
		return nil // a filter that shows no row: the last path stays
	}
	ss.gen++
	if leaf < 0 || ss.s.Depth(leaf) <= inlinePath {
		ss.showPath(buildPath(ss.s, leaf, ss.msgs.history))
		return nil
	}
	// Held down, a key moves the selection faster than long paths are
	// built: a build waits a moment and gives way to a newer selection,
	// so that only the one the key stops on is built.
	s, history, path := ss.s, ss.msgs.history, ss.info.Path
	gen := ss.gen
	if ss.latest == nil {
		ss.latest = new(atomic.Int64)
	}
	latest := ss.latest
	latest.Store(int64(gen))
	return func() tea.Msg {
		time.Sleep(pathSettle)
		if latest.Load() != int64(gen) {
			return nil
		}
		return pathBuiltMsg{path, gen, buildPath(s, leaf, history)}
	}
}

// pathSettle is how long a background path build waits for the selection
// to rest.
const pathSettle = 40 * time.Millisecond

// scrollPos is a place in the message pane: an entry's item, a line in it.
type scrollPos struct {
	top, focus itemKey // the items at the top and under the marker
	line       int     // the line of the top item at the top
}

// itemKey names a transcript item across a reading again: one entry may
// give two (a compaction's checkpoint and its summary).
type itemKey struct {
	entry           int
	kind            model.Kind
	separator, omit bool
}

func keyOf(it transcript.Item) itemKey {
	return itemKey{it.Entry, it.Message.Kind, it.Separator, it.Omitted}
}

// followed takes the open session read again after its file changed. What
// the reader looks at stays where it is: the tree keeps its filter, folds
// and selection (a selection on the leaf follows the new leaf, so that the
// path grows), the messages keep their scroll, and the new entries are
// counted in the messages' title until G shows them. A file that could
// not be read (cut mid-write, or gone) leaves the screen as it was.
func (ss *sessionScreen) followed(msg sessionLoadedMsg) tea.Cmd {
	if msg.err != nil || ss.s == nil || ss.replay != nil {
		return nil
	}
	old := ss.s
	sel := ss.tree.selected()
	// On the leaf, or on the row the tree shows for it (a leaf the tree
	// hides, a usage entry, shows as its nearest visible ancestor).
	wasLeaf := sel == old.Leaf() || ss.tree.cursor == ss.tree.view.NearestVisible(old.Leaf())
	selID := ""
	if sel >= 0 {
		selID = old.Entry(sel).ID
	}
	if n := len(ss.msgs.items); n > 0 && ss.msgs.top < n {
		k := &scrollPos{top: keyOf(ss.msgs.items[ss.msgs.top]), line: ss.msgs.topLine, focus: itemKey{entry: -1}}
		if f := ss.msgs.focus; f >= 0 && f < n {
			k.focus = keyOf(ss.msgs.items[f])
		}
		ss.keep = k
	}
	offset := ss.tree.cursor - ss.tree.offset
	ss.s, ss.stats = msg.s, msg.stats
	tp := newTreePane(ss.s, msg.view, ss.shared)
	target := ss.s.Leaf()
	if i, ok := ss.s.Index(selID); ok && (!wasLeaf || msg.own && ss.s.Entry(ss.s.Leaf()).Kind != model.EntryCompaction) {
		target = i // a label or a name written here leaves the selection where it is
	}
	tp.cursor = tp.view.NearestVisible(target)
	tp.offset = max(0, tp.cursor-offset)
	ss.tree = tp
	ss.msgs.s = ss.s
	ss.msgs.resetCache()
	if added := ss.s.Len() - old.Len(); added > 0 && !msg.own {
		ss.fresh += added // told wherever the reader is: G goes to them
	}
	ss.layout()
	ss.setFocus(ss.focus)
	return ss.selectionChanged()
}

// showFresh goes to the entries added while the reader was elsewhere: the
// leaf selected, the messages at their end.
func (ss *sessionScreen) showFresh() tea.Cmd {
	ss.fresh = 0
	if ss.tree.selected() == ss.s.Leaf() {
		ss.msgs.showEnd()
		ss.msgs.focus = len(ss.msgs.items) - 1
		return nil
	}
	ss.tree.cursor = ss.tree.view.NearestVisible(ss.s.Leaf())
	ss.tree.clamp()
	return ss.selectionChanged()
}

// treeLaidOut takes a fold's or a filter's layout made in the background.
func (ss *sessionScreen) treeLaidOut(msg treeLaidOutMsg) tea.Cmd {
	if ss.s == nil || !ss.tree.laidOut(msg) {
		return nil
	}
	return ss.selectionChanged()
}

// pathBuilt shows a path built in the background, unless the selection
// moved on since.
func (ss *sessionScreen) pathBuilt(msg pathBuiltMsg) tea.Cmd {
	if msg.gen != ss.gen || ss.s == nil {
		return nil
	}
	if msg.b.history != ss.msgs.history { // toggled meanwhile
		msg.b = buildPath(ss.s, msg.b.leaf, ss.msgs.history)
	}
	ss.showPath(msg.b)
	return ss.openSearch()
}

// leafThrough is the end of the branch through entry i: the session's
// leaf when i is on its path, else the newest child's, down to a leaf.
func leafThrough(s *model.Session, i int) int {
	if slices.Contains(s.Path(s.Leaf()), i) {
		return s.Leaf()
	}
	for {
		ch := s.Children(i)
		if len(ch) == 0 {
			return i
		}
		i = ch[len(ch)-1]
	}
}

// openSearch marks, once the session opened at a text match shows its
// path, the match: a search of the path for its terms, at that message.
func (ss *sessionScreen) openSearch() tea.Cmd {
	if ss.openAt == "" || ss.s == nil {
		return nil
	}
	at, terms, shown := ss.openAt, ss.openTerms, ss.openQuery
	ss.openAt, ss.openTerms, ss.openQuery = "", nil, ""
	i, ok := ss.s.Index(at)
	if !ok {
		return status("no entry " + transcript.OneLine(at) + " in this session: shown at its end")
	}
	if len(terms) == 0 {
		return ss.focusEntry(i) // skein FILE --entry ID
	}
	if shown == "" {
		shown = strings.Join(terms, " ")
	}
	return ss.searchAt(i, terms, shown)
}

// focusEntry puts entry i, on the path shown, in focus in the message
// pane.
func (ss *sessionScreen) focusEntry(i int) tea.Cmd {
	for k, it := range ss.msgs.items {
		if it.Message.Entry == i && !it.Separator {
			ss.msgs.jump(k)
			return nil
		}
	}
	return status("entry " + transcript.OneLine(ss.s.Entry(i).ID) + " is not among the messages shown")
}

// showPath shows b in the message pane and the header.
func (ss *sessionScreen) showPath(b builtPath) {
	leaf := b.leaf
	ss.msgs.take(b)
	ss.msgs.showEnd()
	if k := ss.keep; k != nil {
		ss.keep = nil
		ss.msgs.restore(k)
	}
	ctx := b.ctx
	ss.hdrModel, ss.hdrThinking = "no model", "off"
	if ctx.Model != nil {
		ss.hdrModel = ctx.Model.Name()
		if ss.stats.Virtual[ss.hdrModel] {
			ss.hdrModel += " (virtual)"
		}
	}
	if ctx.ThinkingLevel != nil {
		ss.hdrThinking = ctx.Thinking()
	}
	ss.pos = 0
	if leaf >= 0 {
		ss.pos = ss.s.Depth(leaf)
	}
	ss.posTotal = ss.pos + ss.below(leaf)
}

// themeChanged drops what was rendered with the old theme.
func (ss *sessionScreen) themeChanged() {
	if ss.s != nil {
		ss.msgs.themeChanged()
	}
	if ss.replay != nil {
		ss.replay.pane.themeChanged()
	}
}

func (ss *sessionScreen) SetSize(w, h int) {
	ss.width, ss.height = w, h
	if ss.tail != nil {
		ss.tail.SetSize(w, max(2, h-3))
	}
	if ss.replay != nil {
		ss.replay.SetSize(w, max(2, h-3))
	}
	ss.layout()
}

// openDialogMsg asks the root to show a dialog: posted (shared.post), so
// that it takes the next key.
type openDialogMsg struct{ d Dialog }

// planMsg carries a compaction plan made in the background.
type planMsg struct{ c *compaction }

// target is the entry actions apply to: the message in focus in the
// message pane, else the tree's selection.
func (ss *sessionScreen) target() int {
	if ss.focus == paneMessages && ss.msgs.focus >= 0 && ss.msgs.focus < len(ss.msgs.items) {
		return ss.msgs.items[ss.msgs.focus].Entry
	}
	return ss.tree.selected()
}

// action handles the keys that write or replay; ok says the key was one.
func (ss *sessionScreen) action(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := ss.keys
	open := func(d Dialog) tea.Cmd {
		ss.post(openDialogMsg{d})
		return nil
	}
	t := ss.target()
	if t < 0 {
		if key.Matches(msg, k.Fork, k.Compact, k.Replay, k.Label) {
			return status("nothing to do that on: no entry is selected"), true
		}
		return nil, false
	}
	for _, w := range ss.keys.writes() {
		if w.act != store.ActDelete && key.Matches(msg, w.b) { // d deletes from the list only
			if err := store.Unsupported(store.Of(ss.info), w.act); err != nil {
				if store.IsImportable(store.Format(ss.info.Format)) {
					return open(importFirstDialog(ss.s, w.act, t, msg)), true
				}
				return func() tea.Msg { return done("", err) }, true
			}
		}
	}
	switch {
	case key.Matches(msg, k.Fork):
		return open(forkDialog(ss.info.Path, ss.s, ss.tree.view, t, ss.home)), true
	case key.Matches(msg, k.Label):
		return open(labelDialog(ss.info.Path, ss.s, ss.tree.view, t, ss.home)), true
	case key.Matches(msg, k.Rename):
		return open(renameDialog(ss.info.Path, ss.info.Format, ss.s.Name())), true
	case key.Matches(msg, k.Export):
		return open(exportDialog(ss.s)), true
	case key.Matches(msg, k.Replay):
		ss.replay = newReplay(ss, t)
		ss.replay.playing = true
		return ss.replay.tick(), true
	case key.Matches(msg, k.Compact):
		d, plan := planCompaction(ss.info.Path, ss.s, ss.tree.view, t, 20000, ss.home)
		ss.post(openDialogMsg{d})
		return plan, true
	}
	return nil, false
}

// layout splits the body: side by side when wide, stacked when narrow.
func (ss *sessionScreen) layout() {
	if ss.s == nil {
		return
	}
	body := max(2, ss.height-3) // header (2) and footer (1)
	ss.stacked = ss.width < 90
	if ss.stacked {
		th := max(3, body*2/5)
		ss.tree.SetSize(ss.width, th)
		ss.msgs.SetSize(ss.width, body-th)
		return
	}
	tw := min(max(28, ss.width*2/5), 70)
	ss.tree.SetSize(tw, body)
	ss.msgs.SetSize(ss.width-tw-1, body)
}

func (ss *sessionScreen) setFocus(p pane) {
	ss.focus = p
	ss.tree.focused = p == paneTree
	ss.msgs.focused = p == paneMessages
}

// Update handles a key; the root has handled quit, help and back.
func (ss *sessionScreen) Update(msg tea.KeyPressMsg) tea.Cmd {
	if ss.s == nil {
		// Still loading: the key waits for the session, in order, so that
		// f then y typed at once still forks.
		if ss.loading && len(ss.waiting) < maxWaiting {
			ss.waiting = append(ss.waiting, msg)
			return status(fmt.Sprintf("%s: waiting for the session to load", keyNames(ss.waiting)))
		}
		return nil
	}
	if ss.search != nil && ss.search.typing {
		return ss.searchKey(msg)
	}
	if ss.replay != nil {
		return ss.replay.Update(msg)
	}
	if key.Matches(msg, ss.keys.FocusNext) {
		ss.setFocus(1 - ss.focus)
		return nil
	}
	if ss.fresh > 0 && key.Matches(msg, ss.keys.Bottom) {
		return ss.showFresh()
	}
	if key.Matches(msg, ss.keys.Search) {
		ss.startSearch()
		return nil
	}
	if sr := ss.search; sr != nil && !sr.typing && key.Matches(msg, ss.keys.NextMessage, ss.keys.PrevMessage) {
		if key.Matches(msg, ss.keys.PrevMessage) {
			return ss.nextMatch(-1)
		}
		return ss.nextMatch(1)
	}
	if key.Matches(msg, ss.keys.CopyPath) {
		return tea.Batch(tea.SetClipboard(ss.info.Path), status("path copied"))
	}
	if key.Matches(msg, ss.keys.Resume) {
		return resume(store.Of(ss.info), ss.info.Path, ss.info.Cwd)
	}
	if key.Matches(msg, ss.keys.Problems) {
		ss.post(openDialogMsg{problemsDialog(ss.info.Path, ss.s.Problems(), ss.home)})
		return nil
	}
	if key.Matches(msg, ss.keys.Stats) {
		ss.post(openDialogMsg{statsOf(ss.info, ss.stats, ss.home)}) // made when the session was read
		return nil
	}
	if cmd, ok := ss.action(msg); ok {
		return cmd
	}
	if ss.focus == paneTree {
		k := ss.keys
		switch {
		case key.Matches(msg, k.NextMessage, k.PrevMessage, k.Thinking, k.Expand, k.History, k.CopyMessage):
			return ss.msgs.act(msg)
		}
		moved, cmd := ss.tree.Update(msg, ss.info.Path)
		if n := ss.tree.note; n != "" {
			ss.tree.note = ""
			cmd = tea.Batch(cmd, status(n))
		}
		if moved {
			return tea.Batch(cmd, ss.selectionChanged())
		}
		return cmd
	}
	return ss.msgs.Update(msg)
}

// wheel scrolls the pane under the pointer.
func (ss *sessionScreen) wheel(x, y, d int) tea.Cmd {
	if ss.s == nil {
		return nil
	}
	inTree := x < ss.tree.width
	if ss.stacked {
		inTree = y-2 < ss.tree.height
	}
	if inTree {
		if ss.tree.scroll(d) {
			return ss.selectionChanged()
		}
		return nil
	}
	ss.msgs.scroll(d * 3)
	return nil
}

// click selects what is under the pointer and focuses its pane: a tree
// row, or a message.
func (ss *sessionScreen) click(x, y int) tea.Cmd {
	if ss.s == nil || ss.replay != nil || y < 2 {
		return nil
	}
	inTree := x < ss.tree.width
	ty, my := y-2, y-2 // the line within each pane (its title is line 0)
	if ss.stacked {
		inTree = y-2 < ss.tree.height
		my = y - 2 - ss.tree.height
	}
	if inTree {
		ss.setFocus(paneTree)
		if k := ss.tree.offset + ty - 1; ty >= 1 && k < len(ss.tree.view.Rows) {
			before := ss.tree.selected()
			ss.tree.cursor = k
			ss.tree.clamp()
			if ss.tree.selected() != before {
				return ss.selectionChanged()
			}
		}
		return nil
	}
	ss.setFocus(paneMessages)
	if i := ss.msgs.itemAt(my - 1); i >= 0 {
		ss.msgs.focus = i
	}
	return nil
}

// title is the session's name, else its folder: never message text, which is
// untrusted, and this goes to the terminal's title.
func (ss *sessionScreen) title() string {
	if ss.info.Name != "" {
		return transcript.OneLine(ss.info.Name)
	}
	return transcript.OneLine(shortPath(ss.info.Cwd, ss.home))
}

func (ss *sessionScreen) help() ([]key.Binding, [][]key.Binding) {
	if ss.replay != nil {
		return ss.keys.replayHelp()
	}
	short, full := ss.keys.sessionHelp(ss.focus == paneTree)
	b := store.Of(ss.info)
	return unavailable(ss.keys, b, short), unavailableRows(ss.keys, b, full)
}

// header is two lines: name, folder, model and thinking; the
// session's totals.
func (ss *sessionScreen) header() string {
	st := ss.styles
	name := ss.info.Name
	if name == "" {
		name = ss.info.FirstMessage
	}
	line1 := st.Title.Render(truncate(transcript.OneLine(name), max(10, ss.width/2))) + st.Muted.Render("  "+transcript.OneLine(shortPath(ss.info.Cwd, ss.home)))
	line2 := ""
	switch {
	case ss.loading && ss.tail != nil:
		line2 = st.Dim.Render("the last messages · loading the whole of " + transcript.OneLine(filepath.Base(ss.info.Path)) + "…")
	case ss.loading:
		line2 = st.Dim.Render("loading " + transcript.OneLine(filepath.Base(ss.info.Path)) + "…")
	case ss.err != nil:
		line2 = st.Error.Render(transcript.OneLine(ss.err.Error()))
	case ss.search != nil:
		line2 = st.Warning.Render(ss.searchLine())
		if ss.search.typing {
			line2 = ss.searchLine()
		}
	default:
		line1 += st.Muted.Render("  " + transcript.OneLine(ss.hdrModel) + " · thinking " + transcript.OneLine(ss.hdrThinking))
		s := ss.stats
		// The session's totals, as the list, the preview, the stats and the
		// exports count them; where the selection is, each pane says.
		line2 = st.Muted.Render(fmt.Sprintf("%s · %s in · %s out · %s · %s",
			transcript.Count(s.Messages, "message", "messages"), transcript.Tokens(s.TokensIn), transcript.Tokens(s.TokensOut), model.CostText(s.UsageTotals, dollars),
			transcript.Count(s.Leaves, "branch", "branches")))
		if n := len(ss.s.Problems()); n > 0 {
			line2 = st.Warning.Render("⚠ "+transcript.Count(n, "problem", "problems")+" in this file (! lists them) · ") + line2
		}
	}
	return fit(line1, ss.width) + "\n" + fit(line2, ss.width)
}

// below counts the entries after n on the branch that continues to the leaf
// (the first child at each step: the way pi orders the active branch).
func (ss *sessionScreen) below(n int) int {
	count := 0
	for n >= 0 {
		c := ss.s.Children(n)
		if len(c) == 0 {
			break
		}
		n = c[len(c)-1]
		count++
	}
	return count
}

// View draws the screen.
func (ss *sessionScreen) View() string {
	if ss.s == nil && ss.tail != nil {
		return ss.header() + "\n" + ss.tail.View()
	}
	if ss.s == nil {
		body := ss.styles.Muted.Render("  loading…")
		if ss.err != nil {
			body = ss.styles.Error.Render("  "+transcript.OneLine(ss.err.Error())) + "\n\n" + ss.styles.Muted.Render("  q goes back to the list")
		}
		return ss.header() + "\n" + body
	}
	if ss.replay != nil {
		return ss.header() + "\n" + ss.replay.View()
	}
	ss.tree.match, ss.msgs.match = nil, nil
	ss.msgs.fresh = ss.fresh
	if sr := ss.search; sr != nil && !sr.typing && len(sr.matches) > 0 {
		if sr.pane == paneTree {
			ss.tree.match, ss.tree.matched = sr.terms, sr.set
		} else {
			ss.msgs.match = sr.terms
		}
	}
	var body string
	if ss.stacked {
		body = ss.tree.View() + "\n" + ss.msgs.View()
	} else {
		sep := strings.TrimSuffix(strings.Repeat("│\n", ss.tree.height), "\n")
		body = lipgloss.JoinHorizontal(lipgloss.Top, ss.tree.View(), ss.styles.Dim.Render(sep), ss.msgs.View())
	}
	return ss.header() + "\n" + body
}
