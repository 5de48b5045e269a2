package cursor

import (
	"math"
	"path/filepath"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// A Cursor Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.IDOf(info.Path) }, func() string { return "" }))
}

// Of returns the Cursor session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Len() int { return len(s.Entries) }

// Leaf is the session's last entry (its sub-agents' are not on its path).
func (s *Session) Leaf() int { return s.leaf }

// Entry is the entry in the domain's terms.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	out := model.Entry{Kind: e.kind, Type: e.typ, Role: e.msg.Role, ID: e.id, Line: e.Line}
	if e.kind != model.EntryMessage {
		out.Role = ""
	}
	if e.time == e.time {
		out.Timestamp, _ = jsdate.ISO(e.time)
	}
	if p := e.parent; p >= 0 {
		out.ParentID = s.Entries[p].id
	}
	return out
}

// Parent is the entry before it in its file; a sub-agent's first entry's
// is the call that started it.
func (s *Session) Parent(i int) int { return s.Entries[i].parent }

// Raw is the record the entry came from.
func (s *Session) Raw(i int) []byte { return s.Entries[i].Raw }

// Message is the entry's message.
func (s *Session) Message(m model.ContextMessage) model.Message {
	msg := s.Entries[m.Entry].msg
	msg.Blocks = append([]model.Block(nil), msg.Blocks...)
	return msg
}

// Problems are the lines that could not be read.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// BranchEnds: the session's leaf and each sub-agent's last entry.
func (s *Session) BranchEnds() []int {
	var out []int
	for i := range s.Entries {
		if i+1 == len(s.Entries) || s.Entries[i+1].File != s.Entries[i].File {
			out = append(out, i)
		}
	}
	return out
}

// BuildContext is the messages on the path from the first entry to leaf.
// Cursor keeps what it resumes with on its servers and in its own store,
// not in the transcript: this is the conversation as the transcript has
// it, which no resume request of Cursor's has been checked against.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := model.StartContext(leaf, len(s.Entries), s.Parent)
	if !ok {
		return ctx
	}
	ctx.OnePerEntry(ctx.Path, func(i int) model.EntryKind { return s.Entries[i].kind }, false)
	return ctx
}

// IDOf is the session's id: its file's name less .jsonl (Cursor names a
// transcript by its conversation's id).
func (s *Session) IDOf(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// Info is the session's record in the list: its id, its first request,
// the messages of its own file, its times from the <timestamp> tags of its
// requests (the file's time when none reads), cwd the project folder
// cwd names (resolved by the caller: Cursor writes none).
func (s *Session) Info(path string, mtimeMs float64, cwd string) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.IDOf(path), Cwd: cwd, Entries: len(s.Entries), Branches: 1}
	created, modified := math.Inf(1), math.Inf(-1)
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.File != 0 {
			continue
		}
		if e.time == e.time {
			created, modified = min(created, e.time), max(modified, e.time)
		}
		if e.kind != model.EntryMessage {
			continue
		}
		info.MessageCount++
		if info.FirstMessage == "" && e.msg.Role == model.RoleUser {
			info.FirstMessage = strings.TrimSpace(e.msg.Text(" "))
		}
	}
	if info.FirstMessage == "" {
		info.FirstMessage = model.NoMessages
	}
	info.Created, info.Modified = math.NaN(), mtimeMs
	if !math.IsInf(created, 1) {
		info.Created, info.Modified = created, max(modified, mtimeMs)
	}
	return info
}
