package search

import (
	"bytes"
	"hash/crc32"

	"skein/model"
)

// A search in one open session (the TUI's /) looks for texts anywhere in
// a message, inside words and across them, as strings.Contains finds them
// in the folded text; reading every message of a 100 MB session for that
// takes seconds. When the index holds the session's file as it is, it
// tells without reading them which messages cannot hold the texts, and,
// for a text that is one word's run of letters, which do.

// Has is what the index knows of whether an entry's message holds every
// text.
type Has uint8

const (
	// Unknown: the index does not hold this entry's message (no message,
	// another record, an id twice): read it.
	Unknown Has = iota
	// No: the message lacks one of the texts.
	No
	// Maybe: the message holds every text's words: read it to be sure.
	Maybe
	// Yes: the message holds every text.
	Yes
)

// InSession is, for each entry of sess (the session at path, as the TUI
// opened it), what the index knows of whether its message (EntryMessage's
// SearchText, folded as Fold folds it) holds every one of texts (folded).
// ok is false when the index does not hold the file as it is now (its
// state's Check), or found itself damaged there: nothing is known then.
//
// An entry's message is the index's when the index holds a message of the
// entry's id whose record has the same checksum: the same bytes, so the
// same text. Every other entry is Unknown.
func (x *Index) InSession(path string, sess *model.Session, texts []string) (has []Has, ok bool) {
	x.mu.Lock()
	e := x.entries[path]
	var parts []ref
	if e != nil {
		parts = append(parts, e.parts...)
	}
	x.mu.Unlock()
	if e == nil {
		return nil, false
	}
	if _, same := e.state.Check(path); !same {
		return nil, false
	}
	// The runs of word characters in the texts: a message that holds a
	// text holds each of its runs inside one of its words (the index's
	// words are the runs of the same folded text). A text that is a single
	// run is held exactly where a word holds it.
	var runs [][]byte
	exact := true
	for _, t := range texts {
		n := 0
		eachTerm(t, nil, func(term []byte) {
			runs = append(runs, append([]byte(nil), term...))
			n++
			exact = exact && n == 1 && string(term) == t
		})
		exact = exact && n == 1
	}
	// Per entry id, what its message is in the index.
	type doc struct {
		crc uint32
		has Has
	}
	docs := map[string]doc{}
	twice := map[string]bool{}
	for _, r := range parts {
		b, d, err := x.blobOf(r)
		if err != nil {
			x.damage(path)
			return nil, false
		}
		all := b.allOf(d.containingAll(runs))
		if all == nil {
			x.damage(path)
			return nil, false
		}
		for k := range b.nDocs {
			_, _, crc, ok1 := b.info(k)
			_, id, ok2 := b.roleID(k)
			if !ok1 || !ok2 {
				x.damage(path)
				return nil, false
			}
			h := No
			if all[k] {
				h = Maybe
				if exact {
					h = Yes
				}
			}
			if _, seen := docs[id]; seen {
				twice[id] = true
			}
			docs[id] = doc{crc, h}
		}
	}
	has = make([]Has, sess.Len())
	for i := range has {
		en := sess.Entry(i)
		switch en.Kind {
		case model.EntryMessage, model.EntryCustomMessage, model.EntryBranchSummary, model.EntryCompaction:
		default:
			continue
		}
		dc, found := docs[en.ID]
		if !found || en.ID == "" || twice[en.ID] || crc32.Checksum(sess.Raw(i), castagnoli) != dc.crc {
			continue
		}
		has[i] = dc.has
	}
	return has, true
}

// containingAll is, for each of subs, the ordinals of the words that hold
// it, ascending: containing for many, the dictionary read once.
func (d *dict) containingAll(subs [][]byte) [][]uint32 {
	out := make([][]uint32, len(subs))
	if len(subs) == 0 {
		return out
	}
	for bi := range len(d.blocks) / 4 {
		d.eachIn(bi, func(o int, t []byte) bool {
			if len(t) == 0 || t[0] == 0 {
				return true
			}
			for k, sub := range subs {
				if bytes.Contains(t, sub) {
					out[k] = append(out[k], uint32(o))
				}
			}
			return true
		})
	}
	return out
}
