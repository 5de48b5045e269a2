package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"skein/internal/synth"
	"skein/store"
)

// synthSession writes (once per machine) a session of about size bytes in
// pi's format and returns its path.
func synthSession(b *testing.B, name string, size int64) string {
	path := filepath.Join(os.TempDir(), name)
	if _, err := os.Stat(path); err != nil {
		if err := synth.Session(path+".tmp", "/home/dev/huge", size, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// BenchmarkOpenLastScreen is the time from asking to open a 100 MB session
// to its last screen drawn at 120x40. Target: 300 ms; the whole file loads
// behind it.
func BenchmarkOpenLastScreen(b *testing.B) {
	path := synthSession(b, "skein-bench-100mb-v2.jsonl", 100<<20)
	st := New(Options{}).styles
	for b.Loop() {
		ss := newSessionScreen(store.Info{Path: path, Name: "huge"}, &shared{keys: DefaultKeyMap(), styles: st, color: true})
		ss.SetSize(120, 39)
		msg := loadSession(path)
		// The tail is the first of the batch; the whole file is not waited for.
		batch := msg().(tea.BatchMsg)
		tail, ok := batch[0]().(tailLoadedMsg)
		if !ok {
			b.Fatal("no tail")
		}
		ss.tailLoaded(tail.s)
		if v := ss.View(); len(v) < 100 {
			b.Fatalf("view %q", v)
		}
	}
}

// benchScreen opens a session of about 10,000 messages at 120x40.
func benchScreen(b *testing.B) *sessionScreen {
	path := synthSession(b, "skein-bench-10k-v2.jsonl", 7<<20)
	st := New(Options{}).styles
	ss := newSessionScreen(store.Info{Path: path}, &shared{keys: DefaultKeyMap(), styles: st, color: true})
	ss.SetSize(120, 39)
	first := loadSession(path)()
	if batch, ok := first.(tea.BatchMsg); ok {
		first = batch[len(batch)-1]() // the whole file, not its tail
	}
	msg := first.(sessionLoadedMsg)
	if msg.err != nil {
		b.Fatal(msg.err)
	}
	if msg.stats.Messages < 9000 {
		b.Fatalf("only %d messages", msg.stats.Messages)
	}
	if cmd := ss.loaded(msg); cmd != nil {
		ss.pathBuilt(cmd().(pathBuiltMsg)) // a long path is built by a command
	}
	ss.View()
	return ss
}

// BenchmarkFrameMoveInTree moves the tree's selection one entry and draws
// the frame, the work Update and View do: a path this long is built by a
// command, off the UI's goroutine (BenchmarkPathBuild). Target: 16 ms.
func BenchmarkFrameMoveInTree(b *testing.B) {
	ss := benchScreen(b)
	up := tea.KeyPressMsg{Code: 'k', Text: "k"}
	down := tea.KeyPressMsg{Code: 'j', Text: "j"}
	k := 0
	for b.Loop() {
		// Up the tree and back down, a few hundred entries each way, so that
		// new messages keep coming into view.
		if (k/400)%2 == 0 {
			ss.Update(up)
		} else {
			ss.Update(down)
		}
		k++
		_ = ss.View()
	}
}

// BenchmarkPathBuild is the background work of a move in a session of
// 10,000 messages: the context and the transcript's items of the path.
func BenchmarkPathBuild(b *testing.B) {
	ss := benchScreen(b)
	leaf := ss.tree.selected()
	for b.Loop() {
		if p := buildPath(ss.s, leaf, false); len(p.items) == 0 {
			b.Fatal("nothing built")
		}
	}
}

// BenchmarkFrameScroll scrolls the message pane by a line and draws the frame.
func BenchmarkFrameScroll(b *testing.B) {
	ss := benchScreen(b)
	ss.setFocus(paneMessages)
	up := tea.KeyPressMsg{Code: 'k', Text: "k"}
	pgup := tea.KeyPressMsg{Code: tea.KeyPgUp}
	k := 0
	for b.Loop() {
		if k%20 == 19 {
			ss.Update(pgup)
		} else {
			ss.Update(up)
		}
		k++
		_ = ss.View()
	}
}
