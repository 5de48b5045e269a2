package chatgpt

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"skein/internal/jscan"
)

// The export is validated once, conversation by conversation, with jscan;
// its parts are then read without decoding what is not needed. A value of
// the wrong type is treated as absent by these helpers, and the callers
// decide whether something was lost. Strings are decoded as Node decodes
// them (ill-formed UTF-8 as U+FFFD), as pi reads its own files.

// stringOf returns a JSON string's value; ok is false for anything else.
func stringOf(raw json.RawMessage) (string, bool) {
	if !jscan.IsString(raw) {
		return "", false
	}
	return jscan.Unquote(raw)
}

// str is stringOf without the flag.
func str(raw json.RawMessage) string {
	s, _ := stringOf(raw)
	return s
}

// objectOf returns a valid JSON object's members (the last of a repeated
// name, as JSON.parse keeps), or nil for anything else.
func objectOf(raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	m := map[string]json.RawMessage{}
	jscan.Fields(raw, func(k, v []byte) bool {
		m[jscan.Key(k)] = v
		return true
	})
	return m
}

// arrayOf returns a valid JSON array's elements, or nil for anything else.
func arrayOf(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var a []json.RawMessage
	jscan.Elements(raw, func(v []byte) bool {
		a = append(a, v)
		return true
	})
	return a
}

// isArray reports whether raw is a JSON array.
func isArray(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '[' }

// isTrue reports whether raw is the literal true.
func isTrue(raw json.RawMessage) bool { return string(raw) == "true" }

// nonEmpty reports whether raw holds something: not absent, null, false,
// "", [] or {}.
func nonEmpty(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0, string(raw) == "null", string(raw) == "false", string(raw) == `""`:
		return false
	case raw[0] == '[' || raw[0] == '{':
		return len(bytes.TrimSpace(raw[1:len(raw)-1])) > 0
	}
	return true
}

// maxSeconds is the last second of the year 9999: later times (and times
// before 1970) are taken for no time, as ISO 8601's four-digit years and
// JavaScript's Date could not hold them alike.
const maxSeconds = 253402300799

// millis reads a time: seconds since the epoch as a number (what the export
// writes) or a numeric string, or an RFC 3339 string; ok is false for
// anything else or a time out of range.
func millis(raw json.RawMessage) (ms int64, ok bool) {
	text := string(raw)
	if s, isStr := stringOf(raw); isStr {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			if t.Year() < 1970 || t.Year() > 9999 {
				return 0, false
			}
			return t.UnixMilli(), true
		}
		text = s
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > maxSeconds {
		return 0, false
	}
	return int64(math.Round(f * 1000)), true
}

// iso formats a time in ms as pi writes an entry's timestamp.
func iso(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}
