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
	key := keysOf([]string{path})[0] // the index is keyed by the real path
	x.mu.Lock()
	e := x.entries[key]
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
	// Each message of the index on the entry of its id, when that entry is
	// a message whose record has the same checksum. An entry two messages
	// name is left Unknown.
	has = make([]Has, sess.Len())
	named := make([]uint8, sess.Len()) // how many messages name it, at most 2
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
			i, found := sess.Index(id)
			if !found || id == "" || !isDoc(sess.Entry(i).Kind) {
				continue
			}
			if named[i]++; named[i] > 1 {
				named[i], has[i] = 2, Unknown
				continue
			}
			if crc32.Checksum(sess.Raw(i), castagnoli) != crc {
				continue
			}
			switch {
			case !all[k]:
				has[i] = No
			case exact:
				has[i] = Yes
			default:
				has[i] = Maybe
			}
		}
	}
	return has, true
}

// isDoc reports whether entries of the kind are the index's messages
// (eachDoc's).
func isDoc(k model.EntryKind) bool {
	switch k {
	case model.EntryMessage, model.EntryCustomMessage, model.EntryBranchSummary, model.EntryCompaction:
		return true
	}
	return false
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
