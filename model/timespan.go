package model

import "math"

// A TimeSpan gathers the times a session's records carry, for its list
// record's Created and Modified. The zero TimeSpan holds none.
type TimeSpan struct {
	first, last float64
	any         bool
}

// Add counts t, a time in ms; NaN (a time that did not read) is not one.
func (s *TimeSpan) Add(t float64) {
	if t != t {
		return
	}
	if !s.any {
		s.first, s.last, s.any = t, t, true
		return
	}
	s.first, s.last = min(s.first, t), max(s.last, t)
}

// Set sets info's Created and Modified to the first and the latest time
// added; when there is none (or only +Inf), Created is NaN and Modified
// mtimeMs, the file's modification time.
func (s TimeSpan) Set(info *SessionInfo, mtimeMs float64) {
	info.Created, info.Modified = math.NaN(), mtimeMs
	if s.any && !math.IsInf(s.first, 1) {
		info.Created, info.Modified = s.first, s.last
	}
}
