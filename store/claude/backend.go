package claude

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// backend is Claude Code's project logs for the store, read-only: Claude
// Code appends to them while it runs, without a lock. Each log is read
// whole (Open, ListInfo); its session's id is its sessionId, else its name.
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:       store.FormatClaude,
		Words:      store.Wording{Agent: "Claude Code", Kind: "a Claude Code log", Folders: "~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects"},
		ClaimsPath: claims,
		DetectLine: detect,
		RootsOf:    func(e store.Env) []string { return []string{projects(e)} },
		ResumeCmd: func(path string) (string, []string) {
			return "claude", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
		},
		// A sub-agent's file belongs to the session whose call started it,
		// and is shown with it when that session is there; alone, it is a
		// session of its own (read alone, as Open reads it).
		PartNamed: IsAgentFileName,
		Part: func(path string) bool {
			return IsAgentFileName(filepath.Base(path)) && parentThere(path)
		},
		PartReason:   "a Claude Code sub-agent's log, shown with its session",
		CompanionsOf: companionFiles,
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf},
}

func init() { store.Register(backend) }

// claims is Claims: a .jsonl file in Claude Code's folder of project logs.
func claims(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	root := projects(store.OSEnv())
	return strings.HasPrefix(filepath.Clean(path), filepath.Clean(root)+string(filepath.Separator)) ||
		strings.Contains(filepath.ToSlash(path), "/.claude/projects/")
}

// detect is Detect: every record of a log but a file-history snapshot has a
// uuid or a sessionId; an old log may start with a summary. A record with a
// provenance or a systemPayload is Qwen Code's (store/qwen), whose chats
// are linked by uuid too.
func detect(line []byte, _ bool) bool {
	m := store.Members(line, "type", "uuid", "sessionId", "provenance", "systemPayload")
	if m[3].Present || m[4].Present {
		return false
	}
	return m[1].Present || m[2].Present || m[0].Value == "summary"
}

// projects is where Claude Code keeps its logs (Roots):
// $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects.
func projects(e store.Env) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(e.Expand(d, e.WorkingDirPath), "projects")
	}
	return filepath.Join(e.Home, ".claude", "projects")
}

// parentThere reports whether the session a sub-agent's log at path
// belongs to is there to show it: <session>.jsonl beside the folder
// <session>/subagents/ that holds it (Claude Code 2.1, a few levels deep),
// or, for a log in the project folder itself (2.0), the file named by the
// sessionId of its first lines, beside it. AgentPaths finds the logs of a
// session the same two ways.
func parentThere(path string) bool {
	dir := filepath.Dir(path)
	for d, depth := dir, 0; depth <= 4; d, depth = filepath.Dir(d), depth+1 {
		if filepath.Base(d) == "subagents" {
			if store.IsRegularFile(filepath.Dir(d) + ".jsonl") {
				return true
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	head, _ := readHead(path, HeadSize) // nil when it cannot be opened
	id := SessionIDOf(head)
	return id != "" && !strings.ContainsAny(id, `/\`) && store.IsRegularFile(filepath.Join(dir, id+".jsonl"))
}

// companionFiles are what a memo of the session at path stamps beside its
// log (store.Companions): the folder <session>/subagents/ and what is in
// it, a few levels deep (Claude Code 2.1 writes its sub-agents' logs and
// their .meta.json there), so that a sub-agent's log that grew, or a new
// one, makes the session read again. The logs of Claude Code 2.0, beside
// the session in its project folder, are found by their first lines, which
// this does not read: such a log that changes while its session's own log
// does not is seen once the session's log moves (a sub-agent's result is
// written to it when the agent ends).
func companionFiles(path string) []string {
	if IsAgentFileName(filepath.Base(path)) {
		return nil
	}
	sub := filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents")
	out := []string{sub}
	walkSubagents(sub, func(p string, _ fs.DirEntry) { out = append(out, p) })
	return out
}
