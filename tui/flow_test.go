package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"skein/model"
	"skein/store"
)

// waitFor waits until the program has drawn all of the strings.
func waitFor(t *testing.T, tm *teatest.TestModel, what ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		text := []rune(screenText(b))
		for _, w := range what {
			if !containsWild(text, []rune(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

var cursorForward = regexp.MustCompile(`\x1b\[(\d*)C`)
var otherEscapes = regexp.MustCompile(`\x1b(\[[0-9;:?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])`)

// skipped stands for a cell the renderer did not redraw.
const skipped = '\x00'

// screenText turns terminal output into the text it draws, near enough to
// find a phrase: the renderer moves the cursor over cells that did not
// change instead of writing them again, and those become wildcards.
func screenText(b []byte) string {
	s := cursorForward.ReplaceAllStringFunc(string(b), func(m string) string {
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(m, "\x1b["), "C"))
		return strings.Repeat(string(skipped), max(n, 1))
	})
	return otherEscapes.ReplaceAllString(s, "")
}

// containsWild finds want in text, where a skipped cell matches any rune.
func containsWild(text, want []rune) bool {
	for i := 0; i+len(want) <= len(text); i++ {
		ok := true
		for j, r := range want {
			if c := text[i+j]; c != r && c != skipped {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func keys(tm *teatest.TestModel, ks ...tea.KeyPressMsg) {
	for _, k := range ks {
		tm.Send(k)
	}
}

// A person finds a session by name, reads it, goes back and quits.
func TestFlowFindOpenBackQuit(t *testing.T) {
	m := New(Options{Roots: []string{fixtureStore}, Home: "/home/dev"})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "Health endpoint", "Compiler work")
	tm.Type("/redis")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "filter:")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Start over: what is a cache?", "tree")
	keys(tm, tea.KeyPressMsg{Code: '?', Text: "?"})
	waitFor(t, tm, "skein · keys")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEscape}, tea.KeyPressMsg{Code: 'q', Text: "q"})
	waitFor(t, tm, "sort: modified")
	keys(tm, tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if final.screen != screenList || final.list.filter != "redis" {
		t.Errorf("final screen %v filter %q", final.screen, final.list.filter)
	}
}

// openHealthSession runs the program on the fixture store and opens the
// "Health endpoint" session the way a person does: / health, Enter, Enter.
func openHealthSession(t *testing.T) *teatest.TestModel {
	t.Helper()
	return openHealthIn(t, fixtureStore)
}

// openHealthIn is openHealthSession on the store at root.
func openHealthIn(t *testing.T, root string) *teatest.TestModel {
	t.Helper()
	m := New(Options{Roots: []string{root}, Home: "/home/dev"})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "Health endpoint")
	tm.Type("/health")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "What port does it listen on?")
	return tm
}

// Walking the tree changes what the message pane shows.
func TestFlowWalkTree(t *testing.T) {
	tm := openHealthSession(t)
	// To the top of the tree: the path is the first message alone.
	keys(tm, tea.KeyPressMsg{Code: 'g', Text: "g"})
	waitFor(t, tm, "1 of 9")
	keys(tm, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	// The model and thinking changes before it, then the first message.
	if final.session == nil || len(final.session.msgs.items) != 3 || !final.session.msgs.items[0].Separator {
		t.Fatalf("message pane after g: %+v", final.session.msgs.items)
	}
	if v := plain(final); !strings.Contains(v, "Add a /health endpoint") {
		t.Errorf("first message not shown:\n%s", v)
	}
}

// Replay in a running program: r starts it, entries appear as it plays,
// End shows the last, esc goes back to the session.
func TestFlowReplay(t *testing.T) {
	tm := openHealthSession(t)
	tm.Type("r")
	waitFor(t, tm, "playing")
	// At x16 the capped gaps pass in a fifth of a second: the replay plays
	// to its end by itself and stops there.
	tm.Type("+++++")
	waitFor(t, tm, "15/15", "paused")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyHome})
	waitFor(t, tm, "0:00:00") // the first step's session clock
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor(t, tm, "tree")
	keys(tm, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if final.session == nil || final.session.replay != nil {
		t.Error("esc did not end the replay")
	}
}

// Fork in a running program: f asks, Enter writes the fork beside the
// session and says how to resume it.
func TestFlowFork(t *testing.T) {
	root := storeCopy(t)
	tm := openHealthIn(t, root)
	before, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	tm.Type("f")
	waitFor(t, tm, "Fork from this entry?")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Forked", "pi --session")
	keys(tm, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	after, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	if len(after) != len(before)+1 {
		t.Errorf("%d sessions after the fork, %d before", len(after), len(before))
	}
}

// compactToReview opens the compaction of the Health session's leaf in a
// running program, down to a budget that summarizes something, and waits
// for the summary to review.
func compactToReview(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	tm.Type("c")
	waitFor(t, tm, "Keep about 20k tokens")
	for range 11 {
		tm.Type("-")
	}
	// The renderer redraws only what changed: the new budget, not the words
	// before it. (Each wait reads on from where the last one stopped.)
	waitFor(t, tm, "Compact the branch?", "9 tokens (- fewer")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Compaction summary")
}

// Compaction in a running program: the plan, the summary to review, ctrl+s
// writes it.
func TestFlowCompact(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	root := storeCopy(t)
	tm := openHealthIn(t, root)
	compactToReview(t, tm)
	keys(tm, tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	waitFor(t, tm, "written")
	keys(tm, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	s, err := store.Open(final.session.info.Path)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Entry(s.Leaf()); e.Kind != model.EntryCompaction {
		t.Errorf("last entry: %s", e.Type)
	}
}

// The stale-leaf guard in a running program: an agent appends while the
// summary is reviewed, and ctrl+s writes nothing and says why.
func TestFlowCompactStaleLeaf(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	root := storeCopy(t)
	tm := openHealthIn(t, root)
	compactToReview(t, tm)
	m, _ := filepath.Glob(filepath.Join(root, "--home-dev-webapp--", "2026-03-02*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("the Health session: %v", m)
	}
	s, err := store.Open(m[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(m[0], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"0badc0de","parentId":"` + s.Entry(s.Leaf()).ID + `","timestamp":"2026-03-02T09:00:00.000Z","message":{"role":"user","content":"one more thing","timestamp":1772442000000}}` + "\n")
	f.Close()
	before, _ := os.ReadFile(m[0])
	keys(tm, tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	waitFor(t, tm, "changed while the summary")
	keys(tm, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if now, _ := os.ReadFile(m[0]); string(now) != string(before) {
		t.Error("a compaction was written after the leaf moved")
	}
}
