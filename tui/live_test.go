package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"skein/store"
)

// The list and the open session follow a file an agent appends to: the
// watcher tells of the change, the row's count goes up, the new message
// appears at the end of the path without moving what the reader looks at,
// marked "1 new", and G goes to it.
func TestFollowsAnAgentsAppends(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Health endpoint")
	ss := m.session
	path := ss.info.Path
	count := ss.info.MessageCount
	leafID := ss.s.Entry(ss.s.Leaf()).ID
	press(m, "tab")
	press(m, "g") // the reader scrolls to the top of the messages
	top := ss.msgs.top

	cmd := watch([]string{root})
	got := make(chan changesMsg, 1)
	go func() {
		if msg, ok := cmd().(changesMsg); ok {
			got <- msg
		}
	}()
	time.Sleep(100 * time.Millisecond) // the watcher is set up
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"feed0001","parentId":"` + leafID + `","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"and one more thing from the agent","timestamp":1772445600000}}` + "\n")
	f.Close()
	var msg changesMsg
	select {
	case msg = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("no change was told within 5 s")
	}
	if len(msg.paths) != 1 || msg.paths[0] != path {
		t.Fatalf("changes %v, want %s", msg.paths, path)
	}
	msg.next = nil // no more waiting in this test
	_, next := m.Update(msg)
	run(m, next)

	if ss.info.MessageCount != count+1 {
		t.Errorf("the record counts %d messages, want %d", ss.info.MessageCount, count+1)
	}
	if ss.s.Entry(ss.s.Leaf()).ID != "feed0001" || ss.tree.selected() != ss.s.Leaf() {
		t.Fatalf("the selection did not follow the new leaf: %d of %d", ss.tree.selected(), ss.s.Leaf())
	}
	if ss.msgs.top != top {
		t.Errorf("the messages moved from item %d to %d", top, ss.msgs.top)
	}
	if v := plain(m); !strings.Contains(v, "↓ 1 new (G)") {
		t.Errorf("no mark of the new message:\n%s", v)
	}
	run(m, press(m, "G"))
	if v := plain(m); !strings.Contains(v, "and one more thing from the agent") || strings.Contains(v, "new (G)") {
		t.Errorf("G did not show the new message:\n%s", v)
	}
	// Back in the list, the row says so too.
	press(m, "esc")
	for _, in := range m.list.infos {
		if in.Path == path && in.MessageCount != count+1 {
			t.Errorf("the list row counts %d", in.MessageCount)
		}
	}
}

// A new session file in a new project folder is listed, and a removed one
// leaves the list.
func TestFollowsNewAndRemovedSessions(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	n := len(m.list.infos)
	cmd := watch([]string{root})
	got := make(chan changesMsg, 4)
	go func() {
		for c := cmd; c != nil; {
			msg, ok := c().(changesMsg)
			if !ok {
				return
			}
			got <- msg
			c = waitChanges(msg.next)
		}
	}()
	time.Sleep(100 * time.Millisecond)
	src, _ := filepath.Glob(filepath.Join(root, "--home-dev-webapp--", "2026-03-02*.jsonl"))
	data, _ := os.ReadFile(src[0])
	dir := filepath.Join(root, "--home-dev-new--")
	os.Mkdir(dir, 0o755)
	time.Sleep(100 * time.Millisecond)
	fresh := filepath.Join(dir, "2026-03-09T09-00-00-000Z_0f0f.jsonl")
	os.WriteFile(fresh, data, 0o644)
	wait := func(want string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case msg := <-got:
				next := msg.next
				msg.next = nil
				_, c := m.Update(msg)
				run(m, c)
				msg.next = next
				for _, p := range msg.paths {
					if p == want {
						return
					}
				}
			case <-deadline:
				t.Fatalf("no change told for %s", want)
			}
		}
	}
	wait(fresh)
	if len(m.list.infos) != n+1 {
		t.Fatalf("%d sessions listed, want %d", len(m.list.infos), n+1)
	}
	os.Remove(src[0])
	wait(src[0])
	if len(m.list.infos) != n {
		t.Errorf("%d sessions listed after a removal, want %d", len(m.list.infos), n)
	}
}

// Where notifications fail, a folder is polled: a new, a grown and a
// removed file are each told once.
func TestPollingSeesChanges(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644)
	seen := map[string]fileStamp{}
	stampDir(dir, seen, nil)
	check := func(want ...string) {
		t.Helper()
		changed := map[string]bool{}
		stampDir(dir, seen, changed)
		if len(changed) != len(want) {
			t.Fatalf("changed %v, want %v", changed, want)
		}
		for _, w := range want {
			if !changed[w] {
				t.Fatalf("changed %v, want %v", changed, want)
			}
		}
	}
	check()
	os.WriteFile(b, []byte("y\n"), 0o644)
	check(b)
	f, _ := os.OpenFile(a, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("more\n")
	f.Close()
	check(a)
	os.Remove(b)
	check(b)
	check()
}

// A file that turns up, or goes bad, while skein runs and is not a session
// is among the files left out, and leaves them when it is fixed.
func TestLeftOutFollowsTheFiles(t *testing.T) {
	root := storeCopy(t)
	m := loaded(t, 120, 40, true, root)
	bad := filepath.Join(root, "--home-dev-webapp--", "notes.jsonl")
	os.WriteFile(bad, []byte(`{"type":"user","message":"hi"}`+"\n"), 0o644)
	run(m, relist([]string{bad}))
	if len(m.list.left) != 1 || m.list.left[0].Path != bad {
		t.Fatalf("left out: %v", m.list.left)
	}
	os.WriteFile(bad, []byte(`{"type":"session","version":3,"id":"s9","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/x"}`+"\n"), 0o644)
	run(m, relist([]string{bad}))
	if len(m.list.left) != 0 || !m.list.has(bad) {
		t.Errorf("fixed: left out %v, listed %v", m.list.left, m.list.has(bad))
	}
}

// With an index, the list shows its records at once, before the files are
// checked; the scan then replaces them, adds what is new and drops what is
// gone, and no session is listed twice.
func TestFirstScreenFromTheIndex(t *testing.T) {
	root := storeCopy(t)
	c := store.OpenCache(t.TempDir())
	store.UseCache(c)
	t.Cleanup(func() { store.UseCache(nil) })
	files, _ := store.Discover([]string{root})
	store.List(files, nil)
	c.Save()
	// A session goes, one is added, one grows.
	os.Remove(files[0])
	data, _ := os.ReadFile(files[1])
	fresh := filepath.Join(filepath.Dir(files[1]), "2026-12-01T09-00-00-000Z_new.jsonl")
	os.WriteFile(fresh, data, 0o644)
	m := New(Options{Roots: []string{root}, Home: "/home/dev"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	cmd := scanStore([]string{root})
	first := cmd().(scanMsg)
	if !first.provisional || len(first.infos) != len(files) {
		t.Fatalf("first batch: provisional %v, %d records (want %d)", first.provisional, len(first.infos), len(files))
	}
	m.list.add(first)
	if len(m.list.rows) != len(files) {
		t.Fatalf("the first screen lists %d", len(m.list.rows))
	}
	for next := waitScan(first.next); next != nil; {
		msg, ok := next().(scanMsg)
		if !ok {
			break
		}
		m.list.add(msg)
		if msg.finished {
			break
		}
		next = waitScan(msg.next)
	}
	seen := map[string]bool{}
	for _, in := range m.list.infos {
		if seen[in.Path] {
			t.Errorf("%s listed twice", in.Path)
		}
		seen[in.Path] = true
	}
	if seen[files[0]] || !seen[fresh] || len(m.list.infos) != len(files) {
		t.Errorf("after the scan: gone listed %v, new listed %v, %d listed (want %d)", seen[files[0]], seen[fresh], len(m.list.infos), len(files))
	}
}

// Codex keeps its rollouts three folders down (sessions/YYYY/MM/DD), and
// makes a new day's folders at once: a rollout written in an existing day
// and one in a day made while skein runs are both told.
func TestFollowsCodexDayFolders(t *testing.T) {
	root := t.TempDir()
	old := filepath.Join(root, "2026", "11", "30")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := watch([]string{root})
	got := make(chan []string, 16)
	go func() {
		for c := cmd; c != nil; {
			msg, ok := c().(changesMsg)
			if !ok {
				return
			}
			got <- msg.paths
			c = waitChanges(msg.next)
		}
	}()
	time.Sleep(200 * time.Millisecond)
	data, err := os.ReadFile("../testdata/codex/compacted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	wait := func(want string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case paths := <-got:
				if slices.Contains(paths, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no change told for %s", want)
			}
		}
	}
	inOld := filepath.Join(old, "rollout-2026-11-30T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	os.WriteFile(inOld, data, 0o644)
	wait(inOld)
	day := filepath.Join(root, "2026", "12", "01")
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	inNew := filepath.Join(day, "rollout-2026-12-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c.jsonl")
	os.WriteFile(inNew, data, 0o644)
	wait(inNew)
}
