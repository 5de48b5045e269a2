package model

import (
	"math"

	"skein/internal/jsdate"
)

// Every format records an entry's time as a timestamp string that
// JavaScript's Date.parse reads (jsdate); these read it once for all of
// them.

// SetTime gives the message the time its entry's timestamp says, when the
// timestamp reads as one; otherwise the message keeps no time.
func (m *Message) SetTime(timestamp string) {
	if t := jsdate.Parse(timestamp); !math.IsNaN(t) {
		m.Time, m.HasTime = t, true
	}
}

// CreatedFrom is info with the creation time timestamp says when info has
// none: a session opened by its path has no list record, and is created
// when its file says (NaN for a time that does not read, as the list has
// it).
func (info SessionInfo) CreatedFrom(timestamp string) SessionInfo {
	if info.Created == 0 {
		info.Created = jsdate.Parse(timestamp)
	}
	return info
}
