package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"skein/internal/jsjson"
	"skein/model"
	"skein/tui/transcript"
)

// replayTickMsg advances a playing replay; gen drops ticks of a replay that
// was paused, stepped or closed since.
type replayTickMsg struct{ gen int }

// replayView replays the path to an entry from its first entry: entries
// appear one by one at their original pace (long gaps capped), faster or
// slower, paused and stepped at will.
type replayView struct {
	*shared
	steps   []model.Step
	pos     int // the steps shown are 0..pos
	playing bool
	speed   float64
	gen     int
	pane    msgPane
	width   int
}

var replaySpeeds = []float64{0.5, 1, 2, 4, 8, 16}

func newReplay(ss *sessionScreen, leaf int) *replayView {
	r := &replayView{shared: ss.shared, steps: ss.s.Replay(leaf), speed: 1}
	r.pane = newMsgPane(ss.s, ss.shared)
	r.pane.focused = true
	r.SetSize(ss.width, max(2, ss.height-3))
	r.show()
	return r
}

func (r *replayView) SetSize(w, h int) {
	r.width = w
	r.pane.SetSize(w, max(1, h-1))
	r.show()
}

// show puts steps 0..pos in the pane, the newest at the bottom.
func (r *replayView) show() {
	items := make([]transcript.Item, 0, r.pos+1)
	for _, st := range r.steps[:min(r.pos+1, len(r.steps))] {
		items = append(items, transcript.ReplayItem(st))
	}
	r.pane.items = items
	r.pane.focus = len(items) - 1
	r.pane.showEnd()
}

// tick schedules the next step while playing.
func (r *replayView) tick() tea.Cmd {
	if !r.playing || r.pos >= len(r.steps)-1 {
		r.playing = false
		return nil
	}
	gen := r.gen
	return tea.Tick(max(model.ReplayDelay(r.steps, r.pos+1, r.speed), time.Millisecond), func(time.Time) tea.Msg { return replayTickMsg{gen} })
}

// advance is a tick: the next step appears.
func (r *replayView) advance(msg replayTickMsg) tea.Cmd {
	if msg.gen != r.gen || !r.playing {
		return nil
	}
	r.pos++
	r.show()
	return r.tick()
}

func (r *replayView) step(to int) {
	r.gen++
	r.pos = max(0, min(to, len(r.steps)-1))
	r.show()
}

// Update handles the replay's keys: space plays and pauses, left and right
// step, home and end jump, + and - change the speed.
func (r *replayView) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := r.keys
	switch {
	case key.Matches(msg, k.PlayPause):
		r.playing = !r.playing
		r.gen++
		if r.playing && r.pos >= len(r.steps)-1 {
			r.pos = 0
			r.show()
		}
		return r.tick()
	case key.Matches(msg, k.StepNext):
		r.step(r.pos + 1)
		return r.tick()
	case key.Matches(msg, k.StepPrev):
		r.step(r.pos - 1)
		return r.tick()
	case key.Matches(msg, k.ReplayStart):
		r.step(0)
		return r.tick()
	case key.Matches(msg, k.ReplayEnd):
		r.step(len(r.steps) - 1)
	case key.Matches(msg, k.Faster):
		r.setSpeed(1)
		r.gen++
		return r.tick()
	case key.Matches(msg, k.Slower):
		r.setSpeed(-1)
		r.gen++
		return r.tick()
	default:
		r.pane.Update(msg)
	}
	return nil
}

func (r *replayView) setSpeed(d int) {
	k := 0
	for i, s := range replaySpeeds {
		if s == r.speed {
			k = i
		}
	}
	r.speed = replaySpeeds[max(0, min(len(replaySpeeds)-1, k+d))]
}

// View is the messages so far and a bar: play state, position, the session
// clock, the speed and a progress bar.
func (r *replayView) View() string {
	st := r.pane.styles
	state := "⏸ paused"
	if r.playing {
		state = "▶ playing"
	}
	info := fmt.Sprintf(" replay %s · %d/%d · %s · x%s ", state, r.pos+1, len(r.steps), model.ReplayClock(r.steps, r.pos), jsjson.FormatNumber(r.speed))
	barW := max(10, r.width-len([]rune(info))-2)
	filled := 0
	if len(r.steps) > 1 {
		filled = barW * r.pos / (len(r.steps) - 1)
	}
	bar := st.Accent.Render(strings.Repeat("█", filled)) + st.Dim.Render(strings.Repeat("░", barW-filled))
	return r.pane.View() + "\n" + fit(st.Bold.Render(info)+bar, r.width)
}
