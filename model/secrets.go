package model

import (
	"unicode/utf8"

	"skein/internal/redact"
)

// Secret is a secret found in a session, told without the secret: where
// it is, its kind, its first four characters and its length.
type Secret struct {
	Entry int    // the entry that holds it; -1: the session's own (its folder, its name)
	ID    string // the entry's id
	Line  int    // the entry's line in its file; 0 when none
	Kind  redact.Kind
	Head  string // its first four characters
	Len   int    // its length in characters
}

// Secrets are the secrets the session's text holds (as internal/redact
// finds them), where an export would redact them: its folder and name,
// and each entry's message, label and title.
func (s *Session) Secrets() []Secret {
	var out []Secret
	add := func(i int, text string) {
		for _, m := range redact.Find(text) {
			sec := Secret{Entry: i, Kind: m.Kind, Len: utf8.RuneCountInString(text[m.Start:m.End])}
			sec.Head = firstRunes(text[m.Start:m.End], 4)
			if i >= 0 {
				e := s.Entry(i)
				sec.ID, sec.Line = e.ID, e.Line
			}
			out = append(out, sec)
		}
	}
	add(-1, s.Info.Cwd)
	add(-1, s.Name())
	// A label is told at the entry that sets it; a format that sets none
	// by an entry of its own tells it at the entry it is on.
	labelEntries := false
	for i := range s.Len() {
		e := s.Entry(i)
		switch e.Kind {
		case EntryMessage, EntryCompaction, EntryBranchSummary, EntryCustomMessage:
			msg := s.EntryMessage(i)
			add(i, msg.SearchText())
		case EntryLabel, EntryTitle:
			labelEntries = labelEntries || e.Kind == EntryLabel
			d := s.Detail(i)
			add(i, d.Label+"\n"+d.Title)
		}
	}
	if !labelEntries {
		for i := range s.Len() {
			if l, ok := s.Label(i); ok {
				add(i, l)
			}
		}
	}
	return out
}

// firstRunes is s's first n characters.
func firstRunes(s string, n int) string {
	for k := range s {
		if n == 0 {
			return s[:k]
		}
		n--
	}
	return s
}
