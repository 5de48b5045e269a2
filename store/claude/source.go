package claude

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// A Claude Code Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Provider is the provider skein names for Claude Code's models: its logs
// do not say which (the Anthropic API, Bedrock or Vertex).
const Provider = "anthropic"

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, s.SessionID, s.Cwd))
}

// Of returns the Claude Code session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

// SessionID is the first sessionId the session's file names, "" for none.
func (s *Session) SessionID() string {
	for i := range s.lines {
		if l := &s.lines[i]; l.file == 0 && l.sessionID != "" {
			return clone(l.sessionID)
		}
	}
	return ""
}

// Cwd is the first cwd the session's file names: the folder the session
// was started in (the one its project folder is named after), "" for none.
func (s *Session) Cwd() string {
	for i := range s.lines {
		if l := &s.lines[i]; l.file == 0 && l.cwd != "" {
			return clone(l.cwd)
		}
	}
	return ""
}

// clone copies a string that may share the file's memory, for what may
// outlive the session (the list record).
func clone(v string) string { return string([]byte(v)) }

// Leaf is the entry Claude Code resumes at, as skein reads it: the entry
// of the last line of the session's file that is a turn of the main
// conversation, followed down to the latest of its children (FORMAT.md).
func (s *Session) Leaf() int { return s.leaf }

// Head is the entry in the domain's terms, without its parent's id
// (model.EntryTree adds it).
func (e *Entry) Head() model.Entry {
	return model.Entry{Kind: e.kind, Type: e.Type, Role: e.role, ID: e.ID, Timestamp: e.Timestamp, Line: e.Line}
}

// Detail is a title line's title, and a record's type.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	switch e.kind {
	case model.EntryTitle:
		return model.Detail{Title: s.titleOf(i)}
	case model.EntryCustom:
		ct := e.Type
		if e.Type == TypeSystem && e.Subtype != "" {
			ct += ":" + e.Subtype
		}
		return model.Detail{CustomType: ct}
	}
	return model.Detail{}
}

// titleOf is the title a title line gives: customTitle, agentName,
// aiTitle or summary.
func (s *Session) titleOf(i int) string {
	e := &s.Entries[i]
	raw := s.lines[e.first].raw
	var key string
	switch e.Type {
	case TypeCustomTitle:
		key = "customTitle"
	case TypeAgentName:
		key = "agentName"
	case TypeAITitle:
		key = "aiTitle"
	case TypeSummary:
		key = "summary"
	default:
		return ""
	}
	t, _ := jscan.String(jscan.Member(raw, key))
	return t
}

// Index finds an entry by its id, or by the uuid of any line merged into
// it.
func (s *Session) Index(id string) (int, bool) {
	if j, ok := s.byUUID[id]; ok {
		if k := s.lineEntry[j]; k >= 0 {
			return int(k), true
		}
	}
	// A piece of a line with several tool results: "<base>#k".
	if h := strings.LastIndexByte(id, '#'); h > 0 {
		if k, err := strconv.Atoi(id[h+1:]); err == nil && k >= 1 {
			// The line's uuid (or, with none, its "line:N") is its last
			// piece's id; its pieces are entries in a row.
			if last, ok := s.Index(id[:h]); ok {
				first := last
				for first > 0 && s.Entries[first-1].first == s.Entries[last].first {
					first--
				}
				if c := first + k - 1; c < last && s.Entries[c].ID == id {
					return c, true
				}
			}
		}
	}
	// A line with no uuid: "line:N", or "<agent file>:N".
	if c := strings.LastIndexByte(id, ':'); c > 0 {
		no, err := strconv.Atoi(id[c+1:])
		if err != nil || no < 1 {
			return 0, false
		}
		file := int32(-1)
		if id[:c] == "line" {
			file = 0
		} else {
			for f := range s.agentFiles {
				if s.agentFiles[f].Name == id[:c] {
					file = int32(f + 1)
				}
			}
		}
		if file < 0 {
			return 0, false
		}
		j := sort.Search(len(s.lines), func(j int) bool {
			l := &s.lines[j]
			return l.file > file || l.file == file && int(l.no) >= no
		})
		if j < len(s.lines) && s.lines[j].file == file && int(s.lines[j].no) == no {
			if k := s.lineEntry[j]; k >= 0 && s.Entries[k].ID == id {
				return int(k), true
			}
		}
	}
	return 0, false
}

// Name is the session's title: the last custom-title line's (set by the
// user), else the last agent-name's, else the last ai-title's, else the
// summary line about the entry nearest the leaf on its path, else the last
// summary line's; "" when no line gives one.
func (s *Session) Name() string {
	s.nameOnce.Do(func() { s.name = s.findName() })
	return s.name
}

func (s *Session) findName() string {
	last := map[string]string{}
	summaries := map[string]string{} // leafUuid -> summary
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.kind != model.EntryTitle || e.Agent >= 0 {
			continue
		}
		t := s.titleOf(i)
		last[e.Type] = t
		if e.Type == TypeSummary {
			if id, ok := jscan.StringShared(jscan.Member(s.lines[e.first].raw, "leafUuid")); ok && t != "" {
				summaries[id] = t
			}
		}
	}
	for _, typ := range []string{TypeCustomTitle, TypeAgentName, TypeAITitle} {
		if t := last[typ]; t != "" {
			return t
		}
	}
	if len(summaries) > 0 {
		for j := s.leaf; j >= 0; j = int(s.parent[j]) {
			if t, ok := summaries[s.Entries[j].ID]; ok {
				return t
			}
		}
	}
	return last[TypeSummary]
}

// Raw is the entry's lines as stored, joined by a line end when a reply
// or a compaction spans several.
func (s *Session) Raw(i int) []byte {
	e := &s.Entries[i]
	if s.next[e.first] < 0 {
		return s.lines[e.first].raw
	}
	var b []byte
	for j := e.first; j >= 0; j = s.next[j] {
		if len(b) > 0 {
			b = append(b, '\n')
		}
		b = append(b, s.lines[j].raw...)
	}
	return b
}

// Lines are the entry's lines as stored, in file order.
func (s *Session) Lines(i int) [][]byte {
	var out [][]byte
	for j := s.Entries[i].first; j >= 0; j = s.next[j] {
		out = append(out, s.lines[j].raw)
	}
	return out
}

// Problems are what reading found.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Message is a context message's content, normalized.
func (s *Session) Message(m model.ContextMessage) model.Message { return s.message(m.Entry, true) }

// MessageLiteral is Message with the texts that JSON.stringify would write
// as they are in the line given as their literals (model.Session's
// MessageLiteral).
func (s *Session) MessageLiteral(m model.ContextMessage) model.Message {
	return s.messageAs(m.Entry, true, true)
}

// MessageHead is Message without its content blocks.
func (s *Session) MessageHead(m model.ContextMessage) model.Message { return s.message(m.Entry, false) }

// message reads entry k's lines (FORMAT.md, "Messages"): a reply's blocks
// in line order with its last line's model, usage and stop reason; a user
// line's blocks but its tool results; a tool result's block, with the
// name of its call; a compaction's summary.
func (s *Session) message(k int, content bool) model.Message { return s.messageAs(k, content, false) }

// messageAs is message, its texts given as their literals when literal
// (and JSON.stringify would write them so).
func (s *Session) messageAs(k int, content, literal bool) model.Message {
	if k < 0 || k >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[k]
	msg := model.Message{Role: e.role}
	msg.SetTime(e.Timestamp)
	first := &s.lines[e.first]
	switch e.kind {
	case model.EntryMessage:
		switch e.role {
		case model.RoleAssistant:
			msg.Provider = Provider
			for j := e.first; j >= 0; j = s.next[j] {
				l := &s.lines[j]
				jscan.Fields(l.message(), func(k, v []byte) bool {
					switch jscan.Key(k) {
					case "model":
						if t, ok := jscan.String(v); ok {
							msg.Model = t
						}
					case "stop_reason":
						if t, ok := jscan.String(v); ok {
							msg.StopReason = t
						}
					case "usage":
						if u := usageOf(v); u != nil {
							msg.Usage = u
						}
					case "content":
						if content {
							msg.Blocks = appendBlocksAs(msg.Blocks, v, false, literal)
						}
					}
					return true
				})
				if l.has(flagAPIError) {
					msg.StopReason = "error"
					if t, ok := jscan.String(jscan.Member(l.raw, "error")); ok {
						msg.Error = t
					} else {
						msg.Error = "API error"
					}
				}
			}
		case model.RoleUser:
			msg.Hidden, msg.Excluded = e.meta, e.excluded
			if content {
				msg.Blocks = appendBlocksAs(nil, first.content(), true, literal)
			}
		case model.RoleToolResult:
			msg.ToolCallID = e.ToolCallID
			if c, ok := s.callIndex()[e.ToolCallID]; ok {
				msg.ToolName = c.name
			}
			msg.Excluded = e.excluded
			var rc []byte // its block, as the line's parse noted it
			if k := int(e.piece); k >= 0 && k < len(first.resultAt) {
				r := first.resultAt[k]
				msg.IsError = r.isError
				if r.end > 0 {
					rc = first.raw[r.at:r.end]
				}
			}
			if content {
				msg.Blocks = appendBlocksAs(nil, rc, false, literal)
			}
		}
	case model.EntryCompaction:
		msg.Role = model.RoleCompactionSummary
		for j := e.first; j >= 0; j = s.next[j] {
			l := &s.lines[j]
			if l.typ == TypeSystem {
				if md := jscan.Member(l.raw, "compactMetadata"); len(md) > 0 && md[0] == '{' {
					msg.TokensBefore, _ = jscan.Number(jscan.Member(md, "preTokens"))
				}
				continue
			}
			sum := model.Message{Blocks: appendBlocks(nil, l.content(), true)}
			msg.Summary = sum.Text("\n")
		}
	case model.EntryTitle:
		msg.Summary = s.titleOf(k)
	default:
		msg.CustomType = s.Detail(k).CustomType
		if t, ok := jscan.String(jscan.Member(first.raw, "content")); ok && content {
			msg.Blocks = []model.Block{{Type: model.BlockText, Name: "text", Text: t}}
		}
	}
	return msg
}

// appendBlocks appends the blocks of a content value: a string is one text
// block; in an array, text, thinking (its "thinking"), tool_use (and the
// server's and MCP's tool uses) as tool calls, images (source.media_type,
// the length of source.data), and every other block as BlockOther with its
// type (a redacted thinking block, a document, a web search result).
// tool_result blocks are left out when skipResults: they are entries of
// their own.
func appendBlocks(dst []model.Block, content []byte, skipResults bool) []model.Block {
	return appendBlocksAs(dst, content, skipResults, false)
}

// textBlock is a block of the JSON string v: its text decoded, or when
// literal and JSON.stringify would write v as it is, v itself.
func textBlock(typ model.BlockType, name string, v []byte, literal bool) model.Block {
	blk := model.Block{Type: typ, Name: name}
	if literal && jscan.IsString(v) && jsjson.Copyable(v) {
		blk.TextJSON = v
	} else {
		blk.Text, _ = jscan.String(v)
	}
	return blk
}

// appendBlocksAs is appendBlocks, a text's or thinking's literal given
// when literal (textBlock).
func appendBlocksAs(dst []model.Block, content []byte, skipResults, literal bool) []model.Block {
	if jscan.IsString(content) {
		return append(dst, textBlock(model.BlockText, "text", content, literal))
	}
	if len(content) == 0 || content[0] != '[' {
		return dst
	}
	jscan.Items(content, func(b []byte) bool {
		if len(b) == 0 || b[0] != '{' {
			return true
		}
		var blk model.Block
		var text, thinking, id, name, input, source, title []byte
		jscan.Fields(b, func(k, v []byte) bool {
			switch jscan.Key(k) {
			case "type":
				blk.Name, _ = jscan.String(v)
			case "text":
				text = v
			case "thinking":
				thinking = v
			case "id":
				id = v
			case "name":
				name = v
			case "input":
				input = v
			case "source":
				source = v
			case "title":
				title = v
			}
			return true
		})
		switch blk.Name {
		case "tool_result":
			if skipResults {
				return true
			}
		case "text":
			blk = textBlock(model.BlockText, blk.Name, text, literal)
		case "thinking":
			if !jscan.IsString(thinking) || len(thinking) <= 2 {
				thinking = text // an empty thinking (or none): its text, if any
			}
			blk = textBlock(model.BlockThinking, blk.Name, thinking, literal)
		case "tool_use", "server_tool_use", "mcp_tool_use":
			blk.Type = model.BlockToolCall
			blk.Call.ID, _ = jscan.String(id)
			blk.Call.Name, _ = jscan.String(name)
			in := []byte("{}")
			if len(input) > 0 && input[0] == '{' {
				in = input
			}
			blk.Call.Input = bytes.Clone(in)
		case "image":
			blk.Type = model.BlockImage
			if len(source) > 0 && source[0] == '{' {
				blk.MimeType, _ = jscan.String(jscan.Member(source, "media_type"))
				if data := jscan.Member(source, "data"); jscan.IsString(data) && len(data) >= 2 {
					blk.DataLen = len(data) - 2
				}
				blk.Text, _ = jscan.String(jscan.Member(source, "url"))
			}
		case "document":
			blk.Text, _ = jscan.String(title)
		}
		dst = append(dst, blk)
		return true
	})
	return dst
}

// callsOf is the tool calls of assistant entry k, in order, read without
// decoding the rest of its blocks.
func (s *Session) callsOf(k int) []model.ToolCall {
	var out []model.ToolCall
	for j := s.Entries[k].first; j >= 0; j = s.next[j] {
		jscan.Items(s.lines[j].content(), func(b []byte) bool {
			if len(b) == 0 || b[0] != '{' {
				return true
			}
			var typ, id, name, input []byte
			jscan.Fields(b, func(k, v []byte) bool {
				switch jscan.Key(k) {
				case "type":
					typ = v
				case "id":
					id = v
				case "name":
					name = v
				case "input":
					input = v
				}
				return true
			})
			if t, _ := jscan.String(typ); t != "tool_use" && t != "server_tool_use" && t != "mcp_tool_use" {
				return true
			}
			c := model.ToolCall{Input: []byte("{}")}
			c.ID, _ = jscan.String(id)
			c.Name, _ = jscan.String(name)
			if len(input) > 0 && input[0] == '{' {
				c.Input = input
			}
			out = append(out, c)
			return true
		})
	}
	return out
}

// usageOf reads an API usage object: input_tokens, output_tokens,
// cache_read_input_tokens, cache_creation_input_tokens; nil when it is not
// an object.
func usageOf(u []byte) *model.Usage {
	if len(u) == 0 || u[0] != '{' {
		return nil
	}
	out := &model.Usage{}
	jscan.Numbers(u, []string{"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"},
		&out.Input, &out.Output, &out.CacheRead, &out.CacheWrite)
	return out
}

// incomplete reports whether a usage object lacks input_tokens or
// output_tokens as numbers.
func incomplete(u []byte) bool {
	_, ok1 := jscan.Number(jscan.Member(u, "input_tokens"))
	_, ok2 := jscan.Number(jscan.Member(u, "output_tokens"))
	return !ok1 || !ok2
}
