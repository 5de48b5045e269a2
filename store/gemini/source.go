package gemini

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// A Gemini Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.Meta.SessionID }, s.Cwd))
}

// Of returns the Gemini session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Len() int  { return len(s.Entries) }
func (s *Session) Leaf() int { return s.leaf }

// Parent is the entry made before it, or, after a rewind, the last
// message the rewind left.
func (s *Session) Parent(i int) int { return int(s.Entries[i].parent) }

// Raw is the last line that wrote the entry's message, or the entry's
// line; nil for a message only a $set of messages wrote.
func (s *Session) Raw(i int) []byte { return s.Entries[i].raw }

// Problems are what reading found.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Name is the session's summary, "" for none.
func (s *Session) Name() string { return s.Meta.Summary }

// Entry is entry i in the domain's terms.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	out := model.Entry{Kind: e.kind, Type: e.typ, Role: e.role, ID: s.entryID(i), Line: e.line}
	if e.msg >= 0 {
		out.Timestamp = s.msgs[e.msg].Timestamp
	}
	if e.parent >= 0 {
		out.ParentID = s.entryID(int(e.parent))
	}
	return out
}

// entryID is a message's id ("#k" added for all but the last of a
// message's function responses), or "L<line>" for another entry.
func (s *Session) entryID(i int) string {
	e := &s.Entries[i]
	if e.id != "" {
		return e.id
	}
	return "L" + strconv.Itoa(e.line) + "." + strconv.Itoa(i)
}

// Index finds an entry by its id.
func (s *Session) Index(id string) (int, bool) {
	for i := range s.Entries {
		if s.entryID(i) == id {
			return i, true
		}
	}
	return 0, false
}

// Message is entry i's message, normalized: a user's text, one function
// response of a user's message as a tool result, a model's turn (its
// thoughts, text and calls), an info, error or warning as a custom
// message, a compaction's summary.
func (s *Session) Message(m model.ContextMessage) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	var msg model.Message
	if e.kind == model.EntryCompaction {
		msg.Role = model.RoleCompactionSummary
		msg.Summary = s.summaryOf(m.Entry)
		return msg
	}
	if e.msg < 0 {
		msg.Role, msg.CustomType, msg.Hidden = model.RoleCustom, "line", true
		msg.Blocks = []model.Block{{Type: model.BlockOther, Name: "line", Text: string(e.raw)}}
		return msg
	}
	r := &s.msgs[e.msg]
	msg.SetTime(r.Timestamp)
	msg.Role = e.role
	ps := parts(r.Content)
	switch {
	case e.role == model.RoleToolResult:
		rs := responses(r.Content)
		if int(e.part) < len(rs) {
			fr := rs[e.part]
			msg.ToolCallID, msg.ToolName = fr.ID, fr.Name
			text, isErr := responseText(fr.Response)
			msg.Blocks = []model.Block{{Type: model.BlockText, Name: "output", Text: text}}
			msg.IsError = isErr || s.callFailed(fr.ID)
		}
	case r.Type == "gemini":
		msg.Model, msg.Provider = r.Model, "google"
		if t := r.Tokens; t != nil {
			msg.Usage = &model.Usage{Input: max(t.Input-t.Cached, 0), CacheRead: t.Cached, Output: t.Output + t.Thoughts, Reasoning: t.Thoughts, Total: t.Total}
		}
		msg.Blocks = modelBlocks(r, ps)
	case r.Type == "user":
		msg.Blocks = textBlocks(ps)
		trimmed := strings.TrimSpace(partsString(ps))
		msg.Injected = strings.HasPrefix(trimmed, "<session_context>") || strings.HasPrefix(trimmed, "<hook_context>")
	default:
		msg.Role, msg.CustomType = model.RoleCustom, r.Type
		msg.Blocks = textBlocks(ps)
		if r.Type == "error" {
			msg.Error = partsString(ps)
		}
	}
	return msg
}

// callFailed reports whether the call a result answers was recorded with
// the status "error".
func (s *Session) callFailed(id string) bool {
	for k := range s.msgs {
		for _, tc := range s.msgs[k].ToolCalls {
			if tc.ID == id {
				return tc.Status == "error"
			}
		}
	}
	return false
}

// modelBlocks are a model turn's thoughts, text and calls: the thought
// and call parts of its content when it has them (a $set of messages
// writes them there), else its thoughts, text and toolCalls.
func modelBlocks(r *message, ps []part) []model.Block {
	var out []model.Block
	hasThought, hasCall := false, false
	for _, p := range ps {
		hasThought = hasThought || p.Thought
		hasCall = hasCall || p.FunctionCall != nil
	}
	if !hasThought {
		for _, t := range r.Thoughts {
			out = append(out, model.Block{Type: model.BlockThinking, Text: thoughtText(t)})
		}
	}
	for _, p := range ps {
		switch {
		case p.Thought && p.Text != nil:
			out = append(out, model.Block{Type: model.BlockThinking, Text: *p.Text})
		case p.FunctionCall != nil:
			out = append(out, callBlock(p.FunctionCall.ID, p.FunctionCall.Name, p.FunctionCall.Args))
		case p.Text != nil && *p.Text != "":
			out = append(out, model.Block{Type: model.BlockText, Name: "text", Text: *p.Text})
		case p.InlineData != nil:
			out = append(out, model.Block{Type: model.BlockImage, Name: "inlineData"})
		}
	}
	if !hasCall {
		for _, tc := range r.ToolCalls {
			out = append(out, callBlock(tc.ID, tc.Name, tc.Args))
		}
	}
	return out
}

func callBlock(id, name string, args json.RawMessage) model.Block {
	input := []byte(args)
	if len(input) == 0 || input[0] != '{' {
		input = []byte("{}")
	}
	return model.Block{Type: model.BlockToolCall, Name: "functionCall", Call: model.ToolCall{ID: id, Name: name, Input: input}}
}

func thoughtText(t thought) string {
	if t.Subject != "" {
		return "**" + t.Subject + "** " + t.Description
	}
	return t.Description
}

func textBlocks(ps []part) []model.Block {
	var out []model.Block
	for _, p := range ps {
		switch {
		case p.Text != nil:
			out = append(out, model.Block{Type: model.BlockText, Name: "text", Text: *p.Text})
		case p.InlineData != nil:
			out = append(out, model.Block{Type: model.BlockImage, Name: "inlineData"})
		case p.FunctionCall != nil:
			out = append(out, callBlock(p.FunctionCall.ID, p.FunctionCall.Name, p.FunctionCall.Args))
		case p.FunctionResponse != nil:
			t, _ := responseText(p.FunctionResponse.Response)
			out = append(out, model.Block{Type: model.BlockText, Name: "functionResponse", Text: t})
		}
	}
	return out
}

// responseText is a function response's output, or its error (true).
func responseText(resp json.RawMessage) (string, bool) {
	var r map[string]json.RawMessage
	if json.Unmarshal(resp, &r) != nil {
		return string(resp), false
	}
	str := func(k string) (string, bool) {
		var t string
		v, ok := r[k]
		if !ok {
			return "", false
		}
		if json.Unmarshal(v, &t) != nil {
			return string(v), true
		}
		return t, true
	}
	if t, ok := str("error"); ok {
		return t, true
	}
	if t, ok := str("output"); ok {
		return t, false
	}
	return string(resp), false
}

// partsString is partListUnionToString's verbose text of parts.
func partsString(ps []part) string {
	var b strings.Builder
	for _, p := range ps {
		switch {
		case p.Thought:
			b.WriteString("[Thought: true]")
		case p.FunctionCall != nil:
			b.WriteString("[Function Call: " + p.FunctionCall.Name + "]")
		case p.FunctionResponse != nil:
			b.WriteString("[Function Response: " + p.FunctionResponse.Name + "]")
		case p.InlineData != nil:
			b.WriteString("[Media]")
		case p.Text != nil:
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

// summaryOf is a compaction's summary: the text of the first message the
// compression brought (its <state_snapshot>).
func (s *Session) summaryOf(i int) string {
	for j := i + 1; j < len(s.Entries); j++ {
		e := &s.Entries[j]
		if e.msg >= 0 && e.line == s.Entries[i].line && s.msgs[e.msg].Type == "user" {
			return partsString(parts(s.msgs[e.msg].Content))
		}
		if e.line != s.Entries[i].line {
			break
		}
	}
	return ""
}

// Detail says what an info, error or warning is.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	if e.msg >= 0 && e.role == model.RoleCustom {
		return model.Detail{CustomType: e.typ}
	}
	return model.Detail{}
}

// Cwd is the project's folder: the .project_root Gemini CLI writes beside
// chats/, else the session's first workspace directory.
func (s *Session) Cwd() string {
	if s.projectRoot != "" {
		return s.projectRoot
	}
	if len(s.Meta.Directories) > 0 {
		return s.Meta.Directories[0]
	}
	return ""
}

// Info is the session's list record.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.Meta.SessionID, Cwd: s.Cwd(), Name: s.Meta.Summary,
		Entries: len(s.Entries), Branches: s.tips()}
	if info.ID == "" {
		info.ID = strings.TrimSuffix(strings.TrimSuffix(baseName(path), ".jsonl"), ".json")
	}
	if s.Meta.Kind == "subagent" && s.parentID != "" {
		info.ParentSession, info.HasParent = s.parentID, true
	}
	info.Created = jsdate.Parse(s.firstStart)
	modified := jsdate.Parse(s.Meta.LastUpdated)
	first := ""
	for _, k := range s.conv {
		r := &s.msgs[k]
		if t := jsdate.Parse(r.Timestamp); !(modified >= t) {
			modified = t
		}
		if math.IsNaN(info.Created) {
			info.Created = jsdate.Parse(r.Timestamp)
		}
		if r.Type == "gemini" && r.Model != "" {
			info.Model = r.Model
		}
		if r.Type != "user" && r.Type != "gemini" {
			continue
		}
		info.MessageCount++
		if first == "" && r.Type == "user" && responses(r.Content) == nil {
			t := strings.TrimSpace(partsString(parts(r.Content)))
			if !ignored(t) {
				first = t
			}
		}
	}
	if math.IsNaN(modified) {
		modified = mtimeMs
	}
	info.Modified = modified
	info.SetFirstMessage(first)
	return info
}

func baseName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// ignored is isIgnoredUserContent: what Gemini CLI leaves out of a
// resumed history, and does not take for the session's first prompt.
func ignored(trimmed string) bool {
	return trimmed == "" || strings.HasPrefix(trimmed, "/") || strings.HasPrefix(trimmed, "?") ||
		strings.HasPrefix(trimmed, "<session_context>") || strings.HasPrefix(trimmed, "<hook_context>")
}

// tips counts the branch ends: 1 plus each entry that is not its
// parent's first child.
func (s *Session) tips() int {
	if len(s.Entries) == 0 {
		return 0
	}
	seen := map[int32]bool{}
	n := 0
	for i := range s.Entries {
		p := s.Entries[i].parent
		if p < 0 && i == 0 {
			continue
		}
		if seen[p] {
			n++
		}
		seen[p] = true
	}
	return 1 + n
}

// Resumable reports whether the file holds a conversation Gemini CLI
// resumes: a user's prompt or a model's turn, not only its context (a
// resume run in another minute leaves a file of only that).
func (s *Session) Resumable() bool {
	for _, k := range s.conv {
		r := &s.msgs[k]
		switch r.Type {
		case "user":
			if !ignored(strings.TrimSpace(partsString(parts(r.Content)))) {
				return true
			}
		case "gemini":
			if len(r.ToolCalls) > 0 || len(r.Thoughts) > 0 || strings.TrimSpace(partsString(parts(r.Content))) != "" {
				return true
			}
		}
	}
	return false
}
