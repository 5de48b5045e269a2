package opencode

import (
	"bytes"
	"encoding/json"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// Session is one OpenCode session read from its database: its row, its
// messages and their parts, and the entries skein shows of them. OpenCode
// keeps one line of messages, each assistant message one model request
// (a step): entries are a user message, an assistant message, and after
// it the result of each of its tool calls (OpenCode keeps a call and its
// result in one part), each entry the parent of the next.
type Session struct {
	Row      SessionRow
	Messages []Message
	Entries  []Entry
	// Children are the sessions the task tool started from this one
	// (parent_id), by id.
	Children []string
	// Kilo: the session is Kilo CLI's (a database or data folder of a
	// name other than OpenCode's: OpenCode's fork, read through this
	// package), whose requests differ from OpenCode's: each user message
	// goes with an <environment_details> text Kilo adds when it sends it
	// and never stores (envDetails), and an assistant step without text
	// has a null content.
	Kilo bool
}

// Message is a message row, its data read, and its parts.
type Message struct {
	Row   `json:"-"`
	Data  MessageData
	Parts []Part
}

// MessageData is what skein reads of a message's data.
type MessageData struct {
	Role       string          `json:"role"`
	ParentID   string          `json:"parentID"`
	ModelID    string          `json:"modelID"`
	ProviderID string          `json:"providerID"`
	Agent      string          `json:"agent"`
	Finish     string          `json:"finish"`
	Cost       float64         `json:"cost"`
	Tokens     *Tokens         `json:"tokens"`
	Error      json.RawMessage `json:"error"`
	Model      struct {
		ProviderID string `json:"providerID"`
		ModelID    string `json:"modelID"`
	} `json:"model"` // a user message's
	Path struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Summary json.RawMessage `json:"summary"`
	// EditorContext is what Kilo's editor extension said of the editor
	// when the user wrote (a user message's): it goes into the message's
	// environment details.
	EditorContext *EditorContext `json:"editorContext"`
}

// EditorContext is a user message's editorContext (Kilo's).
type EditorContext struct {
	Directory    *string  `json:"directory"`
	Worktree     *string  `json:"worktree"`
	ActiveFile   string   `json:"activeFile"`
	VisibleFiles []string `json:"visibleFiles"`
	OpenTabs     []string `json:"openTabs"`
}

// Tokens are an assistant message's usage as OpenCode stores it: input
// less the cached tokens, output less the reasoning tokens.
type Tokens struct {
	Input     float64 `json:"input"`
	Output    float64 `json:"output"`
	Reasoning float64 `json:"reasoning"`
	Cache     struct {
		Read  float64 `json:"read"`
		Write float64 `json:"write"`
	} `json:"cache"`
}

// Part is a part row, its data read.
type Part struct {
	Row       `json:"-"`
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Synthetic bool            `json:"synthetic"`
	Ignored   bool            `json:"ignored"`
	Tool      string          `json:"tool"`
	CallID    string          `json:"callID"`
	State     ToolState       `json:"state"`
	Mime      string          `json:"mime"`
	Filename  string          `json:"filename"`
	URL       string          `json:"url"`
	Summary   json.RawMessage `json:"summary"`
}

// ToolState is a tool part's state: its input, and its output or error
// once it ran.
type ToolState struct {
	Status   string          `json:"status"` // pending, running, completed, error
	Input    json.RawMessage `json:"input"`
	Output   string          `json:"output"`
	Error    string          `json:"error"`
	Title    string          `json:"title"`
	Metadata json.RawMessage `json:"metadata"`
}

// Entry is one entry skein shows: a message (Part -1), or the result of
// its tool part Part.
type Entry struct {
	Msg, Part int
}

// NewSession reads session id's rows out of a database read whole.
func NewSession(d *DB, id string) (*Session, bool) {
	row, ok := d.Session(id)
	if !ok {
		return nil, false
	}
	s := &Session{Row: *row}
	for _, r := range d.Messages[id] {
		m := Message{Row: r}
		_ = json.Unmarshal(r.Data, &m.Data) // a message that does not parse is a message of no role
		for _, pr := range d.Parts[r.ID] {
			p := Part{Row: pr}
			_ = json.Unmarshal(pr.Data, &p)
			m.Parts = append(m.Parts, p)
		}
		s.Messages = append(s.Messages, m)
	}
	for _, c := range d.Sessions {
		if c.ParentID == id {
			s.Children = append(s.Children, c.ID)
		}
	}
	s.Entries = entriesOf(s.Messages)
	return s, true
}

// entriesOf is the messages' entries: each message, then, after an
// assistant's, the result of each tool call that has one.
func entriesOf(msgs []Message) []Entry {
	var out []Entry
	for i, m := range msgs {
		out = append(out, Entry{i, -1})
		if m.Data.Role != model.RoleAssistant {
			continue
		}
		for k, p := range m.Parts {
			if p.Type == "tool" && hasResult(p.State.Status) {
				out = append(out, Entry{i, k})
			}
		}
	}
	return out
}

func hasResult(status string) bool { return status == "completed" || status == "error" }

func (s *Session) Len() int { return len(s.Entries) }

// Leaf is the last entry: OpenCode keeps one line of messages.
func (s *Session) Leaf() int { return len(s.Entries) - 1 }

func (s *Session) Parent(i int) int { return i - 1 }

func (s *Session) Entry(i int) model.Entry {
	e := s.Entries[i]
	m := &s.Messages[e.Msg]
	out := model.Entry{Kind: model.EntryMessage, Type: "message", Role: m.Data.Role, ID: m.ID}
	t := m.Created
	if e.Part >= 0 {
		p := &m.Parts[e.Part]
		out.Type, out.Role, out.ID, t = "tool", model.RoleToolResult, p.ID, p.Updated
	}
	if i > 0 {
		out.ParentID = s.Entry(i - 1).ID
	}
	out.Timestamp, _ = jsdate.ISO(t)
	return out
}

// Raw is the message's data, or the tool part's.
func (s *Session) Raw(i int) []byte {
	e := s.Entries[i]
	if e.Part >= 0 {
		return s.Messages[e.Msg].Parts[e.Part].Data
	}
	return s.Messages[e.Msg].Row.Data
}

func (s *Session) Message(cm model.ContextMessage) model.Message {
	e := s.Entries[cm.Entry]
	m := &s.Messages[e.Msg]
	if e.Part >= 0 {
		p := &m.Parts[e.Part]
		out := model.Message{Role: model.RoleToolResult, ToolCallID: p.CallID, ToolName: p.Tool, Time: p.Updated, HasTime: p.Updated > 0}
		text := p.State.Output
		if p.State.Status == "error" {
			out.IsError, text = true, p.State.Error
		}
		out.Blocks = []model.Block{{Type: model.BlockText, Text: text}}
		return out
	}
	out := model.Message{Role: m.Data.Role, Time: m.Created, HasTime: m.Created > 0}
	if out.Role == "" {
		out.Role = "unknown"
	}
	for _, p := range m.Parts {
		switch p.Type {
		case "text":
			if !p.Ignored {
				out.Blocks = append(out.Blocks, model.Block{Type: model.BlockText, Text: p.Text})
			}
		case "reasoning":
			out.Blocks = append(out.Blocks, model.Block{Type: model.BlockThinking, Text: p.Text})
		case "tool":
			out.Blocks = append(out.Blocks, model.Block{Type: model.BlockToolCall, Call: model.ToolCall{ID: p.CallID, Name: p.Tool, Input: object(p.State.Input)}})
		case "file":
			out.Blocks = append(out.Blocks, model.Block{Type: model.BlockOther, Name: "file", Text: p.Filename, MimeType: p.Mime})
		case "step-start", "step-finish", "snapshot", "patch":
			// A step's bounds and the files' snapshots: not content.
		default:
			out.Blocks = append(out.Blocks, model.Block{Type: model.BlockOther, Name: p.Type, Text: p.Text})
		}
	}
	if out.Role == model.RoleAssistant {
		out.Model, out.Provider, out.StopReason = m.Data.ModelID, m.Data.ProviderID, m.Data.Finish
		if t := m.Data.Tokens; t != nil {
			out.Usage = &model.Usage{Input: t.Input, Output: t.Output + t.Reasoning, Reasoning: t.Reasoning,
				CacheRead: t.Cache.Read, CacheWrite: t.Cache.Write, Cost: m.Data.Cost, HasCost: true}
		}
		out.Error = errorText(m.Data.Error)
	}
	return out
}

// object is a tool's input as a JSON object ({} for none).
func object(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return []byte("{}")
	}
	return raw
}

// errorText is an assistant message's error ({name, data: {message}}) as
// a line, "" for none.
func errorText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var e struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return string(raw)
	}
	return strings.TrimSpace(strings.TrimPrefix(e.Name+": "+e.Data.Message, ": "))
}

// BuildContext is the session's messages up to leaf, in order: what
// OpenCode sends when it goes on with the session (see WriteContextJSON).
func (s *Session) BuildContext(leaf int) model.Context {
	ctx := model.Context{Compaction: -1}
	if leaf < 0 || leaf >= len(s.Entries) {
		return ctx
	}
	for i := 0; i <= leaf; i++ {
		ctx.Path = append(ctx.Path, i)
		ctx.Entries = append(ctx.Entries, model.Projected{Entry: i, First: len(ctx.Messages), N: 1})
		ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: model.KindMessage})
	}
	for i := leaf; i >= 0; i-- {
		if m := &s.Messages[s.Entries[i].Msg]; m.Data.Role == model.RoleAssistant && m.Data.ModelID != "" {
			ctx.Model = model.NewModelRef(m.Data.ProviderID, m.Data.ModelID)
			break
		}
	}
	return ctx
}

// ReadOnly: OpenCode writes its database while it runs.
func (s *Session) ReadOnly() string {
	return "OpenCode keeps this session in its database, which skein only reads: import it first (skein session import --file FILE)"
}
