package codex

import (
	"math"
	"path/filepath"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list. path is the file's; mtimeMs
// its modification time, the last resort for Modified.
//
//   - ID: session_meta's id, else the uuid at the end of the file's name
//     (rollout-<time>-<uuid>.jsonl), else the name without .jsonl.
//   - Cwd: session_meta's cwd, else the first turn context's.
//   - Name: the last thread_name_updated event's name ("" for none).
//   - Created: session_meta's timestamp, else its line's, else the first
//     line's time that reads.
//   - Modified: the latest message line's time, else the latest line's,
//     else mtimeMs.
//   - MessageCount: the message entries (each response item Codex records
//     is one: a reasoning, a call and its output are three).
//   - FirstMessage: the first user message that is not one Codex injects
//     (the AGENTS.md instructions, the environment context, ...), its
//     text blocks joined by " "; "(no messages)" when there is none.
//   - Entries: every line read; Branches: the tips of the tree (a
//     rollback leaves one behind).
//   - Model: the last turn context's model.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.Meta.ID, Cwd: s.cwd(), Name: s.title,
		Entries: len(s.Entries), Branches: s.Tips()}
	if info.ID == "" {
		info.ID = idFromName(filepath.Base(path))
	}
	info.Created = jsdate.Parse(s.Meta.Timestamp)
	if math.IsNaN(info.Created) {
		info.Created = jsdate.Parse(s.metaTime)
	}
	modified, anyTime := math.Inf(-1), math.Inf(-1)
	first, haveFirst := "", false
	for i := range s.Entries {
		e := &s.Entries[i]
		t := jsdate.Parse(e.Timestamp)
		if math.IsNaN(info.Created) && !math.IsNaN(t) {
			info.Created = t
		}
		if t > anyTime {
			anyTime = t
		}
		if e.kind != model.EntryMessage {
			continue
		}
		info.MessageCount++
		if t > modified {
			modified = t
		}
		if !haveFirst && e.role == model.RoleUser && e.ItemType == "message" {
			blocks := blocksOf(jscan.ObjectMember(e.Payload, "content"))
			if contextual(blocks) {
				continue
			}
			msg := model.Message{Blocks: blocks}
			first = msg.Text(" ")
			haveFirst = first != "" && !hasSummaryPrefix(first)
		}
	}
	info.FirstMessage = first
	if !haveFirst {
		info.FirstMessage = model.NoMessages
	}
	switch {
	case !math.IsInf(modified, -1):
	case !math.IsInf(anyTime, -1):
		modified = anyTime
	default:
		modified = mtimeMs
	}
	info.Modified = modified
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if s.Entries[i].Type == TypeTurnContext {
			info.Model = s.tcModel[int32(i)]
			break
		}
	}
	return info
}

// idFromName is the session id in a rollout's file name: the 36
// characters of its uuid before ".jsonl", else the name without .jsonl.
func idFromName(name string) string {
	name = strings.TrimSuffix(name, ".jsonl")
	if len(name) >= 36 {
		if id := name[len(name)-36:]; isUUID(id) {
			return id
		}
	}
	return name
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// IsRolloutFileName reports whether Codex lists a file of this name as a
// session (rollout/list.rs: rollout-*.jsonl).
func IsRolloutFileName(name string) bool {
	return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
}
