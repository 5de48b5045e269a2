// Package workflow holds the actions that write sessions (fork, compact,
// label, rename, delete), each once, with its guards, for the command line
// and the TUI alike: an action does the same checks whichever asks for it,
// starting with whether the session's format supports it.
package workflow

import (
	"fmt"

	"skein/model"
	"skein/store"
	"skein/summarize"
)

// Forked is a fork written.
type Forked struct {
	store.Forked
	// Message is the text of the user message a fork made before one ends
	// before (as pi's /fork puts it back in the editor); "" otherwise.
	Message string
}

// Fork writes a new session beside the one at path holding the path from
// the root to entry at, or, with before, to the entry before the user
// message at (pi's /fork). It refuses (a *store.RefusedError) a before that is
// not a user message, or that nothing comes before.
func Fork(path string, s *model.Session, at int, before bool) (Forked, error) {
	var f Forked
	if err := store.CheckAction(path, store.ActFork); err != nil {
		return f, err
	}
	if before {
		e := s.Entry(at)
		if !e.IsMessage(model.RoleUser) {
			return f, &store.RefusedError{Reason: fmt.Sprintf("a fork before an entry needs a user message; %s is a %s", e.ID, Describe(e))}
		}
		msg := s.EntryMessage(at)
		f.Message = msg.Text("\n")
		if at = s.Parent(at); at < 0 {
			return f, &store.RefusedError{Reason: fmt.Sprintf("nothing comes before %s: it is the first entry", e.ID)}
		}
	}
	fork, err := store.Fork(path, s, at)
	if err != nil {
		return f, fmt.Errorf("fork %s: %w", path, err)
	}
	f.Forked = fork
	return f, nil
}

// Describe names what an entry is, for messages: "user message",
// "compaction entry".
func Describe(e model.Entry) string {
	if e.Kind == model.EntryMessage {
		return e.Role + " message"
	}
	return e.Type + " entry"
}

// Compact appends the compaction of plan p (made on s, read from path) with
// its summary and what the summary cost (usage, nil for an extractive one),
// and returns the new entry's id. The file may have grown while the summary
// was made: the compaction still goes after the entry it was planned at,
// which must be in the file; and when that entry was the session's leaf,
// it must still be (an agent that went on writing would otherwise see its
// new turns left on a branch of their own), unless pinned says the entry
// was asked for by name (the command line's --leaf). Refusals are
// *store.RefusedError and write nothing.
func Compact(path string, s *model.Session, p *model.Plan, summary string, usage *model.Usage, pinned bool, opts ...store.WriteOption) (string, error) {
	if err := store.CheckAction(path, store.ActCompact); err != nil {
		return "", err
	}
	entry := summarize.Entry(s, p, summary, usage)
	leafID := s.Entry(p.Leaf).ID
	wasLeaf := p.Leaf == s.Leaf()
	return store.Compact(path, entry, func(now *model.Session) (string, error) {
		if _, ok := now.Index(leafID); !ok {
			return "", &store.RefusedError{Reason: fmt.Sprintf("the entry %s to compact at is gone from the file; nothing was written (%s)", leafID, path)}
		}
		if !pinned && wasLeaf && (now.Leaf() < 0 || now.Entry(now.Leaf()).ID != leafID) {
			return "", &store.RefusedError{Reason: fmt.Sprintf("the session changed while the summary was made (its leaf is no longer %s); nothing was written, compact again (%s)", leafID, path)}
		}
		return leafID, nil
	}, opts...)
}

// Label sets (or, with "", clears) the label of entry id in the session at
// path, and returns the label entry's id. The format refuses a file it will
// not append to (*store.RefusedError).
func Label(path, id, text string, opts ...store.WriteOption) (string, error) {
	if err := store.CheckAction(path, store.ActLabel); err != nil {
		return "", err
	}
	return store.Label(path, id, text, opts...)
}

// Rename names the session at path ("" clears its name).
func Rename(path, name string, opts ...store.WriteOption) (string, error) {
	if err := store.CheckAction(path, store.ActRename); err != nil {
		return "", err
	}
	return store.Rename(path, name, opts...)
}

// Delete moves the session at path to the trash.
func Delete(path string, env store.Env) (store.Trashed, error) {
	if err := store.CheckAction(path, store.ActDelete); err != nil {
		return store.Trashed{}, err
	}
	return store.Trash(path, env)
}
