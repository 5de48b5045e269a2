package jscan

import (
	"bytes"
	"iter"
	"strconv"
	"unsafe"
)

// String is a JSON string's value, copied out of raw: for what may
// outlive the bytes it was read from. false for anything but a string.
func String(raw []byte) (string, bool) {
	if !IsString(raw) {
		return "", false
	}
	return Unquote(raw)
}

// StringShared is a JSON string's value, sharing raw's memory when it has
// no escapes (and is ASCII, so valid and its own value). That is safe only
// when raw belongs to a buffer on the Go heap (the collector keeps it while
// the string lives) that is never written after it is read: never a
// mapped file. Each caller says why its bytes are such a buffer.
func StringShared(raw []byte) (string, bool) {
	if !IsString(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if !Plain(body) {
		return Unquote(raw)
	}
	if len(body) == 0 {
		return "", true
	}
	return unsafe.String(&body[0], len(body)), true
}

// Number is a JSON number's value as strconv reads it: false for anything
// that does not start as a number, or that strconv refuses (an overflow).
func Number(raw []byte) (float64, bool) {
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// Malformed is what a reader of JSON lines says of a line that does not
// parse: the error, and whether the line is the file's last, which its
// writer may not have finished.
func Malformed(err error, last bool) string {
	if last {
		return "malformed JSON (partial last line): " + err.Error()
	}
	return "malformed JSON: " + err.Error()
}

// TrimBlank trims the blanks a JSON line may have around it that are not
// line ends: spaces, tabs, carriage returns, form feeds, vertical tabs.
func TrimBlank(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// ObjectMember is the member key of v when v is an object (valid JSON, as
// Member needs), nil when v is anything else or has no such member: for a
// value read from a record whose shape the format does not promise.
func ObjectMember(v []byte, key string) []byte {
	if len(v) == 0 || v[0] != '{' {
		return nil
	}
	return Member(v, key)
}

// StringMember is v's member key as a string (see ObjectMember), "" when
// v is no object, has no such member, or it is no string.
func StringMember(v []byte, key string) string {
	s, _ := String(ObjectMember(v, key))
	return s
}

// Lines are the lines of data, a JSON Lines file, that hold something:
// each with its number (the first is 1, blank ones counted) and less its
// blanks (TrimBlank). The last need not end in a line end.
func Lines(data []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		for no := 1; len(data) > 0; no++ {
			line := data
			if k := bytes.IndexByte(data, '\n'); k >= 0 {
				line, data = data[:k], data[k+1:]
			} else {
				data = nil
			}
			if line = TrimBlank(line); len(line) > 0 && !yield(no, line) {
				return
			}
		}
	}
}
