package tui

import (
	"skein/model"
	"skein/search"
)

// The search in a session (/ in the messages or the tree) goes through the
// full-text index when it holds the session's file as it is: the index
// says which messages cannot match, and, for a word, which do, so that
// only the others are read (a 100 MB session took 4 s read whole). The
// matches are the same either way: what the index does not decide is read
// and matched as before.

// inSession is what the index knows of each entry's message for terms
// (nil, false when it does not hold the file as it is, or there is none).
func (t *textIndex) inSession(path string, s *model.Session, terms []string) ([]search.Has, bool) {
	if t == nil || t.dir == "" || s == nil {
		return nil, false
	}
	x := t.index()
	if x == nil {
		return nil, false
	}
	return x.InSession(path, s, terms)
}

// indexFile brings the index up to date with one file, after a search
// read it whole: the next search of it goes through the index. A list
// search under way goes first.
func (t *textIndex) indexFile(path string) {
	if t == nil || t.dir == "" {
		return
	}
	x := t.index()
	if x == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	x.Update([]string{path}, nil)
}

// hasOf is what the index says of entry i (Unknown without one).
func hasOf(has []search.Has, i int) search.Has {
	if i < 0 || i >= len(has) {
		return search.Unknown
	}
	return has[i]
}

// entryContext is the message entry i is as it is stored, as EntryMessage
// makes it and the index reads it: a context message equal to it has the
// index's text; any other (an edited one, a checkpoint) is read.
func entryContext(s *model.Session, i int) model.ContextMessage {
	k := model.KindMessage
	switch s.Entry(i).Kind {
	case model.EntryCompaction:
		k = model.KindCompactionSummary
	case model.EntryBranchSummary:
		k = model.KindBranchSummary
	case model.EntryCustomMessage:
		k = model.KindCustom
	}
	return model.ContextMessage{Entry: i, Kind: k}
}
