package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"skein/internal/synth"
	"skein/store"
)

// mixedStore is a folder of every agent's sessions: pi's, Claude Code's,
// Codex's, a Dhara folder and Dhara 0.5's files.
func mixedStore(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	copyIn := func(glob string) {
		files, _ := filepath.Glob(glob)
		if len(files) == 0 {
			t.Fatalf("no %s", glob)
		}
		for _, f := range files[:1] {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(root, filepath.Base(f)), b, 0o644)
		}
	}
	copyIn("../testdata/pi/store/--home-dev-webapp--/2026-03-03T14-00-00-000Z_*.jsonl")
	copyIn("../testdata/claude/1af7fc5e-*.jsonl")
	copyIn("../testdata/codex/legacy.jsonl")
	copyIn("../testdata/dhara05/sessions/0c9d4e7f-*.jsonl")
	if err := synth.CopyTree("../testdata/dhara/store/linear", filepath.Join(root, "linear")); err != nil {
		t.Fatal(err)
	}
	return root
}

// listedAgents are the agents of the rows listed, in order.
func listedAgents(m *Model) []string {
	var out []string
	for _, r := range m.list.rows {
		out = append(out, store.AgentOf(*r.info))
	}
	return out
}

// Each row says whose session it is, at 80 and 120 columns, and so does
// the preview, pi's too.
func TestListShowsTheAgent(t *testing.T) {
	root := mixedStore(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := loaded(t, size[0], size[1], true, root)
		if len(m.list.rows) != 5 {
			t.Fatalf("%d rows: %v", len(m.list.rows), names(m))
		}
		lines := strings.Split(plain(m), "\n")
		if !strings.Contains(lines[2], " agent ") {
			t.Errorf("%dx%d: no agent column: %q", size[0], size[1], lines[2])
		}
		for i, r := range m.list.rows {
			row, _, _ := strings.Cut(lines[3+i], "│")
			want := agentCell(store.AgentOf(*r.info), agentColW)
			if !strings.Contains(row, " "+want+" ") {
				t.Errorf("%dx%d: the row of a %s session does not say %q: %q", size[0], size[1], store.AgentOf(*r.info), want, row)
			}
			if ansi.StringWidth(lines[3+i]) > size[0] {
				t.Errorf("%dx%d: row %d is %d wide", size[0], size[1], i, ansi.StringWidth(lines[3+i]))
			}
		}
		got := strings.Join(listedAgents(m), ",")
		for _, a := range []string{"pi", "Claude Code", "Codex", "Dhara"} {
			if !strings.Contains(got, a) {
				t.Errorf("no %s session listed: %s", a, got)
			}
		}
	}
	m := loaded(t, 120, 40, true, root)
	for i, r := range m.list.rows {
		m.list.cursor = i
		pv := plain(m)
		if !strings.Contains(pv, "│ "+store.AgentOf(*r.info)+" · ") {
			t.Errorf("the preview of a %s session does not name its agent:\n%s", store.AgentOf(*r.info), pv)
		}
	}
}

// a narrows the list to one agent's sessions, each agent in turn, then
// every agent again; the header says which, and ? lists the key.
func TestAgentKeyNarrows(t *testing.T) {
	m := loaded(t, 80, 24, true, mixedStore(t))
	seen := []string{}
	for range 4 {
		press(m, "a")
		agents := listedAgents(m)
		if len(agents) == 0 {
			t.Fatalf("a: nothing listed\n%s", plain(m))
		}
		for _, a := range agents {
			if a != m.list.agent {
				t.Errorf("a (%s): a %s session listed", m.list.agent, a)
			}
		}
		if !strings.Contains(plain(m), "agent: "+m.list.agent) {
			t.Errorf("the header does not say the agent:\n%s", plain(m))
		}
		seen = append(seen, m.list.agent)
	}
	if strings.Join(seen, ",") != "Claude Code,Codex,Dhara,pi" {
		t.Errorf("a went through %v", seen)
	}
	press(m, "a")
	if m.list.agent != "" || len(m.list.rows) != 5 || strings.Contains(plain(m), "agent: ") {
		t.Errorf("a after the last agent: %q, %d rows", m.list.agent, len(m.list.rows))
	}
	press(m, "?")
	if !strings.Contains(plain(m), "a     one agent") {
		t.Errorf("? does not list a:\n%s", plain(m))
	}
}

// agent:NAME in the / box narrows the list as the a key does: the agent's
// name in any case, with its space spelt or not, or its format's name.
func TestAgentInTheFilter(t *testing.T) {
	root := mixedStore(t)
	for filter, want := range map[string]string{
		"agent:codex": "Codex", "agent:CODEX": "Codex", "agent:claude": "Claude Code", "agent:Claude-Code": "Claude Code",
		`"agent:claude code"`: "Claude Code", "agent:pi": "pi", "agent:dhara": "Dhara", "agent:dhara-0.5": "Dhara",
	} {
		m := loaded(t, 80, 24, true, root)
		textSearchFor(m, filter)
		agents := listedAgents(m)
		if len(agents) == 0 {
			t.Errorf("/%s: nothing listed\n%s", filter, plain(m))
		}
		for _, a := range agents {
			if a != want {
				t.Errorf("/%s: a %s session listed", filter, a)
			}
		}
	}
	// With words: both narrow.
	m := loaded(t, 80, 24, true, root)
	textSearchFor(m, "agent:pi redis")
	if agents := listedAgents(m); len(agents) != 1 || agents[0] != "pi" {
		t.Errorf("/agent:pi redis: %v\n%s", agents, plain(m))
	}
}
