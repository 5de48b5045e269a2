package kimicli

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"skein/internal/readfile"
	"skein/store"
)

// FormatKimiCLI is the format's name in the list and the indexes.
const FormatKimiCLI store.Format = Format

// backend is the legacy Kimi CLI's wire files for the store, read-only:
// the CLI appends to them while it runs, without a lock; a write imports
// the session first (store/convert reads it).
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:  FormatKimiCLI,
		Words: store.Wording{Agent: "Kimi CLI (legacy)", Kind: "a legacy Kimi CLI session", Folders: "~/.kimi/sessions, or $KIMI_SHARE_DIR/sessions"},
		// A wire file in the CLI's folder, or a part of a session's
		// folder (below), which is then the CLI's, not pi's.
		ClaimsPath: func(path string) bool { return IsWirePath(path) || isPart(path) },
		// Its metadata line, or a {timestamp, message} record.
		DetectLine: func(line []byte, _ bool) bool { return IsRecord(line) },
		RootsOf:    store.RootFrom(SessionsDir),
		ResumeCmd:  resume,
		// The context the CLI resumes from (context.jsonl, and the
		// context_<n>.jsonl a /undo or compaction rotates out) and a
		// sub-agent's wire and context (subagents/<id>/) belong to the
		// session whose wire is in their folder: not sessions of their own.
		PartNamed:  isPartName,
		Part:       isPart,
		PartReason: "a legacy Kimi CLI session's context or sub-agent file, beside its wire",
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: func(_ *Session, path string) string { return sessionOf(path) }},
}

func init() { store.Register(backend) }

// resume is Resume: kimi --session <uuid> (-S, -r) goes on with a session
// of the folder it runs in, which the TUI runs it in.
func resume(path string) (string, []string) {
	return "kimi", []string{"--session", sessionOf(path)}
}

// SessionsDir is where the legacy CLI keeps its sessions:
// $KIMI_SHARE_DIR/sessions, else ~/.kimi/sessions (share.py).
func SessionsDir(getenv func(string) string, home string, expand func(string) string) string {
	return store.EnvDir(getenv, expand, "KIMI_SHARE_DIR", filepath.Join(home, ".kimi"), "sessions")
}

// Open reads the wire file at path whole; the session's cwd comes from
// kimi.json in the share folder (sessions/..), whose work_dirs name the
// folders whose md5 the session's parent folder is named after.
func Open(path string) (*Session, error) {
	data, err := readfile.Regular(path)
	if err != nil {
		return nil, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.ID = sessionOf(path)
	s.cwd = workDir(path)
	return s, nil
}

// sessionOf is the session's id: its folder's name.
func sessionOf(path string) string { return filepath.Base(filepath.Dir(path)) }

// workDir is the cwd of the session at path, "" when kimi.json does not
// name it. A folder on a remote KAOS is named <kaos>_<md5>.
func workDir(path string) string {
	hash := filepath.Base(filepath.Dir(filepath.Dir(path)))
	share := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(path))))
	data, err := readfile.Regular(filepath.Join(share, "kimi.json"))
	if err != nil {
		return ""
	}
	var meta struct {
		WorkDirs []struct{ Path, Kaos string } `json:"work_dirs"`
	}
	if json.Unmarshal(data, &meta) != nil {
		return ""
	}
	for _, wd := range meta.WorkDirs {
		sum := md5.Sum([]byte(wd.Path))
		name := hex.EncodeToString(sum[:])
		if wd.Kaos != "" && wd.Kaos != "local" {
			name = wd.Kaos + "_" + name
		}
		if name == hash {
			return wd.Path
		}
	}
	return ""
}

// isPartName: context.jsonl, context_<n>.jsonl, wire.jsonl (a
// sub-agent's).
func isPartName(base string) bool {
	if base == "context.jsonl" || base == "wire.jsonl" {
		return true
	}
	n, ok := strings.CutPrefix(base, "context_")
	n, ok2 := strings.CutSuffix(n, ".jsonl")
	return ok && ok2 && n != "" && strings.Trim(n, "0123456789") == ""
}

// isPart reports whether the file at path is a part of a session: a
// context file beside a session's wire, or a file of a sub-agent's
// folder (<session>/subagents/<id>/) whose session's wire is there.
func isPart(path string) bool {
	base, dir := filepath.Base(path), filepath.Dir(path)
	if !isPartName(base) {
		return false
	}
	if base != "wire.jsonl" {
		if w := filepath.Join(dir, "wire.jsonl"); IsWirePath(w) && store.IsRegularFile(w) {
			return true
		}
	}
	if filepath.Base(filepath.Dir(dir)) != "subagents" {
		return false
	}
	w := filepath.Join(filepath.Dir(filepath.Dir(dir)), "wire.jsonl")
	return IsWirePath(w) && store.IsRegularFile(w)
}

// IsWirePath reports whether path is where the legacy CLI writes a
// session's wire: .../sessions/<md5>/<uuid>/wire.jsonl (a subagents/
// folder's wires are a sub-agent's, not a session's).
func IsWirePath(path string) bool {
	path = filepath.Clean(path)
	if filepath.Base(path) != "wire.jsonl" {
		return false
	}
	hash := filepath.Dir(filepath.Dir(path))
	return filepath.Base(filepath.Dir(hash)) == "sessions" && isHash(filepath.Base(hash))
}

// isHash: 32 hex digits, after a KAOS name and "_" for a remote one.
func isHash(name string) bool {
	name = name[strings.LastIndexByte(name, '_')+1:]
	if len(name) != 32 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil
}
