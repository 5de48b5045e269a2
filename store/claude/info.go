package claude

import (
	"path/filepath"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// IDOf is the id a REF names the session of the file at path by: its first
// sessionId, else the file's name without .jsonl. A sub-agent's log read
// alone is named by its file (agent-<agentId>): its sessionId is the
// session that started it, whose id it must not take.
func (s *Session) IDOf(path string) string {
	base := filepath.Base(path)
	if id := s.SessionID(); id != "" && !IsAgentFileName(base) {
		return id
	}
	return strings.TrimSuffix(base, ".jsonl")
}

// Info is the session's record in the list. path is the file's; mtimeMs
// its modification time, the last resort for Modified. Every string is a
// copy: the record never keeps the file's memory.
//
//   - ID: IDOf: the first sessionId of the session's file, else the file
//     name without .jsonl; a sub-agent's log read alone, its file name.
//   - Cwd: the first cwd of the session's file (where the session started;
//     its project folder is named after it).
//   - Name: Name().
//   - Created, Modified: the earliest and the latest timestamp of the
//     session's file (NaN, and mtimeMs, when none can be read).
//   - MessageCount: the messages of every branch and every sub-agent, as
//     the stats count them (a reply split over lines is one; each tool
//     result is one).
//   - FirstMessage: the text of the first user message of the main
//     conversation that the user typed: not a tool result, a meta line
//     (isMeta), a compact summary, a slash command or its output, or the
//     "[Request interrupted by user…]" line Claude Code writes on Esc;
//     when there is none, the first slash command as typed ("/init");
//     "(no messages)" when there is not even one.
//   - Entries: Len(); Branches: the tips of the main conversation (tips).
//   - Model: the model of the last reply on the path to the leaf that
//     names one, else of the last reply of the file.
//   - ParentSession: for a fork (--fork-session), its source's file beside
//     it, named by ForkOf.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.IDOf(path), Cwd: s.Cwd(), Name: s.Name(),
		Entries: len(s.Entries), Branches: s.tips()}
	if src := s.ForkOf(); src != "" {
		info.ParentSession, info.HasParent = filepath.Join(filepath.Dir(path), src+".jsonl"), true
	}
	var span model.TimeSpan
	// Claude Code's timestamps (toISOString's 2026-03-01T10:00:00.000Z)
	// sort as strings: only the first and last of them need reading.
	lo, hi := "", ""
	for i := range s.lines {
		l := &s.lines[i]
		if l.file != 0 || l.ts == "" {
			continue
		}
		if ts := l.ts; len(ts) == 24 && ts[10] == 'T' && ts[23] == 'Z' && ts[0] >= '0' && ts[0] <= '9' {
			if lo == "" || ts < lo {
				lo = ts
			}
			if ts > hi {
				hi = ts
			}
			continue
		}
		span.Add(jsdate.Parse(l.ts))
	}
	for _, ts := range []string{lo, hi} {
		if ts != "" {
			span.Add(jsdate.Parse(ts))
		}
	}
	span.Set(&info, mtimeMs)
	first, command := "", ""
	for k := range s.Entries {
		e := &s.Entries[k]
		if e.kind != model.EntryMessage {
			continue
		}
		info.MessageCount++
		if e.Agent >= 0 {
			continue
		}
		if e.role == model.RoleUser && first == "" && !e.meta {
			msg := s.Message(model.ContextMessage{Entry: k})
			text := strings.TrimSpace(msg.Text(" "))
			if c := commandText(text); c != "" {
				if command == "" {
					command = c
				}
				continue
			}
			if text != "" && !commandOutput(text) && !strings.HasPrefix(text, "[Request interrupted by user") {
				first = text
			}
		}
	}
	switch {
	case first != "":
		info.FirstMessage = first
	case command != "":
		info.FirstMessage = command
	default:
		info.FirstMessage = model.NoMessages
	}
	var ref *model.ModelRef
	if s.leaf >= 0 {
		ref = s.modelRef(s.conversation(s.Path(s.leaf), s.leaf))
	}
	for k := len(s.Entries) - 1; k >= 0 && ref == nil; k-- {
		if e := &s.Entries[k]; e.role == model.RoleAssistant && e.Agent < 0 {
			ref = s.modelRef([]int{k})
		}
	}
	if ref != nil {
		info.Model = jsonString(ref.ModelID)
	}
	return info
}

// ForkOf is the id of the session a fork was made from, "" when the
// session is none: Claude Code's --fork-session copies its source's
// conversation into a new file, and the copied lines keep the source's id
// as requestSessionId (testdata/agentgen/claude, finding 8). An id that
// could not be a file's name beside the fork's is none.
func (s *Session) ForkOf() string {
	for i := range s.lines {
		l := &s.lines[i]
		if l.file != 0 || !l.has(flagCopied) {
			continue
		}
		id, _ := jscan.String(jscan.Member(l.raw, "requestSessionId"))
		if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`) {
			return ""
		}
		return id
	}
	return ""
}

// commandOutput reports whether a user message's text is what Claude Code
// writes around a local command, not what the user typed.
func commandOutput(text string) bool {
	for _, p := range []string{"<local-command-", "<command-", "<bash-stdout>", "<bash-stderr>", "Caveat: The messages below were generated by the user while running local commands"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

func jsonString(raw []byte) string {
	t, _ := jscan.String(raw)
	return t
}
