package tui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"skein/internal/synth"
	"skein/model"
	"skein/store"
)

// storeCopy copies the fixture store so that actions can write.
func storeCopy(t *testing.T) string {
	t.Helper()
	return storeCopyTo(t, t.TempDir())
}

// storeCopyTo copies the fixture store into dst.
func storeCopyTo(t *testing.T, dst string) string {
	t.Helper()
	err := synth.CopyTree(fixtureStore, dst)
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// accept presses keys in the open dialog and runs what it returns.
func accept(t *testing.T, m *Model, keys ...string) {
	t.Helper()
	if dlg(m) == nil {
		t.Fatal("no dialog open")
	}
	for _, k := range keys {
		run(m, press(m, k))
	}
}

func TestForkFromTheTUI(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Cache: Redis vs SQLite")
	src := m.session.info.Path
	before, _ := os.ReadFile(src)
	leaf := m.session.s.Entry(m.session.tree.selected()).ID
	run(m, press(m, "f"))
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "3 entries") {
		t.Fatalf("fork dialog: %+v", dlg(m))
	}
	accept(t, m, "y")
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "pi --session") {
		t.Fatalf("after forking: %+v", dlg(m))
	}
	if after, _ := os.ReadFile(src); string(after) != string(before) {
		t.Error("the source changed")
	}
	// The new session is listed under its parent.
	press(m, "esc", "q")
	var fork *listRow
	for i, r := range m.list.rows {
		if r.depth > 0 && r.info.ParentSession != "" && filepath.Base(r.info.ParentSession) == filepath.Base(src) {
			fork = &m.list.rows[i]
		}
	}
	if fork == nil {
		t.Fatalf("the fork is not nested under its source: %v", names(m))
	}
	fs, err := store.Open(fork.info.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Entry(fs.Leaf()).ID != leaf {
		t.Errorf("the fork ends at %s, want %s", fs.Entry(fs.Leaf()).ID, leaf)
	}
}

func TestLabelRenameAndDeleteFromTheTUI(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	sel := m.session.tree.selected()
	run(m, press(m, "L"))
	accept(t, m, "m", "i", "n", "e", "enter")
	s, _ := store.Open(path)
	if l, _ := s.Label(sel); l != "mine" {
		t.Errorf("label %q", l)
	}
	// The screen reads the session again and shows the label, the selection
	// where it was.
	if !strings.Contains(plain(m), "[mine]") {
		t.Errorf("label not shown:\n%s", plain(m))
	}
	if got := m.session.tree.selected(); m.session.s.Entry(got).ID != s.Entry(sel).ID {
		t.Errorf("selection moved to %s", m.session.s.Entry(got).ID)
	}
	run(m, press(m, "R"))
	inputOf(t, m).SetValue("")
	accept(t, m, "N", "e", "w", "enter")
	if s, _ := store.Open(path); s.Name() != "New" {
		t.Errorf("name %q", s.Name())
	}
	if m.session.info.Name != "New" {
		t.Errorf("the screen's name is %q", m.session.info.Name)
	}
	// Delete from the list: to the trash, asked first.
	press(m, "q")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	for m.list.selectedPath() != path {
		press(m, "j")
	}
	press(m, "d")
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "New") {
		t.Fatalf("delete dialog: %+v", dlg(m))
	}
	accept(t, m, "y")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("the file is still in the store")
	}
	for _, r := range m.list.rows {
		if r.info.Path == path {
			t.Error("the deleted session is still listed")
		}
	}
	trashed, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_DATA_HOME"), "Trash", "files", "*.jsonl"))
	if len(trashed) != 1 {
		t.Errorf("trash holds %v", trashed)
	}
}

// TestCompactionPlanKeysEachCount presses - three times faster than plans
// come back, then lets the plans arrive newest first: the dialog must show
// the budget of all three presses, not of whichever plan came last. A plan
// that comes after the dialog was closed does not reopen it.
func TestCompactionPlanKeysEachCount(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	run(m, press(m, "c"))
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "Keep about 20k tokens") {
		t.Fatalf("plan dialog: %+v", dlg(m))
	}
	cmds := []tea.Cmd{press(m, "-"), press(m, "-"), press(m, "-")}
	for k := len(cmds) - 1; k >= 0; k-- {
		run(m, cmds[k])
	}
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "Keep about 2.5k tokens") {
		t.Fatalf("after three presses: %+v", dlg(m))
	}
	late := press(m, "+")
	press(m, "esc")
	run(m, late)
	if dlg(m) != nil {
		t.Fatalf("a late plan reopened the dialog: %s", dlg(m).body)
	}
}

func TestCompactFromTheTUI(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	before, _ := os.ReadFile(path)
	run(m, press(m, "c"))
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "Keep about 20k tokens") {
		t.Fatalf("plan dialog: %+v", dlg(m))
	}
	for i := 0; i < 11; i++ { // down to a budget that summarizes something
		accept(t, m, "-")
	}
	if !strings.Contains(dlg(m).body, "split turn") && !strings.Contains(dlg(m).body, "Summarize 1") {
		t.Logf("plan: %s", dlg(m).body)
	}
	accept(t, m, "enter")
	if dlg(m) == nil || editorOf(m) == nil || !strings.Contains(editorOf(m).Value(), "## Goal") {
		t.Fatalf("review dialog: %+v", dlg(m))
	}
	// Nothing is written before the review is accepted.
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Fatal("written before review")
	}
	accept(t, m, "ctrl+s")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	last := s.Entry(s.Leaf())
	if last.Kind != model.EntryCompaction {
		t.Fatalf("last entry %s", last.Type)
	}
	if sum := s.EntryMessage(s.Leaf()).Summary; !strings.HasPrefix(sum, "## Goal") && !strings.HasPrefix(sum, "No prior history.") {
		t.Errorf("summary %q", sum)
	}
	// Esc during the review writes nothing.
	run(m, press(m, "g"))
	run(m, press(m, "c"))
	if dlg(m) != nil {
		accept(t, m, "esc")
	}
	if s2, _ := store.Open(path); s2.Len() != s.Len() {
		t.Error("cancelled compaction wrote")
	}
}

func TestReplayInTheTUI(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Health endpoint")
	cmd := press(m, "r")
	r := m.session.replay
	if r == nil || !r.playing || r.pos != 0 || cmd == nil {
		t.Fatalf("replay %+v", r)
	}
	// A tick shows the next step; a stale tick does nothing.
	m.Update(replayTickMsg{gen: r.gen})
	if r.pos != 1 {
		t.Errorf("after a tick: %d", r.pos)
	}
	m.Update(replayTickMsg{gen: r.gen - 1})
	if r.pos != 1 {
		t.Errorf("a stale tick moved it: %d", r.pos)
	}
	press(m, "space")
	if r.playing {
		t.Error("space did not pause")
	}
	press(m, "right", "right")
	if r.pos != 3 {
		t.Errorf("right right: %d", r.pos)
	}
	press(m, "left")
	if r.pos != 2 {
		t.Errorf("left: %d", r.pos)
	}
	press(m, "end")
	if r.pos != len(r.steps)-1 || !strings.Contains(plain(m), "What port does it listen on?") {
		t.Errorf("end: %d", r.pos)
	}
	press(m, "home")
	if r.pos != 0 {
		t.Errorf("home: %d", r.pos)
	}
	press(m, "+", "+", "+", "+", "+", "+")
	if r.speed != 16 {
		t.Errorf("speed %v", r.speed)
	}
	press(m, "-", "-", "-", "-", "-", "-", "-")
	if r.speed != 0.5 {
		t.Errorf("speed %v", r.speed)
	}
	if v := plain(m); !strings.Contains(v, "replay") || !strings.Contains(v, "x0.5") || !strings.Contains(v, "1/") {
		t.Errorf("replay bar:\n%s", v)
	}
	// The pacing: the original gaps, capped, divided by the speed.
	if d := model.ReplayDelay(r.steps, 3, 2); d <= 0 || d > 1500*time.Millisecond {
		t.Errorf("delay %v", d)
	}
	press(m, "esc")
	if m.session.replay != nil || m.screen != screenSession {
		t.Error("esc did not leave the replay for the session")
	}
}

// footer is the last line the screen shows.
func footer(m *Model) string {
	lines := strings.Split(plain(m), "\n")
	return lines[len(lines)-1]
}

// startTyped accepts the open input dialog with text and starts the write
// it asks for, without waiting for it: it returns the command that waits
// for what the write says next.
func startTyped(t *testing.T, m *Model, text string) tea.Cmd {
	t.Helper()
	inputOf(t, m).SetValue(text)
	started, ok := press(m, "enter")().(writeStartedMsg)
	if !ok || dlg(m) != nil {
		t.Fatalf("no write started; dialog %+v", dlg(m))
	}
	_, next := m.Update(started)
	return next
}

// A write that has to wait (here for another skein's lock) shows a busy
// state, and the keys pressed meanwhile are applied; when it ends, the
// busy state goes and the screen reads the session again.
func TestWriteInTheBackgroundKeepsKeys(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	lock, _ := os.Open(path)
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	target := m.session.s.Entry(m.session.tree.selected()).ID
	run(m, press(m, "L"))
	next := startTyped(t, m, "later")
	result := make(chan tea.Msg, 1)
	go func() { result <- next() }()
	if f := footer(m); !strings.Contains(f, "writing the label…") {
		t.Errorf("no busy state: %q", f)
	}
	press(m, "k")
	moved := m.session.s.Entry(m.session.tree.selected()).ID
	if moved == target {
		t.Error("a key pressed during the write was lost")
	}
	select {
	case msg := <-result:
		t.Fatalf("the write ended under another's lock: %+v", msg)
	case <-time.After(50 * time.Millisecond):
	}
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	_, cmd := m.Update(<-result)
	run(m, cmd)
	if f := footer(m); strings.Contains(f, "writing") {
		t.Errorf("still busy: %q", f)
	}
	s, _ := store.Open(path)
	i, _ := s.Index(target)
	if l, _ := s.Label(i); l != "later" {
		t.Errorf("label of %s is %q", target, l)
	}
	if !strings.Contains(plain(m), "[later]") {
		t.Errorf("the screen was not read again:\n%s", plain(m))
	}
}

// An agent is writing the session's last line: the footer says the write
// waits for it, and the name goes after the agent's line once it ends.
func TestWriteWaitsForAnAgentsLine(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	leaf := m.session.s.Entry(m.session.s.Leaf()).ID
	agent := `{"type":"message","id":"agent001","parentId":"` + leaf + `","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"still typing","timestamp":1772445600000}}`
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	defer f.Close()
	f.WriteString(agent[:40])
	run(m, press(m, "R"))
	next := startTyped(t, m, "Named meanwhile")
	waiting, ok := next().(writeWaitingMsg)
	if !ok {
		t.Fatal("the write did not wait for the agent's line")
	}
	_, next = m.Update(waiting)
	if ft := footer(m); !strings.Contains(ft, "waiting while another program finishes writing") {
		t.Errorf("footer %q", ft)
	}
	f.WriteString(agent[40:] + "\n")
	_, cmd := m.Update(next())
	run(m, cmd)
	s, _ := store.Open(path)
	if s.Name() != "Named meanwhile" || s.Entry(s.Parent(s.Leaf())).ID != "agent001" {
		t.Errorf("name %q after %s", s.Name(), s.Entry(s.Parent(s.Leaf())).ID)
	}
	if ft := footer(m); strings.Contains(ft, "waiting") {
		t.Errorf("still waiting: %q", ft)
	}
}

// A note that a background write finished does not take the place of a
// dialog opened meanwhile; a busy dialog answers the keys it does not take.
func TestBackgroundResultsAndBusyDialogs(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	open := inputDialog("Label", "", "typing", nil)
	m.dialogs = []Dialog{open}
	w := &writing{what: "writing the fork"}
	m.Update(writeStartedMsg{w: w})
	m.Update(actionDoneMsg{status: "forked", dialog: infoDialog("Forked", ""), w: w})
	if m.top() != Dialog(open) || len(m.writes) != 0 {
		t.Errorf("dialog %+v, writes %v", m.top(), m.writes)
	}
	busy := infoDialog("Summarizing", "")
	busy.busy, busy.hint = true, "esc: cancel"
	cmd, closed := busy.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}, DefaultKeyMap())
	if note, ok := cmd().(statusMsg); closed || !ok || !strings.Contains(string(note), "esc: cancel") {
		t.Errorf("busy dialog answered %v, closed %v", cmd(), closed)
	}
}

// TestCompactRefusesAStaleLeafFromTheTUI: while the summary of the
// session's leaf is reviewed, an agent appends a turn; saving the summary
// then writes nothing and says why, as the command line does (the
// compaction would have left the new turn on a branch of its own).
func TestCompactRefusesAStaleLeafFromTheTUI(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if sel := m.session.tree.selected(); sel != s.Leaf() {
		t.Fatalf("the tree opens at entry %d, not the leaf %d", sel, s.Leaf())
	}
	run(m, press(m, "c"))
	for i := 0; i < 11; i++ {
		accept(t, m, "-")
	}
	accept(t, m, "enter")
	if dlg(m) == nil || editorOf(m) == nil {
		t.Fatalf("review dialog: %+v", dlg(m))
	}
	// The agent goes on: a user message after the leaf.
	leaf := s.Entry(s.Leaf()).ID
	line := `{"type":"message","id":"0badc0de","parentId":"` + leaf + `","timestamp":"2026-03-02T09:00:00.000Z","message":{"role":"user","content":"one more thing","timestamp":1772442000000}}` + "\n"
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	before, _ := os.ReadFile(path)
	accept(t, m, "ctrl+s")
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Fatal("a compaction was written after the leaf moved")
	}
	if !strings.Contains(m.errText, "changed while the summary was made") || !strings.Contains(plain(m), "changed while the summary was made") {
		t.Errorf("error %q", m.errText)
	}
}

// dlg is the open dialog's frame, nil when none is open.
func dlg(m *Model) *dialogFrame {
	if d := m.top(); d != nil {
		return d.frame()
	}
	return nil
}

// editorOf is the open dialog's editor, nil when it has none.
func editorOf(m *Model) *textarea.Model {
	if d, ok := m.top().(*editorBox); ok {
		return &d.editor
	}
	return nil
}

// inputOf is the open dialog's line of text.
func inputOf(t *testing.T, m *Model) *textinput.Model {
	t.Helper()
	d, ok := m.top().(*inputBox)
	if !ok {
		t.Fatalf("no input dialog open: %+v", m.top())
	}
	return &d.input
}

// TestDialogStack: a dialog opened over another takes every key; esc
// closes it and the one below takes the keys again, as it was.
func TestDialogStack(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	below := inputDialog("Label", "", "typing", func(string) tea.Cmd { return nil })
	m.Update(openDialogMsg{below})
	over := infoDialog("Note", "over the label")
	m.Update(openDialogMsg{over})
	if m.top() != Dialog(over) || len(m.dialogs) != 2 {
		t.Fatalf("stack %v", m.dialogs)
	}
	if v := plain(m); !strings.Contains(v, "over the label") {
		t.Errorf("the top dialog is not drawn:\n%s", v)
	}
	press(m, "x") // the note takes it; the label's text does not change
	if got := below.input.Value(); got != "typing" {
		t.Errorf("the dialog below got a key: %q", got)
	}
	press(m, "esc")
	if m.top() != Dialog(below) {
		t.Fatalf("after esc the top is %+v", m.top())
	}
	press(m, "!")
	if got := below.input.Value(); got != "typing!" {
		t.Errorf("the dialog below does not take keys again: %q", got)
	}
}

// TestLongPathsBuiltInTheBackground: in a session whose path is longer than
// inlinePath, a move of the tree's selection returns a command that builds
// the path; a result for a selection since left is dropped, the newest
// shown, and the keys pressed meanwhile all count.
func TestLongPathsBuiltInTheBackground(t *testing.T) {
	m := openSynth(t, 2<<20)
	ss := m.session
	if ss == nil || ss.s == nil {
		t.Fatal("the session did not open")
	}
	if d := ss.s.Depth(ss.s.Leaf()); d <= inlinePath {
		t.Fatalf("a path of %d entries: too short to test", d)
	}
	if ss.msgs.leaf != ss.tree.selected() {
		t.Fatalf("after loading, the pane shows %d, the tree selects %d", ss.msgs.leaf, ss.tree.selected())
	}
	first := press(m, "k") // one up: built in the background
	second := press(m, "k")
	if first == nil || second == nil {
		t.Fatal("a move along a long path built it in Update")
	}
	want := ss.tree.selected()
	if ss.msgs.leaf == want {
		t.Fatal("the pane moved before its path was built")
	}
	m.Update(second())
	if ss.msgs.leaf != want {
		t.Fatalf("the pane shows %d, the tree selects %d", ss.msgs.leaf, want)
	}
	late := first() // for a selection left since: not even built
	if late != nil {
		t.Error("the path of a selection left since was built")
	}
	m.Update(late)
	if ss.msgs.leaf != want || ss.pos != ss.s.Depth(want) {
		t.Errorf("a stale path was shown: pane %d, position %d", ss.msgs.leaf, ss.pos)
	}
}

// On a large session a fold and a filter change are laid out by a command:
// the old rows stay and work meanwhile, the title says so, a result made
// for an older request is dropped, and the cursor ends where it would have.
func TestTreeLaidOutInTheBackground(t *testing.T) {
	m := openSynth(t, 4<<20)
	ss := m.session
	if ss == nil || ss.s == nil || ss.s.Len() <= inlineTree {
		t.Fatalf("the session did not open, or is too small to test")
	}
	rows := len(ss.tree.view.Rows)
	sel := ss.tree.selected()
	first := press(m, "F") // no-tools
	if first == nil || ss.tree.view.Filter != model.FilterDefault || len(ss.tree.view.Rows) != rows {
		t.Fatal("a filter change on a large session was laid out in Update")
	}
	if !strings.Contains(plain(m), "tree [no-tools]") || !strings.Contains(plain(m), "laying out…") {
		t.Errorf("the title does not say the layout is under way:\n%s", plain(m))
	}
	second := press(m, "F") // user-only, asked before the first arrived
	m.Update(first())       // stale: dropped
	if ss.tree.view.Filter != model.FilterDefault {
		t.Fatalf("a stale layout was taken: %v", ss.tree.view.Filter)
	}
	m.Update(second())
	if ss.tree.view.Filter != model.FilterUserOnly || strings.Contains(plain(m), "laying out…") {
		t.Fatalf("filter %v after the layout", ss.tree.view.Filter)
	}
	for _, r := range ss.tree.view.Rows {
		if e := ss.s.Entry(r.Entry); !e.IsMessage(model.RoleUser) && r.Entry != ss.s.Leaf() {
			t.Fatalf("user-only shows a %s %s", e.Type, e.Role)
		}
	}
	if got, want := ss.tree.selected(), ss.tree.view.Rows[ss.tree.view.NearestVisible(max(sel, ss.s.Leaf()))].Entry; got != want {
		t.Errorf("cursor on %d, want %d", got, want)
	}
	// A key pressed while a layout runs moves on the rows shown, and the
	// cursor keeps that entry when the layout arrives.
	cmd := press(m, "F", "F", "F") // back to default
	press(m, "k")
	moved := ss.tree.selected()
	for cmd != nil {
		msg := cmd()
		cmd = nil
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				if c != nil {
					m.Update(c())
				}
			}
			continue
		}
		_, cmd = m.Update(msg)
	}
	if ss.tree.view.Filter != model.FilterDefault {
		t.Fatalf("filter %v", ss.tree.view.Filter)
	}
	if ss.tree.selected() != moved {
		t.Errorf("the cursor left entry %d for %d", moved, ss.tree.selected())
	}
}

// f then b forks before the selected user message, as pi's /fork; the
// forked dialog shows the message and offers P to resume the fork in pi.
func TestForkBeforeAUserMessage(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Cache: Redis vs SQLite")
	ss := m.session
	user := -1
	for k, r := range ss.tree.view.Rows {
		if e := ss.s.Entry(r.Entry); e.IsMessage(model.RoleUser) && ss.s.Parent(r.Entry) >= 0 {
			user = k
		}
	}
	if user < 0 {
		t.Fatal("no user message with a parent")
	}
	for ss.tree.cursor != user {
		d := "j"
		if ss.tree.cursor > user {
			d = "k"
		}
		run(m, press(m, d))
	}
	at := ss.tree.selected()
	want := ss.s.EntryMessage(at)
	run(m, press(m, "f"))
	if dlg(m) == nil || !strings.Contains(dlg(m).hint, "b: fork before it") {
		t.Fatalf("fork dialog: %+v", dlg(m))
	}
	accept(t, m, "b")
	d := dlg(m)
	if d == nil || d.title != "Forked" || !strings.Contains(d.body, want.Text("\n")) || !strings.Contains(d.hint, "P: resume it in pi") {
		t.Fatalf("after forking: %+v", d)
	}
	var forkPath string
	for _, line := range strings.Split(d.body, "\n") {
		if strings.HasSuffix(line, ".jsonl") && !strings.Contains(line, "pi --session") {
			forkPath = strings.TrimSpace(line)
		}
	}
	fs, err := store.Open(forkPath)
	if err != nil {
		t.Fatalf("the fork %q: %v", forkPath, err)
	}
	// It holds the entry before the message and not the message (a fork
	// may end with the labels it carries over).
	if _, ok := fs.Index(ss.s.Entry(ss.s.Parent(at)).ID); !ok {
		t.Error("the fork lacks the entry before the user message")
	}
	if _, ok := fs.Index(ss.s.Entry(at).ID); ok {
		t.Error("the fork holds the user message it was made before")
	}
	cmd := press(m, "P")
	if dlg(m) != nil || cmd == nil {
		t.Fatal("P did not close the dialog to resume")
	}
	if r, ok := cmd().(resumeReadyMsg); !ok || r.path != forkPath {
		t.Errorf("P resumes %#v, want the fork", r)
	}
}

// esc in the summary editor asks before it throws edits away: n goes back
// to the edits, y closes everything and writes nothing; without edits esc
// just closes.
func TestEscInTheSummaryEditorAsks(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	before, _ := os.ReadFile(path)
	review := func() {
		t.Helper()
		run(m, press(m, "c"))
		for i := 0; i < 11; i++ {
			accept(t, m, "-")
		}
		accept(t, m, "enter")
		if editorOf(m) == nil {
			t.Fatalf("no editor: %+v", dlg(m))
		}
	}
	review()
	run(m, press(m, "x"))
	edited := editorOf(m).Value()
	run(m, press(m, "esc"))
	if d := dlg(m); d == nil || d.title != "Throw away your edits?" {
		t.Fatalf("esc with edits: %+v", d)
	}
	run(m, press(m, "n"))
	if editorOf(m) == nil || editorOf(m).Value() != edited {
		t.Fatal("n did not go back to the edits")
	}
	run(m, press(m, "esc"))
	run(m, press(m, "y"))
	if dlg(m) != nil {
		t.Fatalf("y left a dialog: %+v", dlg(m))
	}
	review()
	run(m, press(m, "esc")) // no edits: closes at once
	if dlg(m) != nil {
		t.Fatalf("esc without edits left a dialog: %+v", dlg(m))
	}
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Error("something was written")
	}
}

// After a delete from the list the preview follows the new selection
// instead of staying on "loading…".
func TestPreviewAfterADelete(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 140, 40, true, root)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	first := m.list.selectedPath()
	run(m, press(m, "d"))
	accept(t, m, "y")
	sel := m.list.selectedPath()
	if sel == first || sel == "" {
		t.Fatalf("selection %q after deleting %q", sel, first)
	}
	if m.list.previewPath != sel {
		t.Errorf("the preview waits for %q, the selection is %q", m.list.previewPath, sel)
	}
}

// Keys pressed while a session loads are not lost: f then y, typed before
// the session is read, fork it once it is.
func TestKeysWhileLoadingAreKept(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	var target *store.Info
	for _, in := range m.list.infos {
		if in.Name == "Cache: Redis vs SQLite" {
			target = in
		}
	}
	for m.list.selected() != target {
		press(m, "j")
	}
	// enter opens the session screen at once; the load command is held
	// back.
	loadCmd := press(m, "enter")
	if m.session == nil || m.session.s != nil || !m.session.loading {
		t.Fatal("the session is not loading")
	}
	press(m, "f")
	run(m, press(m, "y"))
	if !strings.Contains(m.statusText, "f y: waiting for the session to load") {
		t.Errorf("status %q", m.statusText)
	}
	entries, _ := os.ReadDir(filepath.Dir(target.Path))
	run(m, loadCmd)
	after, _ := os.ReadDir(filepath.Dir(target.Path))
	if len(after) != len(entries)+1 {
		t.Fatalf("%d files beside the session, want one more than %d: the keys were lost", len(after), len(entries))
	}
	if d := dlg(m); d == nil || d.title != "Forked" {
		t.Errorf("after the fork: %+v", d)
	}
}

// c says it is planning while the plan is made; esc then drops the plan;
// with nothing to compact the dialog goes and the status says why.
func TestPlanningIsVisible(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Health endpoint")
	plan := press(m, "c") // the plan's command, not run yet
	if d := dlg(m); d == nil || !strings.Contains(d.body, "Planning") {
		t.Fatalf("no busy dialog: %+v", d)
	}
	run(m, press(m, "esc"))
	if dlg(m) != nil {
		t.Fatal("esc did not close the busy dialog")
	}
	run(m, plan) // the plan, late
	if dlg(m) != nil {
		t.Fatalf("a plan dropped by esc opened: %+v", dlg(m))
	}
	// A path that ends in a compaction: nothing to compact.
	press(m, "esc")
	openFixture(t, m, "Round 0: refactor the parser")
	ss := m.session
	for k, r := range ss.tree.view.Rows {
		if ss.s.Entry(r.Entry).Kind == model.EntryCompaction {
			ss.tree.cursor = k
		}
	}
	if ss.s.Entry(ss.tree.selected()).Kind != model.EntryCompaction {
		t.Skip("no compaction in the fixture's tree")
	}
	run(m, press(m, "c"))
	if dlg(m) != nil || !strings.Contains(m.statusText, "Nothing to compact") {
		t.Errorf("dialog %+v, status %q", dlg(m), m.statusText)
	}
}

// A label written from here leaves the reader where they were: the same
// selection and the same message under the marker; o keeps that message
// in view too.
func TestOwnWritesKeepThePlace(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Cache: Redis vs SQLite")
	ss := m.session
	press(m, "tab", "N") // the message before the last
	focus, sel := ss.msgs.focus, ss.tree.selected()
	selID := ss.s.Entry(sel).ID
	press(m, "tab")
	run(m, press(m, "L"))
	typeText(m, "kept")
	run(m, press(m, "enter"))
	if ss.s.Entry(ss.tree.selected()).ID != selID || ss.msgs.focus != focus {
		t.Errorf("after the label: selection %s (was %s), message %d (was %d)", ss.s.Entry(ss.tree.selected()).ID, selID, ss.msgs.focus, focus)
	}
	if strings.Contains(plain(m), "new (G)") {
		t.Error("skein's own label is pointed out as new")
	}
	key := keyOf(ss.msgs.items[ss.msgs.focus])
	press(m, "o")
	if ss.msgs.focus < 0 || keyOf(ss.msgs.items[ss.msgs.focus]) != key {
		t.Errorf("o lost the message under the marker")
	}
}

// openSynth opens, at 120x40, a synthetic session of about size bytes
// (store/synth's) alone in a store.
func openSynth(t *testing.T, size int64) *Model {
	t.Helper()
	path := filepath.Join(t.TempDir(), "synth.jsonl")
	if err := synth.Session(path, "/home/dev/synth", size, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, 120, 40, true, filepath.Dir(path))
	run(m, press(m, "enter"))
	return m
}

// TestDeleteGoesToTheTrashTheOptionsName: the demo runs with a trash of its
// own (Options.Trash); a delete there must not reach the user's trash.
func TestDeleteGoesToTheTrashTheOptionsName(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	m.opts.Trash = filepath.Join(t.TempDir(), "demo-trash")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	path := m.list.selectedPath()
	press(m, "d")
	accept(t, m, "y")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("the session was not deleted")
	}
	if got, _ := filepath.Glob(filepath.Join(m.opts.Trash, "files", "*")); len(got) != 1 {
		t.Errorf("the demo's trash holds %v", got)
	}
	if got, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_DATA_HOME"), "Trash", "files", "*")); len(got) != 0 {
		t.Errorf("the user's trash holds %v", got)
	}
}
