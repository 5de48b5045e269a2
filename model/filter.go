package model

import (
	"bytes"
	"io"

	"skein/internal/redact"
)

// TextFilter changes the text a session gives out: String a string,
// JSON a JSON value (a tool's input, a record as stored, a string's
// literal), which it keeps valid JSON. A redactor is one.
type TextFilter interface {
	String(string) string
	Bytes([]byte) []byte
}

// WithText is s, a shallow copy, whose text comes out through f: every
// message (Message, MessageHead, MessageLiteral, EntryMessage), its
// records as stored (Raw), labels, names, details, tree text and its
// Info's strings. It is what session text leaving skein for someone else
// goes through, once, whoever writes it out (the exports, the copy keys,
// the MCP server): a writer reads the filtered session as any other.
//
// The format's own session is hidden from it (SourceOf gives none), so
// that no writer reaches the unfiltered bytes through a shortcut of its
// format's (Dhara's json export copies its own lines).
func (s *Session) WithText(f TextFilter) *Session {
	c := *s
	c.filter = f
	i := &c.Info
	for _, p := range []*string{&i.Path, &i.Cwd, &i.Name, &i.FirstMessage, &i.ParentSession} {
		*p = f.String(*p)
	}
	return &c
}

// Redacted is s with every secret in its text replaced by
// [REDACTED:KIND] (internal/redact says which), and the redactor that
// counts what it replaced: the one call an export, a copy or an answer
// to another program makes before session text leaves skein.
func (s *Session) Redacted() (*Session, *redact.Redactor) {
	r := redact.New()
	return s.WithText(r), r
}

// Filtered reports whether the session's text comes out through a filter.
func (s *Session) Filtered() bool { return s.filter != nil }

// Message is a context message's content, normalized (the source's,
// through the session's filter).
func (s *Session) Message(m ContextMessage) Message {
	msg := s.Source.Message(m)
	if s.filter != nil {
		filterMessage(s.filter, &msg)
	}
	return msg
}

// Raw is the entry as stored (through the session's filter).
func (s *Session) Raw(i int) []byte {
	b := s.Source.Raw(i)
	if s.filter != nil && b != nil {
		b = s.filter.Bytes(b)
	}
	return b
}

func filterMessage(f TextFilter, m *Message) {
	for _, p := range []*string{&m.Error, &m.Command, &m.Output, &m.Summary, &m.ToolName, &m.CustomType} {
		if *p != "" {
			*p = f.String(*p)
		}
	}
	if len(m.Sections) > 0 {
		secs := make([]Section, len(m.Sections))
		for k, sec := range m.Sections {
			sec.Text = f.String(sec.Text)
			secs[k] = sec
		}
		m.Sections = secs
	}
	// The blocks may be the source's own (a cache): copied once one changes.
	copied := false
	for k := range m.Blocks {
		b := m.Blocks[k]
		changed := false
		set := func(p *string) {
			if v := f.String(*p); v != *p {
				*p, changed = v, true
			}
		}
		switch b.Type {
		case BlockText, BlockThinking, BlockOther:
			set(&b.Text)
			if b.TextJSON != nil {
				if v := f.Bytes(b.TextJSON); !bytes.Equal(v, b.TextJSON) {
					b.TextJSON, changed = v, true
				}
			}
		case BlockToolCall:
			set(&b.Call.Name)
			if v := f.Bytes(b.Call.Input); !bytes.Equal(v, b.Call.Input) {
				b.Call.Input, changed = v, true
			}
		}
		if !changed {
			continue
		}
		if !copied {
			m.Blocks = append([]Block(nil), m.Blocks...)
			copied = true
		}
		m.Blocks[k] = b
	}
}

// filterJSON writes what write writes, through the filter.
func (s *Session) filterJSON(w io.Writer, write func(io.Writer) error) error {
	if s.filter == nil {
		return write(w)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	_, err := w.Write(s.filter.Bytes(buf.Bytes()))
	return err
}
