package model

import (
	"math"
	"time"

	"skein/internal/jsdate"
)

// Step is one entry of a replay, at the time it was written.
type Step struct {
	Entry int
	Ms    float64 // the entry's time; NaN times take the step before's
	// Message is set for an entry that shows as a message (messages, custom
	// messages, branch summaries, compactions); the others (model and
	// thinking changes, labels, names, custom entries) show as a thin line.
	Message *ContextMessage
}

// Replay lists the path from its first entry to leaf, every entry, for
// replaying the session as it happened.
func (s *Session) Replay(leaf int) []Step {
	if leaf < 0 {
		return nil
	}
	path := s.Path(leaf)
	steps := make([]Step, 0, len(path))
	last := math.NaN()
	for _, i := range path {
		e := s.Entry(i)
		ms := jsdate.Parse(e.Timestamp)
		if math.IsNaN(ms) {
			ms = last
		}
		last = ms
		st := Step{Entry: i, Ms: ms}
		switch e.Kind {
		case EntryMessage:
			st.Message = &ContextMessage{Entry: i, Kind: KindMessage}
		case EntryCustomMessage:
			st.Message = &ContextMessage{Entry: i, Kind: KindCustom}
		case EntryBranchSummary:
			st.Message = &ContextMessage{Entry: i, Kind: KindBranchSummary}
		case EntryCompaction:
			st.Message = &ContextMessage{Entry: i, Kind: KindCompactionSummary}
		}
		steps = append(steps, st)
	}
	return steps
}

// MaxReplayGap caps the wait between two steps, before the speed applies: a
// session left overnight should not replay overnight.
const MaxReplayGap = 3 * time.Second

// ReplayDelay is how long to wait before step i at a speed (1 is real time).
func ReplayDelay(steps []Step, i int, speed float64) time.Duration {
	if i <= 0 || i >= len(steps) || speed <= 0 {
		return 0
	}
	gap := steps[i].Ms - steps[i-1].Ms
	if math.IsNaN(gap) || gap < 0 {
		return 0
	}
	d := min(time.Duration(gap)*time.Millisecond, MaxReplayGap)
	return time.Duration(float64(d) / speed)
}

// ReplayClock is the time since the first step, as h:mm:ss.
func ReplayClock(steps []Step, i int) string {
	if i < 0 || i >= len(steps) || len(steps) == 0 || math.IsNaN(steps[i].Ms) || math.IsNaN(steps[0].Ms) {
		return "0:00:00"
	}
	d := time.Duration(steps[i].Ms-steps[0].Ms) * time.Millisecond
	h := int(d.Hours())
	m := int(d.Minutes()) % 60
	sec := int(d.Seconds()) % 60
	return itoa2(h, 1) + ":" + itoa2(m, 2) + ":" + itoa2(sec, 2)
}

func itoa2(n, width int) string {
	s := ""
	for n > 0 || s == "" {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	for len(s) < width {
		s = "0" + s
	}
	return s
}
