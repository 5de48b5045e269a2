package codex

import (
	"math"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// A Codex Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.Meta.ID }, s.cwd))
}

// Of returns the Codex session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

// Leaf is where Codex resumes: the last line's entry, -1 for none.
func (s *Session) Leaf() int { return s.leaf }

// Head is the entry in the domain's terms, without its parent's id
// (model.EntryTree adds it). Type is a response item's type ("message",
// "function_call"), an event's prefixed ("event_msg.token_count"), or the
// line's ("turn_context", "compacted", "session_meta").
func (e *Entry) Head() model.Entry {
	return model.Entry{Kind: e.kind, Type: e.typ, Role: e.role, ID: e.ID(), Timestamp: e.Timestamp, Line: e.Line}
}

// Detail is a turn context's model (the session's provider, its effort
// as the thinking level), a title, or what a custom entry is.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	switch e.kind {
	case model.EntryModelChange:
		d := model.Detail{Provider: s.Meta.ModelProvider, Model: s.tcModel[int32(i)]}
		d.ThinkingLevel, _ = jscan.String(jscan.ObjectMember(e.Payload, "effort"))
		return d
	case model.EntryTitle:
		t, _ := jscan.String(jscan.ObjectMember(e.Payload, "thread_name"))
		return model.Detail{Title: t}
	case model.EntryCustom, model.EntryUsage:
		return model.Detail{CustomType: e.typ}
	}
	return model.Detail{}
}

// Name is the last thread_name_updated event's name, "" for none.
func (s *Session) Name() string { return s.title }

// Raw is the entry's line as stored.
func (s *Session) Raw(i int) []byte { return s.Entries[i].Raw }

// Problems are what reading found.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Message is a context message's content, normalized.
func (s *Session) Message(m model.ContextMessage) model.Message { return s.message(m, true) }

// MessageHead is Message without its content blocks.
func (s *Session) MessageHead(m model.ContextMessage) model.Message { return s.message(m, false) }

// ritem is a response item: its JSON and what it is.
type ritem struct {
	raw            []byte
	itemType, role string
}

// replacement is compacted entry i's replacement_history, item by item;
// false when it has none (absent, null or not an array).
func (s *Session) replacement(i int) ([]ritem, bool) {
	h := jscan.ObjectMember(s.Entries[i].Payload, "replacement_history")
	if len(h) == 0 || h[0] != '[' {
		return nil, false
	}
	var out []ritem
	jscan.Items(h, func(v []byte) bool {
		it := ritem{raw: v}
		if len(v) > 0 && v[0] == '{' {
			it.itemType, _ = jscan.String(jscan.Member(v, "type"))
			it.role, _ = jscan.String(jscan.Member(v, "role"))
		}
		out = append(out, it)
		return true
	})
	return out, true
}

// item is the response item a context message is made from: a
// replacement item of a compaction, or an entry's payload.
func (s *Session) item(m model.ContextMessage) ritem {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return ritem{}
	}
	e := &s.Entries[m.Entry]
	if m.Content < 0 {
		items, _ := s.replacement(m.Entry)
		if k := int(-m.Content) - 1; k < len(items) {
			return items[k]
		}
		return ritem{}
	}
	if e.Type != TypeResponseItem {
		return ritem{raw: e.Payload}
	}
	return ritem{raw: e.Payload, itemType: e.ItemType, role: e.Role}
}

// summaryItem is the position of the summary among a replacement history:
// the last user message that starts with Codex's summary prefix, else the
// last whose text is the compaction's message; -1 for none.
func (s *Session) summaryItem(items []ritem) int {
	for k := len(items) - 1; k >= 0; k-- {
		if it := items[k]; it.itemType == "message" && it.role == "user" &&
			hasSummaryPrefix(textOf(blocksOf(jscan.ObjectMember(it.raw, "content")))) {
			return k
		}
	}
	return -1
}

// summaryOf is compacted entry i's summary: its message, else the summary
// its replacement history carries, without Codex's summary prefix.
func (s *Session) summaryOf(i int) string {
	msg, _ := jscan.String(jscan.ObjectMember(s.Entries[i].Payload, "message"))
	if msg == "" {
		if items, ok := s.replacement(i); ok {
			if k := s.summaryItem(items); k >= 0 {
				msg = textOf(blocksOf(jscan.ObjectMember(items[k].raw, "content")))
			}
		}
	}
	if rest, ok := cutSummaryPrefix(msg); ok {
		msg = rest
	}
	return strings.TrimPrefix(msg, "\n")
}

func textOf(blocks []model.Block) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == model.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (s *Session) message(m model.ContextMessage, content bool) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	var msg model.Message
	msg.SetTime(e.Timestamp)
	if m.Kind == model.KindCompactionSummary || m.Kind == model.KindMessage && m.Content == 0 && e.kind == model.EntryCompaction {
		msg.Role = model.RoleCompactionSummary
		msg.Summary = s.summaryOf(m.Entry)
		msg.TokensBefore = s.tokensBefore[int32(m.Entry)]
		return msg
	}
	if m.Kind == model.KindCustom || m.Content == 0 && e.kind != model.EntryMessage {
		msg.Role, msg.CustomType, msg.Hidden = model.RoleCustom, e.typ, true
		if content {
			msg.Blocks = []model.Block{{Type: model.BlockOther, Name: e.typ, Text: string(e.Payload)}}
		}
		return msg
	}
	if e.Type == TypeEventMsg {
		// A failed turn: the error is the reply.
		msg.Role, msg.StopReason, msg.Error = model.RoleAssistant, "error", failureText(e)
		if tc := s.inForce[m.Entry]; tc >= 0 {
			msg.Model, msg.Provider = s.tcModel[tc], s.Meta.ModelProvider
		}
		return msg
	}
	it := s.item(m)
	msg.Role = e.role
	if m.Content < 0 {
		msg.Role = messageRole(it.role)
		switch itemKinds[it.itemType] {
		case kindAssistant:
			msg.Role = model.RoleAssistant
		case kindResult:
			msg.Role = model.RoleToolResult
		}
	}
	if msg.Role == model.RoleAssistant {
		if tc := s.inForce[m.Entry]; tc >= 0 {
			msg.Model, msg.Provider = s.tcModel[tc], s.Meta.ModelProvider
		}
		if m.Content == 0 {
			if u, ok := s.usage[int32(m.Entry)]; ok {
				msg.Usage = s.counts[u].last.usage()
			}
		}
	}
	d := decode(it, content)
	msg.Blocks, msg.IsError, msg.ToolCallID = d.blocks, d.isError, d.callID
	msg.Injected = content && msg.Role == model.RoleUser && contextual(msg.Blocks)
	if msg.Role == model.RoleToolResult {
		msg.ToolName = s.callName(m, d.callID, it.itemType)
	}
	if content {
		for k := range msg.Blocks {
			if b := &msg.Blocks[k]; b.Type == model.BlockToolCall && b.Call.ID == "" {
				// A web search has no call_id: the entry's id names it.
				b.Call.ID = e.ID()
				if m.Content < 0 {
					b.Call.ID += "." + strconv.Itoa(int(-m.Content))
				}
			}
		}
	}
	return msg
}

// callName is the tool an output answers: its call's name (a local shell
// call's is "local_shell"), looked up among the entries, then among the
// compaction's replacement history the output is in.
func (s *Session) callName(m model.ContextMessage, id, itemType string) string {
	if itemType == "tool_search_output" {
		return "tool_search"
	}
	if c, ok := s.calls[id]; ok {
		return toolName(ritem{raw: s.Entries[c].Payload, itemType: s.Entries[c].ItemType})
	}
	if m.Content < 0 {
		items, _ := s.replacement(m.Entry)
		for _, it := range items {
			if inHistory(it.itemType, it.role) && itemKinds[it.itemType] == kindAssistant {
				if cid, _ := jscan.String(jscan.ObjectMember(it.raw, "call_id")); cid == id && id != "" {
					return toolName(it)
				}
			}
		}
	}
	return ""
}

// toolName is a call item's tool.
func toolName(it ritem) string {
	switch it.itemType {
	case "function_call", "custom_tool_call":
		n, _ := jscan.String(jscan.ObjectMember(it.raw, "name"))
		return n
	case "local_shell_call":
		return "local_shell"
	case "web_search_call":
		return "web_search"
	case "tool_search_call":
		return "tool_search"
	}
	return ""
}

type decoded struct {
	blocks  []model.Block
	isError bool
	callID  string
}

// decode reads a response item's content (models.rs ResponseItem):
//   - message: its content items, input_text and output_text as text,
//     input_image as an image (a data URL's type and base64 length);
//   - reasoning: each summary_text, then each reasoning_text or text of
//     its raw content, as thinking; an encrypted_content as a block of
//     that name, its length as DataLen and nothing shown;
//   - function_call: a tool call whose input is the arguments string's
//     JSON when that is an object, else {"arguments": the string};
//     custom_tool_call: input {"input": the string}; local_shell_call: its
//     action; web_search_call: its action; tool_search_call: its
//     arguments;
//   - outputs: output as text (a string), or its content items (an
//     array), or {content, success} (success false is an error);
//   - an encrypted compaction, an image generation: a block of their type.
func decode(it ritem, content bool) decoded {
	var d decoded
	raw := it.raw
	if len(raw) == 0 || raw[0] != '{' {
		return d
	}
	var f struct {
		content, summary, encrypted, name, arguments, callID, id, input, output, action, result, prompt, tools []byte
	}
	jscan.Fields(raw, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "content":
			f.content = v
		case "summary":
			f.summary = v
		case "encrypted_content":
			f.encrypted = v
		case "name":
			f.name = v
		case "arguments":
			f.arguments = v
		case "call_id":
			f.callID = v
		case "id":
			f.id = v
		case "input":
			f.input = v
		case "output":
			f.output = v
		case "action":
			f.action = v
		case "result":
			f.result = v
		case "revised_prompt":
			f.prompt = v
		case "tools":
			f.tools = v
		}
		return true
	})
	d.callID, _ = jscan.String(f.callID)
	if !content {
		if it.itemType == "function_call_output" || it.itemType == "custom_tool_call_output" {
			d.isError = outputError(f.output)
		}
		return d
	}
	call := func(name string, input []byte) {
		id := d.callID
		if id == "" {
			id, _ = jscan.String(f.id)
		}
		d.blocks = append(d.blocks, model.Block{Type: model.BlockToolCall, Name: it.itemType,
			Call: model.ToolCall{ID: id, Name: name, Input: input}})
	}
	switch it.itemType {
	case "message":
		d.blocks = blocksOf(f.content)
	case "reasoning":
		jscan.Items(arrayOrNil(f.summary), func(v []byte) bool {
			if t, ok := jscan.String(jscan.ObjectMember(v, "text")); ok {
				d.blocks = append(d.blocks, model.Block{Type: model.BlockThinking, Name: "summary_text", Text: t})
			}
			return true
		})
		jscan.Items(arrayOrNil(f.content), func(v []byte) bool {
			if t, ok := jscan.String(jscan.ObjectMember(v, "text")); ok {
				d.blocks = append(d.blocks, model.Block{Type: model.BlockThinking, Name: "reasoning_text", Text: t})
			}
			return true
		})
		if jscan.IsString(f.encrypted) {
			d.blocks = append(d.blocks, model.Block{Type: model.BlockOther, Name: "encrypted_content", DataLen: len(f.encrypted) - 2})
		}
	case "function_call":
		n, _ := jscan.String(f.name)
		call(n, argumentsInput(f.arguments, "arguments"))
	case "custom_tool_call":
		n, _ := jscan.String(f.name)
		call(n, argumentsInput(f.input, "input"))
	case "tool_search_call":
		call("tool_search", argumentsInput(f.arguments, "arguments"))
	case "local_shell_call":
		call("local_shell", objectOr(f.action))
	case "web_search_call":
		call("web_search", objectOr(f.action))
	case "function_call_output", "custom_tool_call_output":
		d.blocks, d.isError = outputBlocks(f.output)
	case "tool_search_output":
		d.blocks = []model.Block{{Type: model.BlockText, Name: "tools", Text: string(f.tools)}}
	case "image_generation_call":
		blk := model.Block{Type: model.BlockImage, Name: it.itemType, MimeType: "image/png"}
		if jscan.IsString(f.result) {
			blk.DataLen = len(f.result) - 2
		}
		blk.Text, _ = jscan.String(f.prompt)
		d.blocks = []model.Block{blk}
	default:
		blk := model.Block{Type: model.BlockOther, Name: it.itemType}
		if jscan.IsString(f.encrypted) {
			blk.DataLen = len(f.encrypted) - 2
		}
		d.blocks = []model.Block{blk}
	}
	return d
}

func arrayOrNil(v []byte) []byte {
	if len(v) > 0 && v[0] == '[' {
		return v
	}
	return nil
}

func objectOr(v []byte) []byte {
	if len(v) > 0 && v[0] == '{' {
		return append([]byte(nil), v...)
	}
	return []byte("{}")
}

// argumentsInput is a call's input: the string's JSON when it is an
// object (the arguments a function call writes as a string), an object
// as it is, else {key: the value}.
func argumentsInput(v []byte, key string) []byte {
	switch {
	case len(v) > 0 && v[0] == '{':
		return append([]byte(nil), v...)
	case jscan.IsString(v):
		if t, ok := jscan.Unquote(v); ok {
			b := []byte(t)
			if i := jscan.SkipSpace(b, 0); i < len(b) && b[i] == '{' && jscan.Valid(b) {
				return b
			}
		}
	case len(v) == 0:
		return []byte("{}")
	}
	return append(append(jsjson.AppendKey([]byte("{"), key), v...), '}')
}

// outputBlocks reads an output: a string, an array of content items, or
// {content, success, content_items}.
func outputBlocks(v []byte) ([]model.Block, bool) {
	switch {
	case jscan.IsString(v):
		t, _ := jscan.Unquote(v)
		// Codex's shell tool wrote its output as JSON in the string
		// ({"output", "metadata": {"exit_code"}}): its text, and its
		// exit code when it failed.
		if strings.HasPrefix(t, `{"output":`) && jscan.Valid([]byte(t)) {
			if out, ok := jscan.String(jscan.ObjectMember([]byte(t), "output")); ok {
				code := string(jscan.ObjectMember(jscan.ObjectMember([]byte(t), "metadata"), "exit_code"))
				failed := code != "" && code != "0"
				if failed {
					out += "\n(exit code " + code + ")"
				}
				return []model.Block{{Type: model.BlockText, Name: "output", Text: out}}, failed
			}
		}
		return []model.Block{{Type: model.BlockText, Name: "output", Text: t}}, false
	case len(v) > 0 && v[0] == '[':
		return blocksOf(v), false
	case len(v) > 0 && v[0] == '{':
		var blocks []model.Block
		if items := jscan.ObjectMember(v, "content_items"); len(items) > 0 && items[0] == '[' {
			blocks = blocksOf(items)
		} else if t, ok := jscan.String(jscan.ObjectMember(v, "content")); ok {
			blocks = []model.Block{{Type: model.BlockText, Name: "output", Text: t}}
		}
		return blocks, string(jscan.ObjectMember(v, "success")) == "false"
	}
	return nil, false
}

func outputError(v []byte) bool {
	return len(v) > 0 && v[0] == '{' && string(jscan.ObjectMember(v, "success")) == "false"
}

// blocksOf reads content items (ContentItem, FunctionCallOutputContentItem):
// input_text and output_text as text, input_image as an image, any other
// as a block of its type; a string is one text block.
func blocksOf(content []byte) []model.Block {
	if t, ok := jscan.String(content); ok {
		return []model.Block{{Type: model.BlockText, Name: "text", Text: t}}
	}
	if len(content) == 0 || content[0] != '[' {
		return nil
	}
	var out []model.Block
	jscan.Items(content, func(b []byte) bool {
		var blk model.Block
		var text, url []byte
		jscan.Fields(b, func(k, v []byte) bool {
			switch jscan.Key(k) {
			case "type":
				blk.Name, _ = jscan.String(v)
			case "text":
				text = v
			case "image_url":
				url = v
			}
			return true
		})
		switch blk.Name {
		case "input_text", "output_text", "text":
			blk.Type = model.BlockText
			blk.Text, _ = jscan.String(text)
		case "input_image":
			blk.Type = model.BlockImage
			imageOf(&blk, url)
		default:
			blk.Text, _ = jscan.String(text)
		}
		out = append(out, blk)
		return true
	})
	return out
}

// imageOf reads an image_url: a data URL's media type and base64 length,
// or the URL itself as the block's text.
func imageOf(blk *model.Block, url []byte) {
	if !jscan.IsString(url) {
		return
	}
	body := url[1 : len(url)-1]
	if len(body) > 5 && strings.EqualFold(string(body[:5]), "data:") {
		head := body
		if len(head) > 256 {
			head = head[:256]
		}
		if c := strings.IndexByte(string(head), ','); c >= 0 {
			meta := string(head[5:c])
			blk.MimeType, _, _ = strings.Cut(meta, ";")
			blk.DataLen = len(body) - c - 1
			return
		}
	}
	blk.Text, _ = jscan.Unquote(url)
}

// number is a JSON number's value.
func number(v []byte) (float64, bool) {
	if len(v) == 0 || !(v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, err == nil && !math.IsInf(f, 0)
}

// cwd is the session's working folder: session_meta's, else the first
// turn context's.
func (s *Session) cwd() string {
	if s.Meta.Cwd != "" {
		return s.Meta.Cwd
	}
	for i := range s.Entries {
		if s.Entries[i].Type == TypeTurnContext {
			if c, ok := jscan.String(jscan.ObjectMember(s.Entries[i].Payload, "cwd")); ok && c != "" {
				return c
			}
		}
	}
	return ""
}
