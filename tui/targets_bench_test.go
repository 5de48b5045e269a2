package tui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"skein/model"
	"skein/store"
	"skein/summarize"
)

// The targets of issue 9, as benchmarks of the functions that do the work,
// on two 100 MB sessions: the synthetic one the README's figures use
// (store/synth, written once per machine) and one pi 1.6.0 wrote
// (testdata/pigen/bigstore.mjs --one FILE --mb 100, named by
// SKEIN_BENCH_PI_SESSION or left at /tmp/skein-pi-100mb.jsonl; skipped when
// there is none). Run them with
//
//	go test ./tui -run XXX -bench Target -benchtime 5x
//
// Targets: a cursor move in either pane (Update and View) 16 ms; a tree
// filter change 100 ms; opening to the full tree 1 s; a compaction plan
// 500 ms; an extractive summary 2 s; a filter keystroke on a 10,000-session
// list 16 ms.

// bigSessions are the 100 MB sessions the targets are measured on.
func bigSessions(b *testing.B) map[string]string {
	out := map[string]string{"synth": synthSession(b, "skein-bench-100mb-v2.jsonl", 100<<20)}
	pi := os.Getenv("SKEIN_BENCH_PI_SESSION")
	if pi == "" {
		pi = filepath.Join(os.TempDir(), "skein-pi-100mb.jsonl")
	}
	if _, err := os.Stat(pi); err == nil {
		out["pi"] = pi
	} else {
		b.Logf("no session pi wrote at %s (testdata/pigen/bigstore.mjs --one %s --mb 100): measured on the synthetic one only", pi, pi)
	}
	return out
}

// eachBig runs f as a sub-benchmark on each 100 MB session.
func eachBig(b *testing.B, f func(b *testing.B, path string)) {
	sessions := bigSessions(b)
	for _, name := range []string{"synth", "pi"} {
		if path, ok := sessions[name]; ok {
			b.Run(name, func(b *testing.B) { f(b, path) })
		}
	}
}

// loadedScreen is a session screen at 120x40 with the whole session loaded.
func loadedScreen(b *testing.B, path string) *sessionScreen {
	st := New(Options{}).styles
	ss := newSessionScreen(store.Info{Path: path}, &shared{keys: DefaultKeyMap(), styles: st, color: true})
	ss.SetSize(120, 39)
	msg := loadFull(b, path)
	if cmd := ss.loaded(msg); cmd != nil {
		ss.pathBuilt(cmd().(pathBuiltMsg))
	}
	ss.View()
	return ss
}

func loadFull(b *testing.B, path string) sessionLoadedMsg {
	first := loadSession(path)()
	if batch, ok := first.(tea.BatchMsg); ok {
		first = batch[len(batch)-1]()
	}
	msg := first.(sessionLoadedMsg)
	if msg.err != nil {
		b.Fatal(msg.err)
	}
	return msg
}

// BenchmarkTargetOpenFullTree is opening a 100 MB session to its whole
// tree: the load command's work (read, index, totals, the tree laid out).
// Target: 1 s.
func BenchmarkTargetOpenFullTree(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		for b.Loop() {
			if msg := loadFull(b, path); len(msg.view.Rows) == 0 {
				b.Fatal("no tree")
			}
		}
	})
}

// BenchmarkTargetTreeMove is a cursor move in the tree, Update and View:
// the path of the new selection, this long, is built by a command
// (BenchmarkTargetPathBuild). Target: 16 ms.
func BenchmarkTargetTreeMove(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		ss := loadedScreen(b, path)
		keys := []tea.KeyPressMsg{{Code: 'k', Text: "k"}, {Code: 'j', Text: "j"}}
		i := 0
		for b.Loop() {
			ss.Update(keys[i%2])
			ss.View()
			i++
		}
	})
}

// BenchmarkTargetMessageScroll is a line of scroll in the messages, Update
// and View. Target: 16 ms.
func BenchmarkTargetMessageScroll(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		ss := loadedScreen(b, path)
		ss.setFocus(paneMessages)
		keys := []tea.KeyPressMsg{{Code: 'k', Text: "k"}, {Code: 'j', Text: "j"}}
		i := 0
		for b.Loop() {
			ss.Update(keys[(i/20)%2]) // up 20 lines, down 20
			ss.View()
			i++
		}
	})
}

// BenchmarkTargetPathBuild is the command a move along a long path runs:
// the context, the items shown.
func BenchmarkTargetPathBuild(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		ss := loadedScreen(b, path)
		leaf := ss.s.Leaf()
		for b.Loop() {
			buildPath(ss.s, leaf, false)
		}
	})
}

// BenchmarkTargetTreeFilter is a filter change of the tree: its layout
// again (the command's work). Target: 100 ms.
func BenchmarkTargetTreeFilter(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		ss := loadedScreen(b, path)
		v := ss.tree.view
		f := model.FilterDefault
		for b.Loop() {
			f = (f + 1) % (model.FilterAll + 1)
			if f == model.FilterLabeled {
				f++
			}
			v.With(f, nil).NearestVisible(ss.s.Leaf())
		}
	})
}

// BenchmarkTargetPlan is a compaction plan of the whole path. Target:
// 500 ms.
func BenchmarkTargetPlan(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		s, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if s.PlanCompaction(s.Leaf(), 20000) == nil {
				b.Fatal("no plan")
			}
		}
	})
}

// BenchmarkTargetExtractive is the extractive summary of that plan.
// Target: 2 s.
func BenchmarkTargetExtractive(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		s, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		p := s.PlanCompaction(s.Leaf(), 20000)
		for b.Loop() {
			if summarize.ExtractiveSummary(s, p) == "" {
				b.Fatal("no summary")
			}
		}
	})
}

// tenThousand is a list of 10,000 sessions in memory, as a large store's
// scan gives it.
func tenThousand() []store.Info {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("cache redis sqlite health endpoint compiler notes csv release plan webapp tool parser token stream lexer generics refactor tests docs 多语言 支持 😀 deploy kubernetes helm")
	phrase := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = words[r.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	infos := make([]store.Info, 10000)
	for i := range infos {
		infos[i] = store.Info{
			Path:         fmt.Sprintf("/home/dev/.pi/agent/sessions/--p%d--/s%05d.jsonl", i%97, i),
			ID:           fmt.Sprintf("%08x-0000-7000-8000-%012x", r.Uint32(), i),
			Cwd:          fmt.Sprintf("/home/dev/%s-%d", words[r.IntN(len(words))], i%97),
			FirstMessage: phrase(20 + r.IntN(40)),
			Modified:     1.77e12 + float64(r.IntN(1e9)),
			Created:      1.77e12,
			MessageCount: r.IntN(500),
			Entries:      r.IntN(900),
			Branches:     1 + r.IntN(3),
		}
		if r.IntN(3) == 0 {
			infos[i].Name = phrase(3)
		}
	}
	return infos
}

// tenThousandList is the list screen holding them.
func tenThousandList() *Model {
	m := New(Options{Home: "/home/dev"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.list.add(scanMsg{infos: tenThousand(), done: 10000, total: 10000, finished: true})
	return m
}

// BenchmarkTargetListFilterKey is one letter typed into the filter of a
// 10,000-session list, Update and View. Target: 16 ms.
func BenchmarkTargetListFilterKey(b *testing.B) {
	m := tenThousandList()
	m.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	query := []rune("cache redis")
	i := 0
	for b.Loop() {
		if i == len(query) { // start over: clear and type again
			for range query {
				m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
			}
			i = 0
		}
		m.Update(tea.KeyPressMsg{Code: query[i], Text: string(query[i])})
		m.View()
		i++
	}
}

// BenchmarkTargetFirstScreen10k is the list's first screen of a store of
// 10,000 sessions with a warm index: the index's records read, listed and
// drawn (the scan that checks them goes on behind). Target: 100 ms. The
// store is testdata/genstore's (-out /tmp/skein-5g, or SKEIN_BENCH_5G).
func BenchmarkTargetFirstScreen10k(b *testing.B) {
	root := os.Getenv("SKEIN_BENCH_5G")
	if root == "" {
		root = filepath.Join(os.TempDir(), "skein-5g")
	}
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no store at %s: go run ./testdata/genstore -out %s -sessions 10000 -gb 5", root, root)
	}
	cache := b.TempDir()
	c := store.OpenCache(cache)
	store.UseCache(c)
	files, _ := store.Discover([]string{root})
	store.List(files, nil)
	c.Save()
	store.UseCache(nil)
	for b.Loop() {
		store.UseCache(store.OpenCache(cache))
		m := New(Options{Roots: []string{root}, Home: "/home/dev"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		first := scanStore([]string{root})().(scanMsg)
		if !first.provisional || len(first.infos) < 9000 {
			b.Fatalf("first batch: %d records", len(first.infos))
		}
		m.Update(first)
		if v := m.View().Content; len(v) < 1000 {
			b.Fatal("no screen")
		}
		// The scan goes on checking the files behind the first screen: it
		// ends before the next run, not timed, so that the runs do not
		// race each other's scans.
		b.StopTimer()
		for msg := first; !msg.finished && msg.next != nil; {
			msg = <-msg.next
		}
		store.UseCache(nil)
		b.StartTimer()
	}
}
