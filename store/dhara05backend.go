package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store/dhara05"
)

// FormatDhara05 is the real Dhara agent's one-file sessions (0.5), which
// sit in the same folder as the seed's session folders. Dhara rewrites the
// whole file on every save, without a lock: skein only reads them.
const FormatDhara05 Format = dhara05.Format

var dhara05Backend = readOnly{
	format: FormatDhara05,
	agent:  "Dhara",
	// A .jsonl file right in a Dhara sessions folder (~/.dhara/sessions or
	// $DHARA_HOME/sessions): pi keeps its files a level down, in a folder
	// per project.
	claims: func(path string) bool {
		if !strings.HasSuffix(path, ".jsonl") {
			return false
		}
		dir := filepath.Dir(path)
		if filepath.Base(dir) != "sessions" {
			return false
		}
		if filepath.Base(filepath.Dir(dir)) == ".dhara" {
			return true
		}
		home := os.Getenv("DHARA_HOME")
		if home == "" {
			return false
		}
		e := OSEnv()
		e.DharaHome = home
		return filepath.Clean(e.DharaSessionRoot()) == filepath.Clean(dir)
	},
	open: func(path string) (*model.Session, error) {
		s, err := dhara05.Open(path)
		if err != nil {
			if errors.Is(err, dhara05.ErrNotSession) {
				return nil, &NotSession{Reason: err.Error()}
			}
			return nil, err
		}
		return s.Domain(model.SessionInfo{Path: path, Format: string(FormatDhara05)}), nil
	},
	info: func(s *model.Session, path string, mtime float64) Info { return dhara05.Of(s).Info(path, mtime) },
	listable: func(path string) error {
		if !dhara05.IsSessionFileName(filepath.Base(path)) {
			return &PartOfSession{Reason: "a temporary file Dhara writes while it saves"}
		}
		return nil
	},
	// Dhara's --resume loads <sessionId>.jsonl from its folder.
	resume: func(path string) (string, []string) {
		return "dhara", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	},
	id: func(s *model.Session, path string) string {
		if id := dhara05.Of(s).Meta.SessionID; id != "" {
			return id
		}
		return strings.TrimSuffix(filepath.Base(path), ".jsonl")
	},
}

// statStamp is one file's stats for the list's state: size, mtime, inode,
// status-change time, device; settled when that change is older than the slack.
func statStamp(path string) ([]int64, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return []int64{-1, 0, 0, 0, 0}, true
	}
	in, ok := changeTime(st)
	settled := ok && timeNowNs()-in.CtimeNs > ctimeSlack
	return []int64{st.Size(), st.ModTime().UnixNano(), int64(in.Ino), in.CtimeNs, int64(in.Dev)}, settled
}
