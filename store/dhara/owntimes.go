package dhara

import (
	"math"
	"time"

	"skein/internal/jsdate"
)

// updatedAt is when the session was last written to, as the session says:
// its latest entry's time, else its list record's modified time, else its
// creation, else now. The json export said the time of the export, so
// that two exports of one session disagreed and neither told when the
// session was used.
func (b *builder) updatedAt(now time.Time) string {
	latest := math.Inf(-1)
	for k := range b.lines {
		if t := jsdate.Parse(b.lines[k].ts); t > latest {
			latest = t
		}
	}
	for _, t := range []float64{b.s.Info.Modified, b.s.Info.Created} {
		if !math.IsInf(latest, -1) {
			break
		}
		if t != 0 && !math.IsNaN(t) {
			latest = t
		}
	}
	if ts, ok := jsdate.ISO(latest); ok {
		return ts
	}
	return isoMs(now)
}

// keepActive makes the first branch (the path the source resumes at) the
// active one in Dhara's reading (DECISIONS.md 6: the latest activity, a
// tie to the later branch) when it is dated by the session's own time
// rather than by now: a branch whose last entry is as late as the
// session's latest would win the tie.
func (b *builder) keepActive(tb treeBranches, created string) {
	if len(tb.list) < 2 {
		return
	}
	main := jsdate.Parse(created)
	if math.IsNaN(main) {
		return
	}
	later := main
	for _, br := range tb.list[1:] {
		at := jsdate.Parse(br.created)
		if n := len(br.ids); n > 0 {
			at = max(at, jsdate.Parse(b.lines[br.ids[n-1]].ts))
		}
		if at >= later {
			later = at + 1
		}
	}
	if later != main {
		tb.list[0].created, _ = jsdate.ISO(later)
	}
}
