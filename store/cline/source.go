package cline

import (
	"encoding/json"
	"strconv"
	"strings"

	"skein/model"
)

// Entry is one stored message of the session (File 0) or of a sub-agent
// (File k: Agents[k-1]).
type Entry struct {
	Message
	File int
	Raw  []byte
	key  string // the id Index finds it by: its id, unique in the session
	role string
}

// Agent is a sub-agent's messages file, hung under the spawn_agent call
// that started it.
type Agent struct {
	Name, ID string // its file's name, its agent id (origin.subagent)
	Call     int    // the entry holding its call, -1 when none matched
}

// Session is a Cline session read whole: the lead agent's messages, its
// sub-agents', and the manifest's list fields.
type Session struct {
	Entries     []Entry
	Agents      []Agent
	File        File
	Manifest    *Manifest
	Diagnostics []model.Diagnostic
	parents     []int
	leaf        int
	index       map[string]int
	calls       map[string]int // a tool call's id: its entry
}

// A Cline Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Parse reads a messages file alone (no manifest, no sub-agents).
func Parse(data []byte) (*Session, error) {
	f, msgs, diags, err := parseFile(data, "")
	if err != nil {
		return nil, err
	}
	s := &Session{File: f, Diagnostics: diags}
	s.add(0, msgs)
	s.link()
	return s, nil
}

func (s *Session) add(file int, msgs []Message) {
	for _, m := range msgs {
		raw, _ := json.Marshal(m)
		role := model.RoleUser
		if m.Role == "assistant" {
			role = model.RoleAssistant
		}
		s.Entries = append(s.Entries, Entry{Message: m, File: file, Raw: raw, role: role})
	}
}

// link gives each entry a unique key, indexes the tool calls, and lays
// out the tree: the lead's messages one chain, each sub-agent's a chain
// under its spawn_agent call (matched by its task, the sub-agent's first
// prompt), else a root of its own.
func (s *Session) link() {
	n := len(s.Entries)
	s.parents = make([]int, n)
	s.index = make(map[string]int, n)
	s.calls = map[string]int{}
	s.leaf = -1
	tasks := map[string]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		e.key = e.ID
		if _, dup := s.index[e.key]; dup || e.key == "" {
			e.key = "#" + strconv.Itoa(i)
		}
		for _, dup := s.index[e.key]; dup; _, dup = s.index[e.key] {
			e.key += "'"
		}
		s.index[e.key] = i
		if e.File == 0 {
			s.leaf = i
		}
		if e.Role != "assistant" {
			continue
		}
		for _, b := range blocks(e.Content) {
			if b.Type != "tool_use" {
				continue
			}
			if _, seen := s.calls[b.ID]; !seen && e.File == 0 {
				s.calls[b.ID] = i
			}
			if b.Name == "spawn_agent" && e.File == 0 {
				var in struct {
					Task string `json:"task"`
				}
				if json.Unmarshal(b.Input, &in) == nil {
					if _, seen := tasks[in.Task]; !seen {
						tasks[in.Task] = i
					}
				}
			}
		}
	}
	prev := map[int]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		p, ok := prev[e.File]
		if !ok {
			p = -1
			if e.File > 0 {
				if c, found := tasks[firstText(e.Content)]; found {
					p = c
					s.Agents[e.File-1].Call = c
				}
			}
		}
		s.parents[i] = p
		prev[e.File] = i
	}
}

// firstText is a message's first text block.
func firstText(content json.RawMessage) string {
	for _, b := range blocks(content) {
		if b.Type == "text" {
			return b.Text
		}
	}
	return ""
}

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, s.sessionID, s.cwd))
}

// Of returns the Cline session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Len() int                     { return len(s.Entries) }
func (s *Session) Leaf() int                    { return s.leaf }
func (s *Session) Parent(i int) int             { return s.parents[i] }
func (s *Session) Raw(i int) []byte             { return s.Entries[i].Raw }
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Name is the manifest's title when it is not the first prompt (which the
// list shows as the first message).
func (s *Session) Name() string {
	if m := s.Manifest; m != nil && m.Metadata.Title != m.Prompt {
		return m.Metadata.Title
	}
	return ""
}

// Index finds an entry by its key (its id).
func (s *Session) Index(id string) (int, bool) {
	i, ok := s.index[id]
	return i, ok
}

// Entry is entry i in the domain's terms.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	me := model.Entry{Kind: model.EntryMessage, Type: e.Role, Role: e.role, ID: e.key, Timestamp: e.timestamp()}
	if p := s.parents[i]; p >= 0 {
		me.ParentID = s.Entries[p].key
	}
	return me
}

// timestamp is the message's ts as an ISO time, "" when it has none.
func (e *Entry) timestamp() string {
	if e.Ts == nil {
		return ""
	}
	return msToISO(*e.Ts)
}

// ReadOnly: Cline rewrites its files while it runs, with no lock skein
// could share.
func (s *Session) ReadOnly() string {
	return "Cline writes this session; skein only reads it (import it to work on a copy)"
}

// Message is entry m.Entry's content, normalized: a user message of text
// (its <user_input> wrapper taken off) and images, or of tool results
// (the k-th for Content -(k+1)); an assistant's text, thinking and calls
// with its model and usage.
func (s *Session) Message(m model.ContextMessage) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	msg := model.Message{Role: e.role}
	if e.Ts != nil {
		msg.Time, msg.HasTime = *e.Ts, true
	}
	bs := blocks(e.Content)
	if e.Role == "user" {
		if k := m.Content; k < 0 || resultsOnly(bs) {
			n := 0
			if k < 0 {
				n = int(-k) - 1
			}
			return s.result(bs, n, msg)
		}
		for _, b := range bs {
			switch b.Type {
			case "text":
				msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Text: UserText(b.Text)})
			case "image":
				msg.Blocks = append(msg.Blocks, image(b))
			}
		}
		msg.Injected = e.File > 0 && s.parents[m.Entry] >= 0 && s.Entries[s.parents[m.Entry]].File == 0
		return msg
	}
	if e.ModelInfo != nil {
		msg.Model, msg.Provider = e.ModelInfo.ID, e.ModelInfo.Provider
	}
	if mt := e.Metrics; mt != nil {
		msg.Usage = &model.Usage{Input: max(mt.InputTokens-mt.CacheReadTokens, 0), Output: mt.OutputTokens, CacheRead: mt.CacheReadTokens, CacheWrite: mt.CacheWriteTokens}
		if mt.Cost != nil {
			msg.Usage.Cost = *mt.Cost
		}
	}
	for _, b := range bs {
		switch b.Type {
		case "text":
			msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Text: b.Text})
		case "thinking":
			msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockThinking, Text: b.Thinking})
		case "redacted_thinking":
			msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockThinking, Name: "redacted_thinking", Text: "(redacted)"})
		case "tool_use":
			in := b.Input
			if firstByte(in) != '{' {
				in = json.RawMessage("{}")
			}
			msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockToolCall, Call: model.ToolCall{ID: b.ID, Name: b.Name, Input: in}})
		case "image":
			msg.Blocks = append(msg.Blocks, image(b))
		}
	}
	return msg
}

func image(b Block) model.Block {
	if b.Source == nil {
		return model.Block{Type: model.BlockImage}
	}
	return model.Block{Type: model.BlockImage, MimeType: b.Source.MediaType, DataLen: len(b.Source.Data), Data: b.Source.Data}
}

// resultsOnly reports whether a user message holds tool results and no
// text: the CLI writes one such message per result.
func resultsOnly(bs []Block) bool {
	n := 0
	for _, b := range bs {
		switch b.Type {
		case "tool_result":
			n++
		case "text", "image":
			return false
		}
	}
	return n > 0
}

// result is the k-th tool_result of a user message as a tool result: its
// text is what Cline sends (ResultText), an error when is_error is set or
// when every item of the CLI's result list failed.
func (s *Session) result(bs []Block, k int, msg model.Message) model.Message {
	n := 0
	for _, b := range bs {
		if b.Type != "tool_result" {
			continue
		}
		if n == k {
			msg.Role = model.RoleToolResult
			msg.ToolCallID, msg.ToolName = b.ToolUseID, b.Name
			if msg.ToolName == "" {
				msg.ToolName = s.callName(b.ToolUseID)
			}
			msg.IsError = b.IsError || allFailed(b.Content)
			msg.Blocks = []model.Block{{Type: model.BlockText, Text: ResultText(b.Content)}}
			return msg
		}
		n++
	}
	return msg
}

// callName is the name of the tool call id.
func (s *Session) callName(id string) string {
	i, ok := s.calls[id]
	if !ok {
		return ""
	}
	for _, b := range blocks(s.Entries[i].Content) {
		if b.Type == "tool_use" && b.ID == id {
			return b.Name
		}
	}
	return ""
}

// allFailed reports whether a result is the CLI's list of per-item
// results ({query, result, error, success}) with every item failed.
func allFailed(c json.RawMessage) bool {
	var items []struct {
		Success *bool `json:"success"`
	}
	if firstByte(c) != '[' || json.Unmarshal(c, &items) != nil || len(items) == 0 {
		return false
	}
	for _, it := range items {
		if it.Success == nil || *it.Success {
			return false
		}
	}
	return true
}

// ResultText is a tool result's content as Cline sends it to an OpenAI
// Chat API: a string as it is, a list of text blocks joined, anything
// else as its JSON.
func ResultText(c json.RawMessage) string {
	switch firstByte(c) {
	case 0:
		return ""
	case '"':
		var s string
		_ = json.Unmarshal(c, &s)
		return s
	case '[':
		var bs []Block
		if json.Unmarshal(c, &bs) == nil && len(bs) > 0 {
			var parts []string
			for _, b := range bs {
				if b.Type != "text" {
					parts = nil
					break
				}
				parts = append(parts, b.Text)
			}
			if parts != nil {
				return strings.Join(parts, "\n")
			}
		}
	}
	return compact(c)
}

// UserText is a user's text as typed: the <user_input mode="..."> (or
// <user_command>) wrapper the CLI stores around it taken off, as Cline
// does before it sends it (normalizeUserInput); <mode_notice> kept.
func UserText(t string) string {
	out := strings.TrimSpace(t)
	for _, tag := range []string{"user_input", "user_command"} {
		open := "<" + tag
		for {
			i := strings.Index(out, open)
			if i < 0 {
				break
			}
			j := strings.IndexByte(out[i:], '>')
			if j < 0 {
				break
			}
			if c := out[i+len(open)]; c != '>' && c != ' ' && c != '\t' && c != '\n' {
				break
			}
			end := strings.Index(out[i+j:], "</"+tag+">")
			if end < 0 {
				out = out[:i] + out[i+j+1:]
				continue
			}
			out = out[:i] + out[i+j+1:i+j+end] + out[i+j+end+len(tag)+3:]
		}
		out = strings.TrimSpace(out)
	}
	return out
}
