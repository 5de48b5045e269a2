package codex

import (
	"bytes"
	"path/filepath"

	"skein/internal/readfile"
	"skein/store"
)

// SessionsDir is where Codex keeps its rollouts: $CODEX_HOME/sessions,
// else ~/.codex/sessions (core/src/config: codex_home, rollout/mod.rs
// SESSIONS_SUBDIR); getenv reads the environment, home is the user's home.
// The rollouts are in YYYY/MM/DD folders under it.
func SessionsDir(getenv func(string) string, home string) string {
	return store.EnvDir(getenv, nil, "CODEX_HOME", filepath.Join(home, ".codex"), "sessions")
}

// Open reads the rollout at path whole (a regular file: a FIFO would
// block, a device never end) into a buffer of its own and parses it.
func Open(path string) (*Session, error) {
	s, err := readfile.Parse(path, Parse)
	if err == nil {
		s.path = path
	}
	return s, err
}

// forkDepth bounds the chain of sources a fork's history is read from.
const forkDepth = 16

// forkItems is, for a fork that copies nothing of its source (0.171.0's
// forked_from_ordinal_exclusive), the items Codex's history of it starts
// with: the source's lines below that ordinal, rebuilt as a resume of the
// source cut there would be (a source that is a fork itself starts with
// its own source's, and its lines' ordinals count on from there). The
// source is the rollout named by forked_from_id beside the fork, or
// elsewhere in the sessions folder; none when it is not found. Only a
// context's JSON needs it, so that opening a fork reads one file.
func (s *Session) forkItems(depth int) [][]byte {
	s.forkOnce.Do(func() {
		m := s.Meta
		if m.ForkedFromOrdinal < 0 || s.path == "" || !isUUID(m.ForkedFromID) || depth >= forkDepth {
			return
		}
		src := findRollout(filepath.Dir(s.path), m.ForkedFromID)
		if src == "" {
			return
		}
		data, err := readfile.Regular(src)
		if err != nil {
			return
		}
		// The source's own fork ordinal is in its session_meta, its first
		// line: read that alone, not the whole rollout.
		head := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			head = data[:k+1]
		}
		first, err := Parse(head)
		if err != nil {
			return
		}
		cut := 0
		for n := m.ForkedFromOrdinal - max(first.Meta.ForkedFromOrdinal, 0); n > 0 && cut < len(data); n-- {
			k := bytes.IndexByte(data[cut:], '\n')
			if k < 0 {
				cut = len(data)
				break
			}
			cut += k + 1
		}
		from, err := Parse(data[:cut:cut])
		if err != nil {
			return
		}
		from.path = src
		from.historyItems(from.BuildContext(from.Leaf()), depth+1, func(item []byte) {
			s.fork = append(s.fork, item)
		})
	})
	return s.fork
}

// findRollout is the path of session id's rollout: in dir, else in the
// sessions folder whose YYYY/MM/DD folder dir is; "" when none.
func findRollout(dir, id string) string {
	for _, pattern := range []string{
		filepath.Join(dir, "rollout-*"+id+".jsonl"),
		filepath.Join(dir, "..", "..", "..", "*", "*", "*", "rollout-*"+id+".jsonl"),
	} {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return m[0]
		}
	}
	return ""
}
