package codex

import (
	"fmt"
	"math"
	"strings"

	"skein/internal/jscan"
	"skein/model"
)

// itemKinds are the response items Codex records in its history
// (context_manager/history.rs is_api_message, plus ghost snapshots, which
// it keeps for /undo and drops from every prompt), by their model role.
var itemKinds = map[string]itemKind{
	"message":                 kindMessage,
	"reasoning":               kindAssistant,
	"function_call":           kindAssistant,
	"custom_tool_call":        kindAssistant,
	"local_shell_call":        kindAssistant,
	"web_search_call":         kindAssistant,
	"tool_search_call":        kindAssistant,
	"image_generation_call":   kindAssistant,
	"compaction":              kindAssistant,
	"compaction_summary":      kindAssistant, // serde alias of compaction
	"context_compaction":      kindAssistant,
	"function_call_output":    kindResult,
	"custom_tool_call_output": kindResult,
	"tool_search_output":      kindResult,
	"ghost_snapshot":          kindGhost,
}

type itemKind uint8

const (
	kindNone itemKind = iota
	kindMessage
	kindAssistant
	kindResult
	kindGhost
)

// messageRole is the model's role for a message's role; "" for a role
// skein does not know (kept as data).
func messageRole(role string) string {
	switch role {
	case "user":
		return model.RoleUser
	case "assistant":
		return model.RoleAssistant
	case "developer", "system":
		return model.RoleSystem
	}
	return ""
}

// classify sets an entry's kind, model role and domain type.
func (s *Session) classify(e *Entry, lastModel *string, types map[string]string) {
	e.typ = e.Type
	switch e.Type {
	case TypeSessionMeta:
		e.kind = model.EntryCustom
	case TypeResponseItem:
		e.typ = e.ItemType
		if e.typ == "" {
			e.typ = TypeResponseItem
		}
		switch itemKinds[e.ItemType] {
		case kindMessage:
			if e.role = messageRole(e.Role); e.role != "" {
				e.kind = model.EntryMessage
			}
		case kindAssistant:
			e.kind, e.role = model.EntryMessage, model.RoleAssistant
		case kindResult:
			e.kind, e.role = model.EntryMessage, model.RoleToolResult
		case kindGhost:
			e.kind = model.EntryCustom
		}
	case TypeEventMsg:
		t, ok := types[e.ItemType]
		if !ok {
			t = "event_msg." + e.ItemType
			types[e.ItemType] = t
		}
		e.typ = t
		switch e.ItemType {
		case "token_count":
			e.kind = model.EntryUsage
		case "thread_name_updated":
			e.kind = model.EntryTitle
		default:
			e.kind = model.EntryCustom
			if isFailure(e) {
				e.kind, e.role = model.EntryMessage, model.RoleAssistant
			}
		}
	case TypeTurnContext:
		m, _ := jscan.String(jscan.ObjectMember(e.Payload, "model"))
		if *lastModel == "\x00" || m != *lastModel {
			e.kind = model.EntryModelChange
		} else {
			e.kind = model.EntryCustom
		}
		*lastModel = m
	case TypeCompacted:
		e.kind = model.EntryCompaction
	case TypeTokenUsageRecord:
		e.kind = model.EntryUsage
	case "":
		// An old file's {"record_type":"state"} marker, or a line of no type.
		e.typ, _ = jscan.String(jscan.ObjectMember(e.Payload, "record_type"))
	}
}

// isFailure reports whether an event says a turn failed: an error event
// (the older versions' {"type":"error","message":...}), or a task_complete
// with an error (0.171.0's, which writes no error event: {"error":
// {"message", "codex_error_info"}}). Either is the reply the user got, so
// it is an assistant's message, which Codex does not send back.
func isFailure(e *Entry) bool {
	switch e.ItemType {
	case "error":
		return true
	case "task_complete":
		v := jscan.ObjectMember(e.Payload, "error")
		return len(v) > 0 && v[0] == '{'
	}
	return false
}

// failureText is what a failure event says: an error event's message, a
// task_complete's error's message, as Codex wrote them (a 4xx answer's
// body whole).
func failureText(e *Entry) string {
	v := jscan.ObjectMember(e.Payload, "message")
	if e.ItemType == "task_complete" {
		v = jscan.ObjectMember(jscan.ObjectMember(e.Payload, "error"), "message")
	}
	if t, ok := jscan.String(v); ok && t != "" {
		return t
	}
	return "(error: no message)"
}

// link reads the entries in file order: their kinds, the session meta
// (the first, as Codex's resume takes it), the turn context in force at
// each, the calls by call_id and the outputs that answer them, the title,
// and the tree: each entry's parent is the entry before it, except a
// thread_rolled_back event, whose parent is where the turns it drops began
// (core/src/codex/rollout_reconstruction.rs replays it as
// drop_last_n_user_turns over the history rebuilt so far): the turns after
// that point stay in the file as an abandoned branch.
func (s *Session) link() {
	n := len(s.Entries)
	s.parent = make([]int32, n)
	s.SetParents(s.parent)
	s.inForce = make([]int32, n)
	s.tcModel = map[int32]string{}
	s.calls = map[string]int32{}
	s.usage = map[int32]int32{}
	s.keep = map[int32]int32{}
	s.tokensBefore = map[int32]float64{}
	s.compCache = map[int32][]elem{}
	types := map[string]string{}
	lastModel := "\x00"
	tc := int32(-1)
	lastAssistant := int32(-1) // the last assistant entry since the last token count
	lastTotal, lastContext := math.NaN(), 0.0
	// The history as Codex rebuilds it, replayed as we go: only a rollback
	// needs it.
	var run []elem
	replay := false
	for i := range s.Entries {
		if e := &s.Entries[i]; e.Type == TypeEventMsg && e.ItemType == "thread_rolled_back" {
			replay = true
			break
		}
	}
	hasMeta := false
	nCounts := 0
	for i := range s.Entries {
		e := &s.Entries[i]
		s.classify(e, &lastModel, types)
		s.parent[i] = int32(i - 1)
		switch e.Type {
		case TypeSessionMeta:
			// The first is the session's (get_rollout_history); a fork's
			// file goes on with its parent's lines, session_meta too.
			if !hasMeta {
				hasMeta = true
				s.Meta = parseMeta(e.Payload, e.Line)
				s.metaTime = e.Timestamp
			}
		case TypeTurnContext:
			tc = int32(i)
			s.tcModel[tc] = lastModel
		case TypeEventMsg:
			switch e.ItemType {
			case "token_count":
				c := &s.counts[nCounts] // parseChunk read them, in order
				if c.total.ok[3] && c.total.total != lastTotal {
					lastTotal = c.total.total
					if lastAssistant >= 0 {
						s.usage[lastAssistant] = int32(nCounts)
						lastAssistant = -1
					}
				}
				nCounts++
				if c.last.ok[3] {
					lastContext = c.last.total
				}
			case "thread_name_updated":
				s.title, _ = jscan.String(jscan.ObjectMember(e.Payload, "thread_name"))
			case "thread_rolled_back":
				run = s.rollback(int32(i), run)
			}
		case TypeCompacted:
			s.tokensBefore[int32(i)] = lastContext
		case TypeTokenUsageRecord:
			s.records = true
		}
		if e.kind == model.EntryMessage {
			switch e.ItemType {
			case "function_call", "custom_tool_call", "local_shell_call", "tool_search_call":
				if _, ok := s.calls[e.CallID]; !ok && e.CallID != "" {
					s.calls[e.CallID] = int32(i)
				}
			case "function_call_output", "custom_tool_call_output", "tool_search_output":
				if _, ok := s.calls[e.CallID]; !ok {
					s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: e.Line, Warning: true,
						Msg: fmt.Sprintf("%s for call_id %q, which no call before it has (Codex drops such an output from its prompts)", e.ItemType, e.CallID)})
				}
			}
			if e.role == model.RoleAssistant && e.Type == TypeResponseItem {
				lastAssistant = int32(i)
			}
		}
		s.inForce[i] = tc
		if replay && (e.Type != TypeEventMsg || e.ItemType != "thread_rolled_back") {
			run = s.apply(run, int32(i), false)
		}
	}
	if n > 0 {
		s.leaf = n - 1
		s.parent[0] = -1
	}
	if !hasMeta {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Warning: true,
			Msg: "no session_meta line: the session has no id, cwd or originator of its own"})
	}
}

func parseMeta(p []byte, line int) Meta {
	m := Meta{Raw: p, Line: line, ForkedFromOrdinal: -1}
	if len(p) == 0 || p[0] != '{' {
		return m
	}
	jscan.Strings(p, []string{"id", "timestamp", "cwd", "originator", "cli_version", "source", "model_provider", "forked_from_id"},
		[]*string{&m.ID, &m.Timestamp, &m.Cwd, &m.Originator, &m.CLIVersion, &m.Source, &m.ModelProvider, &m.ForkedFromID}, func(k string, v []byte) {
			switch k {
			case "instructions":
				if t, ok := jscan.String(v); ok {
					m.Instructions = t
				}
			case "base_instructions":
				m.BaseInstructions, _ = jscan.String(jscan.ObjectMember(v, "text"))
				if m.Instructions == "" {
					m.Instructions = m.BaseInstructions
				}
			case "forked_from_ordinal_exclusive":
				if f, ok := jscan.Number(v); ok && f >= 0 && f < 1<<31 && f == math.Trunc(f) {
					m.ForkedFromOrdinal = int(f)
				}
			}
		})
	return m
}

// elem is one item of the history as Codex rebuilds it: a context
// message, and the entry whose replay put it there (a compaction owns
// what it keeps).
type elem struct {
	model.ContextMessage
	owner int32
}

// inHistory reports whether Codex records a response item in the history
// it sends (is_api_message: every message but a system one, reasoning,
// calls, outputs, web searches, compactions; not ghost snapshots, which
// for_prompt drops, nor the items it does not know).
func inHistory(itemType, role string) bool {
	switch itemKinds[itemType] {
	case kindMessage:
		return role != "system" && messageRole(role) != ""
	case kindAssistant, kindResult:
		return true
	}
	return false
}

// apply replays entry i onto the history run, as
// reconstruct_history_from_rollout does: a response item Codex records is
// appended; a compaction replaces the history (compact.rs); a rollback,
// in a replay of a path (along), keeps what link worked out it keeps.
func (s *Session) apply(run []elem, i int32, along bool) []elem {
	e := &s.Entries[i]
	switch e.Type {
	case TypeResponseItem:
		if inHistory(e.ItemType, e.Role) {
			run = append(run, elem{model.ContextMessage{Entry: int(i)}, i})
		}
	case TypeCompacted:
		s.compMu.Lock()
		kept, ok := s.compCache[i]
		if !ok {
			kept = s.compact(run, i)
			s.compCache[i] = kept
		}
		s.compMu.Unlock()
		// A copy: the caller appends to it and cuts it.
		return append(make([]elem, 0, len(kept)+64), kept...)
	case TypeEventMsg:
		if along && e.ItemType == "thread_rolled_back" {
			if k, ok := s.keep[i]; ok && int(k) < len(run) {
				run = run[:k]
			}
		}
	}
	return run
}

// compactUserMessageMaxTokens is how much of the user's messages a
// compaction without a replacement history keeps (compact.rs
// COMPACT_USER_MESSAGE_MAX_TOKENS).
const compactUserMessageMaxTokens = 20_000

// compact is the history after compacted entry i: its replacement_history
// when it has one (every item Codex records, the summary among them as
// the compaction's summary); otherwise what build_compacted_history makes:
// the latest real user messages, up to about 20,000 tokens, then the
// summary as a user message. (Codex puts its initial context, rebuilt from
// its configuration then, before them: skein cannot rebuild it.)
func (s *Session) compact(run []elem, i int32) []elem {
	items, ok := s.replacement(int(i))
	if ok {
		out := make([]elem, 0, len(items))
		summary := s.summaryItem(items)
		for k, it := range items {
			m := model.ContextMessage{Entry: int(i), Content: -int32(k + 1)}
			switch {
			case k == summary:
				m.Kind = model.KindCompactionSummary
			case !inHistory(it.itemType, it.role):
				continue
			}
			out = append(out, elem{m, i})
		}
		return out
	}
	var kept []elem
	remaining := compactUserMessageMaxTokens
	for k := len(run) - 1; k >= 0 && remaining > 0; k-- {
		text, ok := s.userText(run[k].ContextMessage)
		if !ok {
			continue
		}
		kept = append(kept, elem{run[k].ContextMessage, i})
		tokens := (len(text) + 3) / 4
		remaining -= min(tokens, remaining) // the one that overflows is kept (Codex truncates it)
	}
	out := make([]elem, 0, len(kept)+1)
	for k := len(kept) - 1; k >= 0; k-- {
		out = append(out, kept[k])
	}
	return append(out, elem{model.ContextMessage{Entry: int(i), Kind: model.KindCompactionSummary}, i})
}

// rollback replays thread_rolled_back entry r onto the history run (in
// file order): it drops the last num_turns user turns, as
// drop_last_n_user_turns does (a user turn starts at a user message that
// is not one of Codex's contextual ones; a compaction's summary counts; if
// there are fewer, every turn from the first goes), and sets r's parent to
// where the dropped turns began: the entry before the first dropped
// message when that message is an entry's own, else (a message a
// compaction keeps) the compaction, r keeping that many of its messages.
func (s *Session) rollback(r int32, run []elem) []elem {
	e := &s.Entries[r]
	nTurns, ok := number(jscan.ObjectMember(e.Payload, "num_turns"))
	if !ok || nTurns < 1 {
		return run
	}
	var starts []int
	for k := range run {
		if s.turnStart(run[k].ContextMessage) {
			starts = append(starts, k)
		}
	}
	if len(starts) == 0 {
		return run
	}
	cut := starts[0]
	if nTurns < float64(len(starts)) {
		cut = starts[len(starts)-int(nTurns)]
	}
	el := run[cut]
	if el.owner == int32(el.Entry) && el.Content == 0 && el.Kind == model.KindMessage {
		s.parent[r] = s.parent[el.Entry]
	} else {
		s.parent[r] = el.owner
		s.keep[r] = int32(cut)
	}
	return run[:cut]
}

// turnStart reports whether a history message starts a user turn
// (history.rs is_user_turn_boundary: a user message whose content is not
// contextual; a summary is a user message).
func (s *Session) turnStart(m model.ContextMessage) bool {
	if m.Kind == model.KindCompactionSummary {
		return true
	}
	it := s.item(m)
	if it.itemType != "message" || it.role != "user" {
		return false
	}
	return !contextual(blocksOf(jscan.ObjectMember(it.raw, "content")))
}

// userText is a history message's text when it is a real user message
// (compact.rs collect_user_messages: not contextual, not a summary).
func (s *Session) userText(m model.ContextMessage) (string, bool) {
	if m.Kind != model.KindMessage {
		return "", false
	}
	it := s.item(m)
	if it.itemType != "message" || it.role != "user" {
		return "", false
	}
	blocks := blocksOf(jscan.ObjectMember(it.raw, "content"))
	if contextual(blocks) {
		return "", false
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == model.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	text := strings.Join(parts, "\n")
	if rest, ok := cutSummaryPrefix(text); ok && strings.HasPrefix(rest, "\n") {
		return "", false
	}
	return text, true
}

// summaryPrefix starts the summary message of a compaction
// (core/templates/compact/summary_prefix.md).
const summaryPrefix = "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to  assist with your own analysis:"

// contextualPrefixes start the user messages Codex injects rather than the
// user types (contextual_user_message.rs, event_mapping.rs
// is_contextual_user_message_content): the AGENTS.md instructions, the
// environment context, skills, a shell command the user ran, an aborted
// turn's note, a sub-agent's notification; and the older
// <user_instructions>.
var contextualPrefixes = []string{
	"# agents.md instructions for ",
	"<environment_context>",
	"<user_instructions>",
	"<skill>",
	"<user_shell_command>",
	"<turn_aborted>",
	"<subagent_notification>",
}

// contextual reports whether a user message is one Codex injected: one of
// its text blocks starts with a contextual marker (case aside, after
// leading blanks).
func contextual(blocks []model.Block) bool {
	for _, b := range blocks {
		if b.Type != model.BlockText {
			continue
		}
		t := strings.TrimLeft(b.Text, " \t\r\n")
		for _, p := range contextualPrefixes {
			if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
				return true
			}
		}
	}
	return false
}

// injected reports whether entry i is a user message Codex injected
// (contextual): the agent's context, not the user's words.
func (s *Session) injected(i int) bool {
	e := &s.Entries[i]
	return e.ItemType == "message" && e.Role == "user" && contextual(blocksOf(jscan.ObjectMember(e.Payload, "content")))
}

// cutSummaryPrefix is text without Codex's summary prefix, and whether it
// had it: as Codex writes it (with two spaces before "assist"), or with
// one, as tools that copied it write it.
func cutSummaryPrefix(text string) (string, bool) {
	if rest, ok := strings.CutPrefix(text, summaryPrefix); ok {
		return rest, true
	}
	return strings.CutPrefix(text, strings.Replace(summaryPrefix, "to  assist", "to assist", 1))
}

func hasSummaryPrefix(text string) bool { _, ok := cutSummaryPrefix(text); return ok }
