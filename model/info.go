package model

import (
	"strconv"

	"skein/internal/jsdate"
	"skein/internal/jsjson"
)

// SessionInfo is a session's record in the list: what every format tells
// of a session without opening it whole (for a pi file, what pi's
// SessionManager.list gives, and the TUI's extras).
type SessionInfo struct {
	Path string
	// Format names the session's format ("pi"); "" is pi's.
	Format string
	ID     string
	// IDJSON is the header's id as JSON when it is not a string (pi 1.6.0
	// lists such a file, with that id, or none: nil then means absent).
	IDJSON        []byte
	NoStringID    bool
	Cwd           string
	Name          string // "" when none or cleared
	ParentSession string
	HasParent     bool
	Created       float64 // ms, NaN when the header timestamp is invalid
	Modified      float64 // ms
	MessageCount  int
	FirstMessage  string
	// Extras for the TUI: entries, branches (1 plus the entries not
	// appended after their parent), the latest model.
	Entries  int
	Branches int
	Model    string
	// ImportedFrom is the format of the session skein imported this one
	// from ("codex"), "" for none.
	ImportedFrom string
}

// AppendJSON appends the record as `skein session list --json` prints it:
// {path, format, id, cwd, name, parentSession, created, modified,
// messageCount, firstMessage}, times as ISO 8601 UTC, absent values null.
func (info *SessionInfo) AppendJSON(dst []byte) []byte {
	str := func(dst []byte, s string, ok bool) []byte {
		if !ok {
			return append(dst, "null"...)
		}
		return jsjson.AppendString(dst, s)
	}
	iso := func(dst []byte, ms float64) []byte {
		s, ok := jsdate.ISO(ms)
		return str(dst, s, ok)
	}
	dst = append(dst, `{"path":`...)
	dst = jsjson.AppendString(dst, info.Path)
	format := info.Format
	if format == "" {
		format = "pi"
	}
	dst = append(dst, `,"format":`...)
	dst = jsjson.AppendString(dst, format)
	dst = append(dst, `,"id":`...)
	switch {
	case !info.NoStringID:
		dst = jsjson.AppendString(dst, info.ID)
	case info.IDJSON != nil:
		dst = append(dst, info.IDJSON...)
	default:
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"cwd":`...)
	dst = jsjson.AppendString(dst, info.Cwd)
	dst = append(dst, `,"name":`...)
	dst = str(dst, info.Name, info.Name != "")
	dst = append(dst, `,"parentSession":`...)
	dst = str(dst, info.ParentSession, info.HasParent)
	dst = append(dst, `,"created":`...)
	dst = iso(dst, info.Created)
	dst = append(dst, `,"modified":`...)
	dst = iso(dst, info.Modified)
	dst = append(dst, `,"messageCount":`...)
	dst = strconv.AppendInt(dst, int64(info.MessageCount), 10)
	dst = append(dst, `,"firstMessage":`...)
	dst = jsjson.AppendString(dst, info.FirstMessage)
	return append(dst, '}')
}
