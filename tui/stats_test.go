package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"skein/model"
	"skein/theme"
)

var statsHelp = regexp.MustCompile(`\bS +stats\b`)

// S opens the stats of the session under the list's cursor (read in a
// command: the view says so until they come) and of the open session; esc
// and q close it; help lists S on both screens.
func TestStatsKey(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	sel := m.list.selected()
	load := press(m, "S") // the view is open; its stats are read by load
	if v := plain(m); !strings.Contains(v, "Reading the session…") {
		t.Errorf("before the stats come:\n%s", v)
	}
	run(m, load)
	v := plain(m)
	if !strings.Contains(v, "Stats · "+title(sel)) || !strings.Contains(v, "Totals") || !strings.Contains(v, "Tokens per day") {
		t.Errorf("the list's stats:\n%s", v)
	}
	press(m, "q")
	if m.top() != nil || !strings.Contains(plain(m), "skein · sessions") {
		t.Errorf("q did not close the stats:\n%s", plain(m))
	}
	press(m, "?")
	if !statsHelp.MatchString(plain(m)) {
		t.Errorf("the list's help has no S:\n%s", plain(m))
	}
	press(m, "esc")
	openFixture(t, m, "Health endpoint")
	run(m, press(m, "S"))
	if v := plain(m); !strings.Contains(v, "Stats · Health endpoint") || !strings.Contains(v, "bash 1 · edit 1") {
		t.Errorf("the session's stats:\n%s", v)
	}
	press(m, "esc")
	if m.top() != nil || m.session == nil {
		t.Error("esc did not close the stats, or closed the session")
	}
	press(m, "?")
	if !statsHelp.MatchString(plain(m)) {
		t.Errorf("the session's help has no S:\n%s", plain(m))
	}
}

// The sparkline drops at each compaction: the column where one falls is
// lower than the column before it, at every width, on a session with four.
func TestSparklineDropsAtCompactions(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Compiler refactor")
	pts := m.session.stats.Context
	n := 0
	for _, p := range pts {
		if p.Compaction {
			n++
		}
	}
	if n < 3 {
		t.Fatalf("%d compactions on the branch", n)
	}
	for _, w := range []int{20, 40, 80, 120, 200} {
		cols, marks := contextColumns(pts, w)
		seen := 0
		for c, mk := range marks {
			if !mk {
				continue
			}
			seen++
			if c == 0 || cols[c] >= cols[c-1] {
				t.Errorf("width %d: the compaction at column %d is not a drop: %v", w, c, cols[max(0, c-1):c+1])
			}
		}
		if seen == 0 || len(cols) > w {
			t.Errorf("width %d: %d columns, %d compactions marked", w, len(cols), seen)
		}
	}
	// Drawn: the compaction's column is shorter in the chart too.
	cols, marks := contextColumns(pts, 120)
	lines := sparkline(cols, 4)
	height := func(c int) int {
		h := 0
		for r, l := range lines {
			if ch := []rune(l)[c]; ch != ' ' {
				h = (len(lines)-r-1)*8 + strings.IndexRune(" ▁▂▃▄▅▆▇█", ch)/3
				break
			}
		}
		return h
	}
	for c, mk := range marks {
		if mk && height(c) >= height(c-1) {
			t.Errorf("drawn: column %d (compaction) is %d eighths, column %d %d", c, height(c), c-1, height(c-1))
		}
	}
}

// contextColumns: a short series stretched, a long one bucketed, a
// compaction's bucket counted from the compaction on.
func TestContextColumns(t *testing.T) {
	pts := []model.ContextPoint{{Tokens: 10}, {Tokens: 20}, {Tokens: 5, Compaction: true}, {Tokens: 8}}
	cols, marks := contextColumns(pts, 8)
	if fmt.Sprint(cols) != "[10 10 20 20 5 5 8 8]" || fmt.Sprint(marks) != "[false false false false true false false false]" {
		t.Errorf("stretched: %v %v", cols, marks)
	}
	cols, marks = contextColumns(pts, 2)
	if fmt.Sprint(cols) != "[20 8]" || fmt.Sprint(marks) != "[false true]" {
		t.Errorf("bucketed: %v %v", cols, marks)
	}
	if got := sparkline([]float64{0, 1, 8, 16}, 2); got[0] != "   █" || got[1] != " ▁██" {
		t.Errorf("sparkline %q", got)
	}
}

// The stats view of a session with compactions, where the sparkline drops
// at each (▲ under it), at the sizes of the other goldens. go test ./tui
// -run GoldenStats -update writes them again.
func TestGoldenStatsCompactions(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := loaded(t, size[0], size[1], true, fixtureStore)
			openFixture(t, m, "Compiler refactor")
			run(m, press(m, "S"))
			v := m.View().Content
			if size[1] >= 24 && !strings.Contains(plainOf(v), "▲") {
				t.Errorf("no compaction marked:\n%s", plainOf(v))
			}
			golden.RequireEqual(t, v)
		})
	}
}

// Every size draws exactly its lines within its width, loading or not,
// in colour and without.
func TestStatsViewEverySize(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Compiler refactor")
	full := newStatsView(m.session.info, "/home/dev")
	full.st = &m.session.stats
	loading := newStatsView(m.session.info, "/home/dev")
	for _, v := range []*statsView{full, loading} {
		for _, st := range []theme.Styles{theme.New(true), theme.Plain()} {
			for h := 1; h <= 60; h += 3 {
				for w := 1; w <= 200; w += 7 {
					out := v.View(st, w, h)
					if n := strings.Count(out, "\n") + 1; n != h {
						t.Fatalf("%dx%d: %d lines", w, h, n)
					}
					for _, l := range strings.Split(out, "\n") {
						if ansi.StringWidth(l) > w {
							t.Fatalf("%dx%d: a line of %d columns: %q", w, h, ansi.StringWidth(l), ansi.Strip(l))
						}
					}
				}
			}
		}
	}
	// Scrolled to the end and back.
	full.Update(tea.KeyPressMsg{Code: 'G', Text: "G"}, DefaultKeyMap())
	if out := ansi.Strip(full.View(theme.Plain(), 80, 12)); !strings.Contains(out, "Tokens per day") {
		t.Errorf("G: %s", out)
	}
	full.Update(tea.KeyPressMsg{Code: 'g', Text: "g"}, DefaultKeyMap())
	if out := ansi.Strip(full.View(theme.Plain(), 80, 12)); !strings.HasPrefix(out, "Stats · Compiler refactor") {
		t.Errorf("g: %s", out)
	}
}
