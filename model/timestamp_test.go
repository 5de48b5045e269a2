package model

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestSetTime(t *testing.T) {
	var m Message
	m.SetTime("2025-01-02T03:04:05.678Z")
	if !m.HasTime || m.Time != 1735787045678 {
		t.Errorf("SetTime: %v %v", m.Time, m.HasTime)
	}
	m = Message{}
	m.SetTime("not a time")
	if m.HasTime || m.Time != 0 {
		t.Errorf("SetTime of no time: %v %v", m.Time, m.HasTime)
	}
}

func TestCreatedFrom(t *testing.T) {
	if got := (SessionInfo{}).CreatedFrom("2025-01-02T03:04:05.678Z").Created; got != 1735787045678 {
		t.Errorf("opened by its path: %v", got)
	}
	if got := (SessionInfo{}).CreatedFrom("nope").Created; !math.IsNaN(got) {
		t.Errorf("a time that does not read: %v, want NaN", got)
	}
	if got := (SessionInfo{Created: 5}).CreatedFrom("2025-01-02T03:04:05.678Z").Created; got != 5 {
		t.Errorf("the list record's time is kept: %v", got)
	}
}

// Walk begins and ends each entry in the order given, with its time: the
// active time is between entries in that order, not the file's.
func TestByTimeWalk(t *testing.T) {
	ts := []string{"2025-01-01T00:00:10Z", "2025-01-01T00:00:00Z", "2025-01-01T00:00:05Z", "no time"}
	times, order := ByTime(len(ts), func(i int) string { return ts[i] })
	if !slices.Equal(order, []int{1, 2, 0, 3}) || !math.IsNaN(times[3]) || times[1] != 1735689600000 {
		t.Fatalf("ByTime: %v %v", times, order)
	}
	st := NewStatsTally()
	var seen []int
	st.Walk(times, order, func(i int, d *Totals) {
		seen = append(seen, i)
		d.AddMessage(RoleUser)
	})
	if !slices.Equal(seen, order) {
		t.Errorf("walked %v, want %v", seen, order)
	}
	if st.Totals.Messages != 4 {
		t.Errorf("messages %d, want 4: each entry's totals are ended", st.Totals.Messages)
	}
	if st.First != times[1] || st.Last != times[0] {
		t.Errorf("first %v last %v", st.First, st.Last)
	}
	if st.Totals.Active != 10*time.Second {
		t.Errorf("active %v, want 10s", st.Totals.Active)
	}
}
