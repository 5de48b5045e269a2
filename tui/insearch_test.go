package tui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"skein/internal/synth"
	"skein/model"
	"skein/search"
	"skein/store"
)

// inSessionFixtures are the sessions of every format in testdata, copied
// where their agents keep them.
func inSessionFixtures(t *testing.T) []string {
	dir := t.TempDir()
	for src, dst := range map[string]string{
		"../testdata/pi/store":         "pi",
		"../testdata/import-edge":      "edge",
		"../testdata/dhara/store":      "dhara",
		"../testdata/dhara05/sessions": "dhara05",
		"../testdata/claude":           ".claude/projects/-path-to-Demo",
		"../testdata/codex":            "codex/2026/01/02",
	} {
		if err := synth.CopyTree(src, filepath.Join(dir, dst)); err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	for _, sub := range []string{"pi", "edge", "dhara", "dhara05", ".claude/projects/-path-to-Demo", "codex/2026/01/02"} {
		found, err := store.Discover([]string{filepath.Join(dir, sub)})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	return files
}

// openedScreen is a session screen with the session at path loaded and
// its selected path built.
func openedScreen(t *testing.T, path string, sh *shared) *sessionScreen {
	t.Helper()
	ss := newSessionScreen(store.Info{Path: path}, sh)
	ss.SetSize(120, 39)
	msg, ok := loadSession(path)().(sessionLoadedMsg)
	if !ok || msg.err != nil {
		return nil
	}
	if cmd := ss.loaded(msg); cmd != nil {
		if pb, ok := cmd().(pathBuiltMsg); ok {
			ss.pathBuilt(pb)
		}
	}
	return ss
}

// queriesOf are what a reader may look for in s: whole words, their
// starts and insides, runs across spaces and punctuation, cut from the
// session's own messages, and a few that match nothing or odd ones.
func queriesOf(s *model.Session) []string {
	out := []string{"the", "TOML", "größe", "zzqxj", "e", ".", "()", "a b", "_", "?", "ı"}
	for i := 0; i < s.Len(); i += max(1, s.Len()/12) {
		m := s.EntryMessage(i)
		text := []rune(m.SearchText())
		for _, cut := range [][2]int{{0, 4}, {3, 9}, {10, 11}, {17, 30}, {40, 43}, {60, 66}} {
			if cut[1] <= len(text) {
				if q := strings.TrimSpace(search.Fold(string(text[cut[0]:cut[1]]))); q != "" && utf8.ValidString(q) {
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// The in-session search through the index finds exactly what reading
// every message finds, in the same order, in the messages and the tree,
// on the sessions of every format; and the index decided most messages.
func TestInSessionSearchThroughIndexIsTheScan(t *testing.T) {
	// Small chunks: the messages are read on every core at once, as in a
	// large session (the race detector sees what they share).
	defer func(c int) { searchChunk = c }(searchChunk)
	searchChunk = 3
	files := inSessionFixtures(t)
	if len(files) < 30 {
		t.Fatalf("%d fixtures", len(files))
	}
	idx := t.TempDir()
	x := search.OpenIndex(idx)
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	x.Close()
	sh := &shared{keys: DefaultKeyMap(), styles: New(Options{}).styles, textIndex: &textIndex{dir: idx}}
	decided, read, sessions := 0, 0, 0
	for _, f := range files {
		ss := openedScreen(t, f, sh)
		if ss == nil || ss.s == nil {
			continue
		}
		sessions++
		refs := make([]itemRef, len(ss.msgs.items))
		for i, it := range ss.msgs.items {
			refs[i] = itemRef{it.Message, it.Separator}
		}
		for _, q := range queriesOf(ss.s) {
			for _, terms := range [][]string{{q}, {q, "the"}} {
				has, ok := sh.textIndex.inSession(f, ss.s, terms)
				if !ok {
					t.Fatalf("%s: the index does not hold it", f)
				}
				for _, h := range has {
					if h == search.Unknown {
						read++
					} else {
						decided++
					}
				}
				if got, want := searchItems(ss.s, refs, terms, has), searchItems(ss.s, refs, terms, nil); !slices.Equal(got, want) {
					t.Errorf("%s: messages %q: through the index %v, read %v", f, terms, got, want)
				}
				rows := ss.tree.view.Rows
				if got, want := searchEntries(ss.s, rows, terms, has), searchEntries(ss.s, rows, terms, nil); !slices.Equal(got, want) {
					t.Errorf("%s: tree %q: through the index %v, read %v", f, terms, got, want)
				}
			}
		}
	}
	if sessions < 30 || decided < 4*read {
		t.Errorf("%d sessions; %d messages decided by the index, %d read", sessions, decided, read)
	}
	t.Logf("%d sessions; %d messages decided by the index, %d read", sessions, decided, read)
}

// BenchmarkTargetInSessionSearch is a search in the messages and in the
// tree of a 100 MB session, from the Enter that starts it to its first match shown: read
// whole ("scan", as before the index held it) and through the full-text
// index ("index", which holds the file). Target: 1 s through the index;
// the benchmark fails past it, and where a word through the index takes
// a third of its time read whole or more. A word ("func", in the tool results) is
// decided by the index alone; words with a space between ("nested
// generics") are narrowed by it, and the messages holding both are read.
//
//	go test ./tui -run XXX -bench TargetInSessionSearch -benchtime 5x
func BenchmarkTargetInSessionSearch(b *testing.B) {
	eachBig(b, func(b *testing.B, path string) {
		ss := loadedScreen(b, path)
		idx := b.TempDir()
		x := search.OpenIndex(idx)
		if err := x.Update([]string{path}, nil); err != nil {
			b.Fatal(err)
		}
		x.Close()
		scan := map[string]time.Duration{} // each query's time read whole
		for _, p := range []pane{paneMessages, paneTree} {
			for _, way := range []string{"scan", "index"} {
				for _, q := range []string{"func", "nested generics"} {
					name := map[pane]string{paneMessages: "messages", paneTree: "tree"}[p] + "/" + way + "/" + q
					b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
						ss.setFocus(p)
						ss.textIndex = nil
						if way == "index" {
							ss.textIndex = &textIndex{dir: idx}
						}
						n := 0
						for b.Loop() {
							ss.msgs.jump(0)
							ss.tree.cursor = len(ss.tree.view.Rows) - 1 // at the leaf, as opened
							ss.startSearch()
							ss.search.input.SetValue(q)
							cmd := ss.searchKey(tea.KeyPressMsg{Code: tea.KeyEnter})
							msg := cmd().(searchDoneMsg)
							if msg.unindexed {
								b.Fatal("the index does not hold the session")
							}
							ss.searchDone(msg)
							n = len(ss.search.matches)
							if n == 0 {
								b.Fatal("no match")
							}
						}
						b.ReportMetric(float64(n), "matches")
						per := b.Elapsed() / time.Duration(b.N)
						switch {
						case way == "scan":
							scan[name] = per
						case per > time.Second:
							b.Errorf("%v a search through the index, over the 1 s target", per)
						case !strings.Contains(q, " ") && per > scan[strings.Replace(name, "/index/", "/scan/", 1)]/3:
							// A word is decided by the index alone: a loaded
							// machine slows both ways alike.
							b.Errorf("%v a search through the index, %v read whole: the index did not decide", per, scan[strings.Replace(name, "/index/", "/scan/", 1)])
						}
					})
				}
			}
		}
	})
}
