package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"skein/store"
	"skein/workflow"
)

// TestGoldenSizes: every screen, dialog, help and the replay at 40x12,
// 80x24, 120x40 and 200x60, in colour (the selected row's highlight is in
// the escapes), with the clock pinned and times in UTC (TestMain); and the
// notice at 20x5. go test ./tui -run GoldenSizes -update writes them again.
func TestGoldenSizes(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	open := func(m *Model) { openFixture(t, m, "Cache: Redis vs SQLite") }
	states := []struct {
		name  string
		enter func(m *Model)
		shows string // at every size, this is on screen (unless it cannot fit)
	}{
		{"list", func(m *Model) {}, "skein"},
		{"list-help", func(m *Model) { press(m, "?") }, "skein · keys"},
		{"list-filter", func(m *Model) { press(m, "/"); typeText(m, "cache") }, "cache"},
		{"list-text-search", func(m *Model) { textSearchFor(m, "timeouts") }, "timeouts"},
		{"session-at-text-match", func(m *Model) {
			textSearchFor(m, "correlate")
			press(m, "enter")
			m.list.cursor = len(m.list.rows) - 1
			run(m, press(m, "enter"))
		}, "correlate"},
		{"list-delete", func(m *Model) { run(m, press(m, "d")) }, "trash"},
		{"list-left-out", func(m *Model) { run(m, press(m, "!")) }, "Nothing left out"},
		{"import-picker", func(m *Model) {
			press(m, "i") // its read is not run: the folder is this one
			p := m.top().(*filePicker)
			m.Update(pickerReadMsg{p: p, seq: p.seq, dir: "/home/dev/exports", entries: []pickEntry{
				{name: "claude", dir: true}, {name: "openai", dir: true},
				{name: "\x1b[2Jchat\x07.json", size: 12}, {name: "conversations.json", size: 4_812_133},
				{name: "rewind-compact.jsonl", size: 5120}, {name: "tool-call.json", size: 412},
			}})
			press(m, "j", "j")
		}, "Import a session"},
		{"session", open, "tree"},
		{"session-help", func(m *Model) { open(m); press(m, "?") }, "skein · keys"},
		{"session-messages", func(m *Model) { open(m); press(m, "tab") }, "messages"},
		{"session-search", func(m *Model) { open(m); run(m, press(m, "/")); typeText(m, "redis"); run(m, press(m, "enter")) }, "redis"},
		{"fork", func(m *Model) { open(m); run(m, press(m, "f")) }, "Fork"},
		{"label", func(m *Model) { open(m); run(m, press(m, "L")) }, "Label"},
		{"rename", func(m *Model) { open(m); run(m, press(m, "R")) }, "Rename"},
		{"problems", func(m *Model) { open(m); run(m, press(m, "!")) }, "problems"},
		{"session-stats", func(m *Model) { open(m); run(m, press(m, "S")) }, "Stats"},
		{"list-stats", func(m *Model) { run(m, press(m, "S")) }, "Stats"},
		{"compact-plan", func(m *Model) { openFixture(t, m, "Health endpoint"); run(m, press(m, "c")) }, "ompact"},
		{"compact-review", func(m *Model) {
			openFixture(t, m, "Health endpoint")
			run(m, press(m, "c"))
			for range 11 {
				run(m, press(m, "-"))
			}
			run(m, press(m, "enter"))
		}, "summary"},
		{"compact-planning", func(m *Model) {
			openFixture(t, m, "Health endpoint")
			press(m, "c") // the plan not yet made
		}, "Planning"},
		{"compact-summarizing", func(m *Model) {
			openFixture(t, m, "Health endpoint")
			run(m, press(m, "c"))
			for range 11 {
				run(m, press(m, "-"))
			}
			press(m, "enter") // the summary not yet made
		}, "Summarizing"},
		{"compact-throw-away", func(m *Model) {
			openFixture(t, m, "Health endpoint")
			run(m, press(m, "c"))
			for range 11 {
				run(m, press(m, "-"))
			}
			run(m, press(m, "enter"))
			run(m, press(m, "x"))
			run(m, press(m, "esc"))
		}, "Throw away"},
		{"forked", func(m *Model) {
			open(m)
			run(m, func() tea.Msg {
				return forkedMsg(store.ForFormat(store.FormatPi), workflow.Forked{Forked: store.Forked{Path: "/home/dev/.pi/agent/sessions/--home-dev-webapp--/2026-03-10T12-00-00-000Z_0f0f0f0f-0000-7000-8000-000000000000.jsonl", Entries: 3}})
			})
		}, "Forked"},
		{"error", func(m *Model) {
			open(m)
			run(m, showError("", errors.New("the session changed while the summary was made (its leaf is no longer a1b2c3d4); nothing was written, compact again")))
		}, "error:"},
		{"replay", func(m *Model) {
			open(m)
			press(m, "r") // its tick is not run: the replay stays where it is
			m.session.replay.playing = false
			press(m, "g", "l", "l")
		}, "replay"},
		{"replay-help", func(m *Model) {
			open(m)
			press(m, "r") // its tick is not run: the replay stays where it is
			m.session.replay.playing = false
			press(m, "?")
		}, "play/pause"},
	}
	for _, size := range [][2]int{{40, 12}, {80, 24}, {120, 40}, {200, 60}} {
		for _, st := range states {
			t.Run(fmt.Sprintf("%s-%dx%d", st.name, size[0], size[1]), func(t *testing.T) {
				m := loaded(t, size[0], size[1], true, fixtureStore)
				st.enter(m)
				v := m.View().Content
				lines := strings.Split(v, "\n")
				if len(lines) != size[1] {
					t.Errorf("%d lines, want %d", len(lines), size[1])
				}
				if size[0] >= 80 && !strings.Contains(plainOf(v), st.shows) {
					t.Errorf("no %q on screen:\n%s", st.shows, plainOf(v))
				}
				golden.RequireEqual(t, v)
			})
		}
	}
	t.Run("too-small-20x5", func(t *testing.T) {
		m := loaded(t, 120, 40, true, fixtureStore)
		m.Update(tea.WindowSizeMsg{Width: 20, Height: 5})
		v := m.View().Content
		if !strings.Contains(v, "too small") || strings.Contains(v, "\n") {
			t.Errorf("notice %q", v)
		}
		golden.RequireEqual(t, v)
	})
}

func plainOf(v string) string { return ansi.Strip(v) }

// TestKeysDoNothingWhileTooSmall: below the smallest size the screens are
// not drawn, so a key must not act on them unseen (at 30x10 `q` used to
// leave the session for the list, and Enter to open one).
func TestKeysDoNothingWhileTooSmall(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	run(m, press(m, "enter"))
	if m.screen != screenSession || m.session == nil || m.session.s == nil {
		t.Fatalf("the first session did not open")
	}
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 10})
	press(m, "q", "esc", "j", "f")
	if m.screen != screenSession || len(m.dialogs) > 0 {
		t.Fatalf("keys acted while the terminal was too small: screen %v, %d dialogs", m.screen, len(m.dialogs))
	}
	if cmd := press(m, "ctrl+c"); cmd == nil {
		t.Fatalf("ctrl+c does not quit while the terminal is too small")
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "q")
	if m.screen != screenList {
		t.Fatalf("q does not go back once the terminal is large enough again")
	}
}
