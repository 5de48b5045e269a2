// Package tui is skein's terminal UI: the only package that imports Bubble
// Tea. The root Model routes messages to a session list and a session screen.
package tui

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/store"
	"skein/theme"
	"skein/tui/transcript"
)

// Options configure the UI.
type Options struct {
	Roots []string // where to look for sessions
	Demo  bool     // the roots are the bundled demo
	// Trash, when set, is where a delete moves sessions instead of the
	// user's trash: the demo's own, removed with its copy.
	Trash string
	// DemoLooked are the folders skein looked in and found no session in,
	// when that is why the demo opened (nil: it was asked for).
	DemoLooked []string
	Home       string // shortened to ~ in paths
	NoColor    bool   // NO_COLOR: styles without colours
	Cwd        string // the folder skein was started in: p scopes the list to it
	Open       string // a session file to open at once (skein FILE)
	OpenAt     string // and the entry to focus in it (skein FILE --entry ID)
	// TextIndex is the folder of the full-text index ("" for none: the
	// list's search of the messages reads every session).
	TextIndex string
}

type screen int

const (
	screenList screen = iota
	screenSession
	screenDiff
)

// Model is the root model.
type Model struct {
	opts Options
	*shared
	isDark bool

	screen  screen
	list    listScreen
	session *sessionScreen
	// diff is the comparison D opened; diffFrom the screen it goes back
	// to; mark what m marked; diffGen counts comparisons, so that an old
	// one's result is dropped.
	diff     *diffScreen
	diffFrom screen
	mark     *diffMark
	diffGen  int

	help       help.Model
	showHelp   bool
	helpOffset int // the first line of help shown, when it is taller than the screen

	dialogs    []Dialog // open dialogs, the top one last
	compaction *compaction
	writes     []*writing // writes under way, oldest first

	statusText string
	statusID   int
	statusTTL  time.Duration // how long a note stays
	// errText is an error's whole reason: shown wrapped above the footer
	// until a key dismisses it (that key does nothing else).
	errText string

	width, height int
}

// New builds the root model.
func New(opts Options) *Model {
	m := &Model{opts: opts, isDark: true, help: help.New(), statusTTL: 3 * time.Second}
	m.shared = &shared{keys: DefaultKeyMap(), color: !opts.NoColor, home: opts.Home, textIndex: &textIndex{dir: opts.TextIndex}}
	m.styles = m.newStyles()
	m.list = newListScreen(m.shared)
	m.list.demo, m.list.demoLooked = opts.Demo, opts.DemoLooked
	m.list.startedIn = opts.Cwd
	m.help.Styles = help.DefaultStyles(m.isDark)
	return m
}

func (m *Model) newStyles() theme.Styles {
	if m.opts.NoColor {
		return theme.Plain()
	}
	return theme.New(m.isDark)
}

// Init asks the terminal for its background and starts scanning the store.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, scanStore(m.opts.Roots), watch(m.opts.Roots)}
	if p := m.opts.Open; p != "" {
		cmds = append(cmds, openFile(p, m.opts.OpenAt))
	}
	return tea.Batch(cmds...)
}

// statusMsg shows a note on the status line for a while.
type statusMsg string

func status(s string) tea.Cmd { return func() tea.Msg { return statusMsg(s) } }

// errorMsg shows an error until a key dismisses it.
type errorMsg string

func showError(what string, err error) tea.Cmd {
	text := err.Error()
	if what != "" {
		text = what + ": " + text
	}
	return func() tea.Msg { return errorMsg(text) }
}

// Update routes a message, then the messages its handling posted (a
// dialog or a session to open), so that they are taken before the next
// key.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if len(m.posted) == 0 {
		return m, cmd
	}
	return m, tea.Batch(append(m.takePosted(), cmd)...)
}

// takePosted handles the messages posted so far, and those they post.
func (m *Model) takePosted() []tea.Cmd {
	var cmds []tea.Cmd
	for len(m.posted) > 0 {
		next := m.posted[0]
		m.posted = m.posted[1:]
		cmds = append(cmds, m.update(next))
	}
	return cmds
}

// update routes: sizes and colours; async results to their owner; quit; an
// open overlay takes every key; global keys; the current screen.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		// A terminal grown wide enough shows the preview: load it.
		return m.list.previewCmd()
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		m.styles = m.newStyles()
		m.help.Styles = help.DefaultStyles(m.isDark)
		if m.session != nil {
			m.session.themeChanged()
		}
		return nil
	case diffLoadedMsg:
		if m.diff != nil && msg.gen == m.diff.gen {
			return m.diff.loaded(msg)
		}
		return nil
	case loweredMsg:
		m.list.loweredDone(msg)
		return nil
	case scanMsg:
		m.list.add(msg)
		cmds := []tea.Cmd{m.list.previewCmd(), m.list.lowerCmd()}
		if !msg.finished {
			cmds = append(cmds, waitScan(msg.next))
		}
		return tea.Batch(cmds...)
	case textTickMsg:
		return m.list.textTick(msg)
	case textEventMsg:
		return m.list.textEvent(msg)
	case previewDueMsg:
		if msg.path == m.list.selectedPath() {
			return loadPreview(msg.path)
		}
		m.list.previewPath = ""
		return nil
	case previewMsg:
		m.list.preview[msg.path] = msg
		return nil
	case sessionLoadedMsg:
		if m.session != nil && m.session.info.Path == msg.path {
			if msg.live {
				return m.session.followed(msg)
			}
			return m.session.loaded(msg)
		}
		return nil
	case changesMsg:
		return m.changed(msg)
	case relistedMsg:
		return m.relisted(msg)
	case searchDoneMsg:
		if m.session != nil && m.session.info.Path == msg.path {
			return m.session.searchDone(msg)
		}
		return nil
	case replayKeysMsg:
		if m.session == nil || m.session.info.Path != msg.path {
			return nil
		}
		// Each key as if pressed now, in order: what one opens (a dialog,
		// posted) is taken before the next, so that f then y forks.
		var cmds []tea.Cmd
		for _, k := range msg.keys {
			cmds = append(cmds, m.key(k))
			cmds = append(cmds, m.takePosted()...)
		}
		return tea.Batch(cmds...)
	case treeLaidOutMsg:
		if m.session != nil && m.session.info.Path == msg.path {
			return m.session.treeLaidOut(msg)
		}
		return nil
	case pathBuiltMsg:
		if m.session != nil && m.session.info.Path == msg.path {
			return m.session.pathBuilt(msg)
		}
		return nil
	case tailLoadedMsg:
		if m.session != nil && m.session.info.Path == msg.path && m.session.s == nil {
			m.session.tailLoaded(msg.s)
		}
		return nil
	case openMsg:
		m.diff = nil
		m.session = newSessionScreen(*msg.info, m.shared)
		m.session.openAt, m.session.openTerms, m.session.openQuery = msg.at, msg.terms, msg.query
		m.session.selectAt, m.session.waiting = msg.sel, msg.keys
		m.screen = screenSession
		m.showHelp = false
		m.layout()
		return loadSession(msg.info.Path)
	case statusMsg:
		m.statusID++
		m.statusText = string(msg)
		id := m.statusID
		return tea.Tick(m.statusTTL, func(time.Time) tea.Msg { return statusClearMsg{id} })
	case resumeReadyMsg:
		return m.resumeReady(msg)
	case resumedMsg:
		return m.resumed(msg)
	case relistMsg:
		m.list.replace(msg.info)
		if m.session != nil && m.session.info.Path == msg.info.Path {
			m.session.info = msg.info
		}
		return nil
	case errorMsg:
		m.errText = string(msg)
		return nil
	case statusClearMsg:
		if msg.id == m.statusID {
			m.statusText = ""
		}
		return nil
	case openDialogMsg:
		m.dialogs = append(m.dialogs, msg.d)
		return nil
	case statsLoadedMsg:
		msg.v.loaded(msg) // the view that asked, open or closed since
		return nil
	case pickerReadMsg:
		if !slices.Contains(m.dialogs, Dialog(msg.p)) {
			return nil // closed since: its keys go nowhere
		}
		cmd, done := msg.p.loaded(msg, m.keys)
		if done {
			m.dialogs = slices.DeleteFunc(m.dialogs, func(d Dialog) bool { return d == msg.p })
		}
		return cmd
	case closeDialogMsg:
		m.dialogs = slices.DeleteFunc(m.dialogs, func(d Dialog) bool { return d == msg.d })
		return status("edits thrown away: nothing written")
	case writeStartedMsg:
		m.writes = append(m.writes, msg.w)
		return nextWrite(msg.next)
	case writeWaitingMsg:
		msg.w.waiting = true
		return nextWrite(msg.next)
	case actionDoneMsg:
		m.writes = slices.DeleteFunc(m.writes, func(w *writing) bool { return w == msg.w })
		return m.actionDone(msg)
	case planMsg:
		c := msg.c
		if *c.want != c.keep || c.replan && m.top() == nil || c.dropped != nil && *c.dropped {
			return nil // a newer plan is coming, or the dialog was closed
		}
		if c.nothing != "" {
			var keys tea.Cmd
			if c.replan || len(m.dialogs) > 0 {
				keys = m.replaceTop(nil) // the busy dialog, or the plan's
			}
			return tea.Batch(status(c.nothing), keys)
		}
		m.compaction = c
		return m.replaceTop(c.planDialog(m.opts.Home, func() tea.Cmd {
			busy := infoDialog("Summarizing", "Starting…")
			busy.busy = true
			busy.hint = "esc: cancel"
			busy.cancel = func() tea.Cmd {
				if c.cancel != nil {
					c.cancel()
				}
				m.compaction = nil
				return status("compaction cancelled: nothing written")
			}
			m.replaceTop(busy)
			return c.summarize()
		}))
	case compactProgressMsg:
		c := m.compaction
		if c == nil {
			return nil // cancelled
		}
		if !msg.final {
			if d := m.top(); d != nil && d.frame().busy {
				d.frame().body = fmt.Sprintf("%s is writing the summary: %d characters so far.", c.llm.Name(), msg.chars)
			}
			return waitCompact(msg.next)
		}
		m.compaction = nil
		if msg.err != nil {
			return tea.Batch(m.replaceTop(nil), showError("summary failed", msg.err))
		}
		return m.replaceTop(c.reviewDialog(msg.summary, msg.usage))
	case replayTickMsg:
		if m.session != nil && m.session.replay != nil {
			return m.session.replay.advance(msg)
		}
		return nil
	case tea.MouseWheelMsg:
		d := 1
		if msg.Button == tea.MouseWheelUp {
			d = -1
		}
		if p, ok := m.top().(*filePicker); ok {
			p.move(d)
			return nil
		}
		if m.screen == screenSession && m.session != nil {
			return m.session.wheel(msg.X, msg.Y, d)
		}
		return m.list.scroll(d)
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft || m.top() != nil || m.showHelp || m.tooSmall() {
			return nil
		}
		if m.screen == screenSession && m.session != nil {
			return m.session.click(msg.X, msg.Y)
		}
		return m.list.click(msg.X, msg.Y)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		return tea.Quit
	}
	if m.tooSmall() {
		// The screens are not drawn: a key would act where nobody sees it
		// (q would leave a session unseen). Only ctrl+c does anything.
		return nil
	}
	if m.errText != "" {
		m.errText = "" // the key that dismisses an error does nothing else
		return nil
	}
	if d := m.top(); d != nil {
		cmd, closed := d.Update(msg, k)
		if closed && m.top() == d { // unless accepting it put another in its place
			m.dialogs = m.dialogs[:len(m.dialogs)-1]
		}
		if f := d.frame(); f.over != nil {
			m.dialogs = append(m.dialogs, f.over)
			f.over = nil
		}
		return cmd
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Help, k.Back):
			m.showHelp = false
		case key.Matches(msg, k.Down, k.PageDown, k.Bottom):
			m.helpOffset++
			if key.Matches(msg, k.PageDown, k.Bottom) {
				m.helpOffset += m.height
			}
		case key.Matches(msg, k.Up, k.PageUp, k.Top):
			m.helpOffset--
			if key.Matches(msg, k.PageUp, k.Top) {
				m.helpOffset -= m.height
			}
		}
		return nil
	}
	typing := m.screen == screenList && m.list.typing ||
		m.screen == screenSession && m.session != nil && m.session.search != nil && m.session.search.typing
	if !typing && key.Matches(msg, k.Help) {
		m.showHelp, m.helpOffset = true, 0
		return nil
	}
	if !typing {
		if cmd, ok := m.compareKey(msg); ok {
			return cmd
		}
	}
	switch m.screen {
	case screenDiff:
		if key.Matches(msg, k.Back) {
			m.screen, m.diff = m.diffFrom, nil
			if m.screen == screenSession && m.session == nil {
				m.screen = screenList
			}
			return nil
		}
		return m.diff.Update(msg)
	case screenSession:
		if typing {
			return m.session.Update(msg)
		}
		if key.Matches(msg, k.Back) && m.session.search != nil && msg.String() == "esc" {
			m.session.search = nil // esc clears a search first
			return nil
		}
		if key.Matches(msg, k.Back) {
			if m.session.replay != nil {
				m.session.replay = nil
				return nil
			}
			m.screen = screenList
			m.session = nil
			return nil
		}
		return m.session.Update(msg)
	default:
		if !typing && key.Matches(msg, k.Quit) {
			return tea.Quit
		}
		if !typing && key.Matches(msg, k.Delete) {
			if in := m.list.selected(); in != nil {
				if err := store.Unsupported(store.Of(*in), store.ActDelete); err != nil {
					return func() tea.Msg { return done("", err) }
				}
				m.dialogs = append(m.dialogs, deleteDialog(in, m.env(), m.opts.Home))
			}
			return nil
		}
		if !typing && key.Matches(msg, k.Import) {
			if slices.ContainsFunc(m.writes, func(w *writing) bool { return w.importing }) {
				return status("an import is under way: wait for it to finish")
			}
			home := m.opts.Home
			p, read := newFilePicker(k, m.opts.Cwd, home, func(path string) tea.Cmd { return importFile(path, home) })
			m.dialogs = append(m.dialogs, p)
			return read
		}
		if !typing && key.Matches(msg, k.Problems) {
			m.dialogs = append(m.dialogs, leftOutDialog(m.list.left, m.opts.Home))
			return nil
		}
		if !typing && key.Matches(msg, k.Resume) {
			if in := m.list.selected(); in != nil {
				return resume(store.Of(*in), in.Path, in.Cwd)
			}
			return nil
		}
		if !typing && key.Matches(msg, k.CopyPath, k.CopyMessage) { // y and Y: the list has no message
			if p := m.list.selectedPath(); p != "" {
				return tea.Batch(tea.SetClipboard(p), status("path copied"))
			}
		}
		return m.list.Update(msg)
	}
}

// top is the dialog that takes the keys, nil when none is open.
func (m *Model) top() Dialog {
	if len(m.dialogs) == 0 {
		return nil
	}
	return m.dialogs[len(m.dialogs)-1]
}

// replaceTop puts d in the top dialog's place (the next step of one
// exchange: plan, progress, review), or opens it; nil closes the top. The
// keys the busy dialog it replaces kept for it are taken now, in order, by
// d or, with none, by the screen.
func (m *Model) replaceTop(d Dialog) tea.Cmd {
	var keys []tea.KeyPressMsg
	if len(m.dialogs) > 0 {
		f := m.top().frame()
		keys, f.queued = f.queued, nil
		m.dialogs = m.dialogs[:len(m.dialogs)-1]
	}
	if d != nil {
		m.dialogs = append(m.dialogs, d)
	}
	var cmds []tea.Cmd
	for _, k := range keys {
		cmds = append(cmds, m.key(k))
		cmds = append(cmds, m.takePosted()...)
	}
	return tea.Batch(cmds...)
}

// actionDone shows what a write did and brings the screens up to date.
func (m *Model) actionDone(msg actionDoneMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.err != nil {
		cmds = append(cmds, showError("", msg.err))
	} else if msg.status != "" {
		cmds = append(cmds, status(msg.status))
	}
	if msg.added != nil {
		// A fork: listed under its source and selected, so that q from the
		// session finds it (its time is its last message's, which may sort
		// it far down).
		m.list.addInfo(*msg.added)
		m.list.selectPath(msg.added.Path)
	}
	if msg.removed != "" {
		m.list.remove(msg.removed)
	}
	if len(msg.imported) > 0 {
		cmds = append(cmds, m.showImported(msg.imported))
	}
	if g := msg.goOn; g != nil {
		cmds = append(cmds, m.goOnWithCopy(g))
	}
	if msg.reload != "" && m.session != nil && m.session.info.Path == msg.reload {
		if msg.relist != nil {
			m.session.info = *msg.relist
			m.list.replace(*msg.relist)
		}
		// Read again keeping the reader's place, as when an agent writes.
		ss := m.session
		if ss.s != nil {
			cmds = append(cmds, ownWrite(followSession(msg.reload, ss.tree.filter, maps.Clone(ss.tree.folded))))
		} else {
			cmds = append(cmds, loadSession(msg.reload))
		}
	}
	// The preview of the selection, which may be another session now, or
	// the same one changed.
	cmds = append(cmds, m.list.previewCmd())
	// A note about a write that finished in the background waits for no
	// one: it does not take the place of a dialog opened meanwhile.
	if msg.dialog != nil && m.top() == nil {
		m.dialogs = append(m.dialogs, msg.dialog)
	}
	return tea.Batch(cmds...)
}

// showImported lists the sessions an import wrote or found (or brings
// their records up to date) and selects the first. On the list, with
// nothing else open, it clears a filter that hides it and opens it as
// enter would; elsewhere (a session read meanwhile, a filter being typed)
// it is only selected, if shown.
func (m *Model) showImported(infos []store.Info) tea.Cmd {
	for _, in := range infos {
		if m.list.has(in.Path) {
			m.list.replace(in)
		} else {
			m.list.addInfo(in)
		}
	}
	path := infos[0].Path
	if m.screen != screenList || m.top() != nil || m.showHelp || m.list.typing {
		m.list.selectPath(path)
		return m.list.previewCmd()
	}
	cmd := m.list.show(path)
	if in := m.list.selected(); in != nil && in.Path == path {
		m.post(openMsg{info: in})
	}
	return cmd
}

// goOnWithCopy lists an imported copy and selects it; on the original's
// screen, with nothing else open, it opens the copy at the entry the
// action was asked at and presses the action's key again there.
func (m *Model) goOnWithCopy(g *goOn) tea.Cmd {
	if m.list.has(g.copy.Path) {
		m.list.replace(g.copy)
	} else {
		m.list.addInfo(g.copy)
	}
	if m.session != nil && m.session.info.Path == g.from {
		m.list.markImport(g.copy.Path, store.WordingOf(store.Of(m.session.info)).Agent)
	}
	m.list.selectPath(g.copy.Path)
	if m.screen != screenSession || m.session == nil || m.session.info.Path != g.from || m.top() != nil {
		return m.list.previewCmd()
	}
	in := g.copy
	m.post(openMsg{info: &in, sel: g.entry, keys: []tea.KeyPressMsg{g.key}})
	return nil
}

func (m *Model) env() store.Env {
	e := appEnv(m.opts.Home)
	e.Trash = m.opts.Trash
	return e
}

// appEnv is the store's Env as the UI uses it: the process's, with the
// UI's home folder when one is set.
func appEnv(home string) store.Env {
	e := store.OSEnv()
	if home != "" {
		e.Home = home
	}
	return e
}

// The smallest terminal skein draws in; below it, a one-line notice.
const minWidth, minHeight = 40, 12

func (m *Model) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

// layout sizes the screens. In a terminal too small they are laid out at
// the smallest size, so that none ever sees a size it cannot draw, and come
// back as they were when it grows.
func (m *Model) layout() {
	w, h := max(m.width, minWidth), max(m.height, minHeight)
	body := h - 1 // the footer
	m.list.SetSize(w, body)
	if m.session != nil {
		m.session.SetSize(w, body)
	}
	if m.diff != nil {
		m.diff.SetSize(w, body)
	}
	m.help.SetWidth(w)
}

// View sets the alternate screen, mouse mode and window title with the
// content. The title is skein's and the session's name or folder, never
// message text.
func (m *Model) View() tea.View {
	var content string
	title := "skein"
	if m.opts.Demo {
		title = "skein (demo)"
	}
	short, full := m.list.help()
	switch {
	case m.width == 0:
		content = ""
	case m.tooSmall():
		notice := fmt.Sprintf("skein: the terminal is too small (%dx%d; %dx%d at least; ctrl+c quits)", m.width, m.height, minWidth, minHeight)
		for _, shorter := range []string{fmt.Sprintf("skein: terminal too small (%dx%d; ctrl+c quits)", minWidth, minHeight), fmt.Sprintf("terminal too small (%dx%d)", minWidth, minHeight), "terminal too small", "too small"} {
			if ansi.StringWidth(notice) <= m.width {
				break
			}
			notice = shorter
		}
		v := tea.NewView(ansi.Truncate(notice, m.width, "…"))
		v.AltScreen = true
		v.WindowTitle = transcript.OneLine(title)
		return v
	case m.screen == screenDiff && m.diff != nil:
		short, full = m.diff.help()
		title += " — compare"
		content = m.diff.View()
	case m.screen == screenSession && m.session != nil:
		short, full = m.session.help()
		title += " — " + m.session.title()
		content = m.session.View()
	default:
		content = m.list.View()
	}
	if m.showHelp {
		content = m.scrolledHelp(m.helpView(full))
	}
	footer := ""
	if d := m.top(); d != nil {
		body := max(1, m.height-1)
		content = overlay(content, d.View(m.styles, m.width, body), m.width, body)
		if f, ok := d.(interface{ footerHint() string }); ok {
			footer = f.footerHint()
		}
	}
	content = m.withFooter(content, short, footer)
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = transcript.OneLine(title)
	return v
}

// withFooter cuts the content to the screen and adds the footer: the status
// note, or the screen's short help.
func (m *Model) withFooter(content string, short []key.Binding, hint string) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	body := max(0, m.height-1)
	if len(lines) > body {
		lines = lines[:body]
	}
	for len(lines) < body {
		lines = append(lines, "")
	}
	if m.errText != "" {
		// The whole reason, wrapped, over the bottom of the content.
		wrapped := lipgloss.NewStyle().Width(max(1, m.width)).Render(transcript.Flat("error: " + m.errText + " (any key)"))
		errLines := strings.Split(wrapped, "\n")
		for i, l := range errLines {
			errLines[i] = m.styles.Error.Render(l)
		}
		if len(errLines) > body-1 {
			errLines = errLines[len(errLines)-max(1, body-1):]
		}
		lines = append(lines[:body-len(errLines)], errLines...)
	}
	footer := m.help.ShortHelpView(short)
	if hint != "" {
		footer = m.styles.Muted.Render(hint) // an overlay's keys, the one footer
	}
	if m.opts.Demo {
		footer = m.styles.Warning.Render("demo ") + footer
	}
	var notes []string
	if len(m.writes) > 0 {
		notes = append(notes, m.styles.Warning.Render(busyNote(m.writes)))
	}
	if m.statusText != "" {
		notes = append(notes, m.styles.Accent.Render(transcript.OneLine(m.statusText)))
	}
	if len(notes) > 0 {
		footer = strings.Join(notes, " · ")
	}
	return strings.Join(append(lines, fit(footer, m.width)), "\n")
}

// busyNote says what the writes under way are doing; one that waits for
// another writer says why it takes a while.
func busyNote(ws []*writing) string {
	for _, w := range ws {
		if w.waiting {
			return w.what + ": waiting while another program finishes writing the session's last line (up to 10 s)…"
		}
	}
	note := ws[len(ws)-1].what + "…"
	if len(ws) > 1 {
		note += fmt.Sprintf(" (%d writes)", len(ws))
	}
	return note
}

// scrolledHelp is the part of help that fits, from helpOffset (kept in
// range here), with a note of what is above and below.
func (m *Model) scrolledHelp(help string) string {
	lines := strings.Split(strings.TrimSuffix(help, "\n"), "\n")
	body := max(1, m.height-1)
	if len(lines) <= body {
		m.helpOffset = 0
		return help
	}
	room := max(1, body-1) // a line for the note
	m.helpOffset = max(0, min(m.helpOffset, len(lines)-room))
	shown := lines[m.helpOffset : m.helpOffset+room]
	note := fmt.Sprintf("lines %d-%d of %d · j/k scroll", m.helpOffset+1, m.helpOffset+room, len(lines))
	return strings.Join(shown, "\n") + "\n" + m.styles.Accent.Render(fit(note, m.width))
}

func (m *Model) helpView(full [][]key.Binding) string {
	st := m.styles
	var b strings.Builder
	b.WriteString(st.Title.Render("skein · keys") + "\n\n")
	// As many columns a row as the width takes, the rest below: every key
	// is shown, none cut off at the edge.
	h := m.help
	h.SetWidth(0)
	var row [][]key.Binding
	for _, col := range full {
		if len(row) > 0 && lipgloss.Width(h.FullHelpView(append(row, col))) > m.width {
			b.WriteString(h.FullHelpView(row) + "\n\n")
			row = nil
		}
		row = append(row, col)
	}
	if len(row) > 0 {
		b.WriteString(h.FullHelpView(row) + "\n\n")
	}
	note := lipgloss.NewStyle().Width(max(1, m.width))
	b.WriteString(st.Muted.Render(note.Render("Mouse: a click selects, the wheel scrolls. To select text, shift+drag (option+drag on macOS).")) + "\n")
	b.WriteString(st.Muted.Render(note.Render("Escapes in session text show as ␛. ? or esc closes this help.")) + "\n")
	return b.String()
}

// Showing is the session on screen ("" on the list), its format, and
// whether it was read without an error: what skein FILE opened, for the
// command line's tests (a program's final model).
func (m *Model) Showing() (path, format string, read bool) {
	if m.session == nil {
		return "", "", false
	}
	ss := m.session
	return ss.info.Path, ss.info.Format, ss.s != nil && ss.err == nil && !ss.loading
}

// Listed is what the list holds: its records, the files it left out and
// why, and whether the scan is still going (for the command line's tests).
func (m *Model) Listed() (records []store.Info, leftOut []store.Problem, scanning bool) {
	for _, in := range m.list.infos {
		records = append(records, *in)
	}
	return records, m.list.left, m.list.scanning
}

// Run starts the UI on the terminal.
func Run(opts Options) error {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	_, err := tea.NewProgram(New(opts)).Run()
	return err
}
