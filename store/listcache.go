package store

import (
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// listOne is a session's list record: through the index when there is one.
// The backend is the one the kept state names (found by content when the
// file was read last), else the one that claims the path (an agent's own
// folder, a Dhara folder), else pi's. When that backend reads the file and says
// it is not its session, the file's first lines say what it is
// (detectFile), and that format's backend lists it: its state is kept
// tagged with the format, so that the next list goes to it at once.
func listOne(path string, buf []byte) ([]byte, Info, error) {
	c := currentCache()
	var prev []byte
	if c != nil {
		prev = c.get(path)
	}
	b, kept, tagged := Backend(nil), prev, false
	if f, rest, ok := untag(prev); ok {
		b, kept, tagged = ForFormat(f), rest, true
	} else if b = claimedByPath(path); b == nil {
		_, b = registered()
	}
	buf, info, state, err := listBy(b, c != nil, path, kept, buf)
	var ns *NotSession
	if errors.As(err, &ns) && !sameBytesAt(state, kept) {
		// Read, and not b's: what is it? (A state given back as it was
		// kept says the file is as it was when this was asked last.)
		if d := detectFile(path); d != nil && d.Format() != b.Format() {
			b, tagged = d, true
			buf, info, state, err = listBy(b, c != nil, path, nil, buf)
		}
	}
	if c != nil && state != nil {
		switch {
		case tagged && sameBytesAt(state, kept):
			state = prev // as it was kept, tag and all
		case tagged:
			state = tag(b.Format(), state)
		}
		c.put(path, state)
	}
	return buf, info, err
}

// sameBytesAt reports whether a and b are the same memory (a state given
// back as it was kept).
func sameBytesAt(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

// listBy lists the file at path with b: through the index's state when
// there is an index (cached), else read.
func listBy(b Backend, cached bool, path string, state, buf []byte) ([]byte, Info, []byte, error) {
	if !cached {
		buf, info, err := listInfo(b, path, buf)
		return buf, info, nil, err
	}
	if c, ok := b.(ListCacher); ok {
		return c.ListCached(path, state, buf)
	}
	return listByStamp(b, path, state, buf)
}

// formatTag starts a kept state whose format was found by the file's
// content: the format's name follows (a byte of its length), then the
// backend's own state. No backend's state starts with it (pi's starts with
// stateVersion, Dhara's and the read-only formats' with stampStateVersion).
const formatTag = 'F'

func tag(f Format, state []byte) []byte {
	out := make([]byte, 0, 2+len(f)+len(state))
	out = append(out, formatTag, byte(len(f)))
	out = append(out, f...)
	return append(out, state...)
}

// untag splits a tagged state into its format and the backend's state.
func untag(state []byte) (Format, []byte, bool) {
	if len(state) < 2 || state[0] != formatTag || int(state[1]) > len(state)-2 {
		return "", nil, false
	}
	n := int(state[1])
	return Format(state[2 : 2+n]), state[2+n:], true
}

// fullReads counts the files read whole for the list (the tests' way to
// see that the index spared the others).
var fullReads, partReads atomic.Int64

// ListReads is how many files the list read whole and in part (grown,
// read from where the index stopped) since the program started.
func ListReads() (whole, part int64) { return fullReads.Load(), partReads.Load() }

// CountRead counts a file a ListCacher read for the list: whole, or in
// part (ListReads).
func CountRead(whole bool) {
	if whole {
		fullReads.Add(1)
	} else {
		partReads.Add(1)
	}
}

// Cached is the records the index holds for the files under roots, as
// they were when indexed: what the list shows at once while it checks
// them. Nil without an index.
func Cached(roots []string) []Info {
	c := currentCache()
	if c == nil {
		return nil
	}
	type kept struct {
		path  string
		state []byte
	}
	clean := make([]string, len(roots))
	for i, r := range roots {
		clean[i] = filepath.Clean(r)
	}
	c.mu.Lock()
	entries := make([]kept, 0, len(c.entries))
	for p, st := range c.entries {
		if under(p, clean) {
			entries = append(entries, kept{p, st})
		}
	}
	c.mu.Unlock()
	out := make([]Info, 0, len(entries))
	for _, e := range entries {
		b, state := Backend(nil), e.state
		if f, rest, ok := untag(state); ok {
			b, state = ForFormat(f), rest
		} else if b = claimedByPath(e.path); b == nil {
			_, b = registered()
		}
		if info, ok := cachedInfo(b, e.path, state); ok {
			out = append(out, info)
		}
	}
	return out
}

// under reports whether path is one of roots (cleaned) or in one of them.
func under(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || len(path) > len(r) && path[len(r)] == filepath.Separator && strings.HasPrefix(path, r) {
			return true
		}
	}
	return false
}
