// Package model is skein's domain: pi session entries, their tree, context
// building, token estimates and compaction planning, all as pi 1.6.0 computes
// them. It does no IO: the store hands it a file's bytes.
package pi

import (
	"unicode/utf8"
	"unsafe"

	"skein/internal/jscan"
	"skein/model"
)

// Entry is one parsed line of a session file. Only what indexing, listing and
// the tree need is decoded; the rest stays in Raw and is decoded when shown.
type Entry struct {
	// The fields the index, the context and its writing read for every entry
	// come first, within one cache line: those passes are bound by memory.

	Type    string // the entry's type, one of the Type constants when pi's
	Message []byte // the raw "message" value of a message entry

	// The ids as numbers when they are pi's eight hex digits, read while the
	// line is in cache, so that indexing never reads the line again.
	idKey, parentKey hexKey

	// Object is false for a line that is valid JSON but not an object: pi keeps
	// such values as entries (without type or id), and so does skein.
	Object bool
	HasID  bool
	// NullContent is set for a message whose content is null or absent: pi
	// 1.6.0 gives the model [] (or "" for a system message) in its place.
	NullContent bool
	// copyable says the message may be written out as it is stored
	// (jsjson.Copyable), decided while the line is parsed, on every core.
	copyable bool
	// MigratedID is set when the v1 migration gave this entry its id and
	// parent: Raw then lacks them.
	MigratedID bool
	// RenamedRole is set when the v2 migration renamed hookMessage to custom.
	RenamedRole bool
	// kind is Type as the domain's kind, found once when the line is read.
	kind model.EntryKind

	Role      string // the message's role, after migration
	ID        string
	ParentID  string // "" when parentId is null, absent or not a string
	Timestamp string // the entry's ISO timestamp
	Line      int    // 1-based line number in the file
	Raw       []byte // the line as stored, without its line ending
}

// hexKey is an id as a number, when it is pi's eight hex digits.
type hexKey struct {
	n   uint32
	hex bool
}

func keyOf(id string) hexKey {
	n, ok := hexID(id)
	return hexKey{n, ok}
}

// setKeys computes the numeric forms of ID and ParentID.
func (e *Entry) setKeys() {
	e.idKey, e.parentKey = keyOf(e.ID), keyOf(e.ParentID)
}

// sameID reports whether the ids a and b, with their keys, are equal,
// reading the strings (and so the lines) only when neither is hex.
func sameID(a string, ak hexKey, b string, bk hexKey) bool {
	if ak.hex || bk.hex {
		return ak == bk
	}
	return a == b
}

// Entry types pi writes.
const (
	TypeSession             = "session"
	TypeMessage             = "message"
	TypeModelChange         = "model_change"
	TypeThinkingLevelChange = "thinking_level_change"
	TypeCompaction          = "compaction"
	TypeBranchSummary       = "branch_summary"
	TypeCustom              = "custom"
	TypeCustomMessage       = "custom_message"
	TypeLabel               = "label"
	TypeSessionInfo         = "session_info"
	TypeUsage               = "usage"        // pi 1.6.0: usage outside the context (cache warming)
	TypeContextEdit         = "context_edit" // pi 1.6.0: a branch-local edit of an earlier entry
)

// Message roles: the domain's names are pi's.
const (
	RoleUser              = model.RoleUser
	RoleAssistant         = model.RoleAssistant
	RoleToolResult        = model.RoleToolResult
	RoleBashExecution     = model.RoleBashExecution
	RoleCustom            = model.RoleCustom
	RoleBranchSummary     = model.RoleBranchSummary
	RoleCompactionSummary = model.RoleCompactionSummary
	RoleSystem            = model.RoleSystem // pi 1.6.0: the system prompt and its patches
)

// intern returns the constant for a type or role pi writes, so that later
// comparisons read static memory instead of the line (for a large file, a
// cache miss an entry), or s itself.
func intern(s string) string {
	switch s {
	case TypeMessage:
		return TypeMessage
	case TypeModelChange:
		return TypeModelChange
	case TypeThinkingLevelChange:
		return TypeThinkingLevelChange
	case TypeCompaction:
		return TypeCompaction
	case TypeBranchSummary:
		return TypeBranchSummary
	case TypeCustom: // also RoleCustom
		return TypeCustom
	case TypeCustomMessage:
		return TypeCustomMessage
	case TypeLabel:
		return TypeLabel
	case TypeSessionInfo:
		return TypeSessionInfo
	case TypeSession:
		return TypeSession
	case TypeUsage:
		return TypeUsage
	case TypeContextEdit:
		return TypeContextEdit
	case RoleSystem:
		return RoleSystem
	case RoleUser:
		return RoleUser
	case RoleAssistant:
		return RoleAssistant
	case RoleToolResult:
		return RoleToolResult
	case RoleBashExecution:
		return RoleBashExecution
	case RoleBranchSummary:
		return RoleBranchSummary
	case RoleCompactionSummary:
		return RoleCompactionSummary
	}
	return s
}

// bstr returns the string value of a raw JSON string literal, sharing memory
// with raw when it has no escapes. That is safe only because raw belongs to
// a buffer on the Go heap (the collector keeps it while the string lives)
// that is never written after it is read: a caller that reuses its buffer,
// or reads mapped memory, must copy what it keeps (store.List does).
func bstr(raw []byte) (string, bool) {
	if !jscan.IsString(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if !jscan.Plain(body) {
		return jscan.Unquote(raw)
	}
	if len(body) == 0 {
		return "", true
	}
	return unsafe.String(&body[0], len(body)), true
}

// ParseEntry parses one line. ok is false when the line is not JSON (pi skips
// it); err then says why.
func ParseEntry(line []byte, lineNo int) (e Entry, err error) {
	err = parseEntryInto(&e, line, lineNo)
	return e, err
}

// parseEntryInto is ParseEntry writing into e, which must be zero.
func parseEntryInto(e *Entry, line []byte, lineNo int) (err error) {
	e.Line = lineNo
	e.Raw = line
	var msg, role, content []byte
	otherEscapes := false
	it := jscan.Object(line)
	for k, v, r, c, ok := it.NextWith2("role", "content"); ok; k, v, r, c, ok = it.NextWith2("role", "content") {
		switch it.Name(k) {
		case "type":
			t, _ := bstr(v)
			e.Type = intern(t)
			e.kind = kinds[e.Type]
		case "id":
			e.ID, e.HasID = bstr(v)
		case "parentId":
			e.ParentID, _ = bstr(v)
		case "timestamp":
			e.Timestamp, _ = bstr(v)
		case "message":
			msg, role, content = v, r, c
			otherEscapes = it.ValueHasOtherEscapes()
		}
	}
	if err = it.Err(); err == jscan.ErrNotObject {
		return nil
	}
	if err != nil {
		return err
	}
	e.Object = true
	e.setKeys()
	if e.Type == TypeMessage && msg != nil {
		e.Message = msg
		r, _ := bstr(role)
		e.Role = intern(r)
		e.NullContent = content == nil || string(content) == "null"
		// jsjson.Copyable, with the escapes already looked at by the walk.
		e.copyable = !otherEscapes && utf8.Valid(msg)
	}
	return nil
}

// Member returns the raw value of the last member named key of the object
// obj (JSON.parse keeps the last of duplicate keys), or nil. obj must be
// valid JSON: a part of a parsed line, or JSON skein built.
func Member(obj []byte, key string) []byte { return jscan.Member(obj, key) }

// Field returns the raw value of a top-level field of the entry, or nil.
func (e *Entry) Field(key string) []byte {
	if !e.Object {
		return nil
	}
	return Member(e.Raw, key)
}

// StringField returns a top-level string field and whether it is a string.
func (e *Entry) StringField(key string) (string, bool) { return bstr(e.Field(key)) }

// MessageField returns the raw value of a member of the entry's message.
func (e *Entry) MessageField(key string) []byte {
	if e.Message == nil {
		return nil
	}
	return Member(e.Message, key)
}

// StringValue returns the value of a raw JSON string and true, or "" and
// false for anything else.
func StringValue(raw []byte) (string, bool) { return bstr(raw) }

// String returns the value of a raw JSON string, or "" for anything else.
func String(raw []byte) string {
	s, _ := bstr(raw)
	return s
}
