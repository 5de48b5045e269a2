// Package openclaw is OpenClaw's sessions for the store. OpenClaw's agents
// run on pi's SDK and write pi's own session files, one per session, in
// <state dir>/agents/<agent id>/sessions/: pi's reader reads them (through
// the registry: store.Alias), and this package says only what is
// OpenClaw's: its folders, its name in the list, its resume command.
package openclaw

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// Format is the name of OpenClaw's records in the list and the indexes.
const Format store.Format = "openclaw"

// backend reads OpenClaw's sessions read-only: OpenClaw's gateway appends
// to them while it runs, without a lock skein shares. A write imports the
// session first (into a copy skein writes).
var backend = &store.Alias{Of: store.FormatPi, ReadOnly: store.ReadOnly{
	Name: Format,
	Words: store.Wording{Agent: "OpenClaw", Kind: "an OpenClaw session (pi's format)",
		Folders: "~/.openclaw/agents/*/sessions, or $OPENCLAW_STATE_DIR/agents/*/sessions"},
	// A transcript in an agent's sessions folder:
	// .../agents/<agent id>/sessions/<session id>[-topic-<thread>].jsonl.
	ClaimsPath: IsTranscriptPath,
	// The agents' folder under the state folder: each agent's sessions/
	// is in it.
	RootsOf: store.RootFrom(func(getenv func(string) string, home string, expand func(string) string) string {
		return filepath.Join(StateDir(getenv, home, expand), "agents")
	}),
	ResumeCmd: resume,
}}

func init() { store.Register(backend) }

// StateDir is OpenClaw's state folder (resolveStateDir): $OPENCLAW_STATE_DIR,
// else ~/.openclaw. The legacy folders (~/.clawdbot, ~/.moltbot) it still
// reads when they exist are not looked in.
func StateDir(getenv func(string) string, home string, expand func(string) string) string {
	return store.EnvDir(getenv, expand, "OPENCLAW_STATE_DIR", filepath.Join(home, ".openclaw"))
}

// IsTranscriptPath reports whether path is where OpenClaw keeps a
// session's transcript: a .jsonl file in agents/<id>/sessions/.
func IsTranscriptPath(path string) bool {
	path = filepath.ToSlash(path)
	dir, base := filepath.Dir(path), filepath.Base(path)
	if !strings.HasSuffix(base, ".jsonl") || strings.HasPrefix(base, ".") || filepath.Base(dir) != "sessions" {
		return false
	}
	agents := filepath.Dir(filepath.Dir(dir))
	return filepath.Base(agents) == "agents" && filepath.Base(filepath.Dir(dir)) != ""
}

// resume opens the session in OpenClaw's terminal UI by its session key
// (`openclaw tui --session <key>`): the key is what sessions.json, beside
// the transcript, maps to the session's id; a transcript no key names is
// resumed by its file's id, which OpenClaw takes as a key of its own.
func resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if k := keyOf(path, id); k != "" {
		return "openclaw", []string{"tui", "--session", k}
	}
	return "openclaw", []string{"tui", "--session", id}
}

// keyOf is the session key sessions.json (the agent's session store)
// gives the transcript at path, whose file names the session id: the key
// whose sessionFile is the transcript, else whose sessionId is id; ""
// when none does or the store cannot be read.
func keyOf(path, id string) string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "sessions.json"))
	if err != nil || len(data) > 64<<20 {
		return ""
	}
	var st map[string]struct {
		SessionID   string `json:"sessionId"`
		SessionFile string `json:"sessionFile"`
	}
	if json.Unmarshal(data, &st) != nil {
		return ""
	}
	best := ""
	for k, v := range st {
		switch {
		case v.SessionFile != "" && filepath.Base(v.SessionFile) == filepath.Base(path):
			return k
		case v.SessionID == id && (best == "" || k < best):
			best = k
		}
	}
	return best
}
