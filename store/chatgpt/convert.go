package chatgpt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/store/pi"
)

// entry is one line of the session being written.
type entry struct {
	typ    string
	id     string
	parent int // index of the parent entry, -1 for a root
	ms     int64
	body   []byte // the members after timestamp, each led by a comma
}

// call is a tool call on the way from the root to a node, since the last
// user message; prev is the one before it.
type call struct {
	name, id string
	prev     *call
}

// maxCallSearch bounds the walk back over a turn's calls for the one a
// tool's reply answers: a turn has tens of calls, a hostile file millions.
const maxCallSearch = 1000

// find returns the nearest call to tool (any call when the tool has no name).
func (c *call) find(tool string) *call {
	for k := 0; c != nil && k < maxCallSearch; c, k = c.prev, k+1 {
		if tool == "" || sameTool(c.name, tool) {
			return c
		}
	}
	return nil
}

// sameTool reports whether a call to recipient is answered by tool: the
// same name, or one of them a namespace of the other (a call to
// file_search.msearch is answered by file_search).
func sameTool(recipient, tool string) bool {
	return recipient == tool || strings.HasPrefix(recipient, tool+".") || strings.HasPrefix(tool, recipient+".")
}

type converter struct {
	defaultModel string
	entries      []entry
	next         map[string]int // id → the next suffix to try for it
	callIDs      map[string]bool
}

// convert reads one conversation of an export; ok is false when it is not
// an object with a mapping object.
func convert(raw json.RawMessage) (Conversation, bool) {
	conv := objectOf(raw)
	if conv == nil {
		return Conversation{}, false
	}
	t, ok := readTree(conv["mapping"], str(conv["current_node"]))
	if !ok {
		return Conversation{}, false
	}
	id := str(conv["conversation_id"])
	if id == "" {
		id = str(conv["id"])
	}
	sessionID := "chatgpt-" + id
	if id == "" {
		sum := sha256.Sum256(raw)
		sessionID = "chatgpt-" + hex.EncodeToString(sum[:8])
	}
	title := cleanTitle(str(conv["title"]))
	created, hasCreated := millis(conv["create_time"])
	c := &converter{defaultModel: str(conv["default_model_slug"]), next: map[string]int{}, callIDs: map[string]bool{}}
	leaf := c.walk(t, created)

	start := created
	if !hasCreated && len(c.entries) > 0 {
		start = c.entries[0].ms
		for _, e := range c.entries {
			start = min(start, e.ms)
		}
	}
	infoMS := start
	if leaf >= 0 {
		infoMS = c.entries[leaf].ms
	}
	if updated, ok := millis(conv["update_time"]); ok {
		infoMS = max(infoMS, updated)
	}
	c.add("session_info", "title", leaf, infoMS, jsjson.AppendString([]byte(`,"name":`), title))

	size := 128
	for _, e := range c.entries {
		size += len(e.body) + 2*len(e.id) + 96
	}
	b := make([]byte, 0, size)
	b = append(b, `{"type":"session","version":3,"id":`...)
	b = jsjson.AppendString(b, sessionID)
	b = append(b, `,"timestamp":`...)
	b = jsjson.AppendString(b, iso(start))
	b = append(b, `,"cwd":""}`+"\n"...)
	for _, e := range c.entries {
		b = append(b, `{"type":`...)
		b = jsjson.AppendString(b, e.typ)
		b = append(b, `,"id":`...)
		b = jsjson.AppendString(b, e.id)
		b = append(b, `,"parentId":`...)
		if e.parent < 0 {
			b = append(b, "null"...)
		} else {
			b = jsjson.AppendString(b, c.entries[e.parent].id)
		}
		b = append(b, `,"timestamp":`...)
		b = jsjson.AppendString(b, iso(e.ms))
		b = append(b, e.body...)
		b = append(b, "}\n"...)
	}
	return Conversation{ID: id, Title: title, Lines: b}, true
}

// cleanTitle is the title as pi stores a session's name: each run of line
// breaks one space, trimmed.
func cleanTitle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\r' && s[i] != '\n' {
			b.WriteByte(s[i])
		} else if i == 0 || s[i-1] != '\r' && s[i-1] != '\n' {
			b.WriteByte(' ')
		}
	}
	return pi.TrimJS(b.String())
}

// walk converts the nodes depth first, every parent before its children
// and the current path last, and returns the entry the current node ends
// at (the nearest one above it when it gives none), -1 for none.
func (c *converter) walk(t *tree, base int64) int {
	type frame struct {
		node, attach int
		calls        *call
	}
	var stack []frame
	push := func(list []int, attach int, calls *call) {
		list = t.pathLast(list)
		for k := len(list) - 1; k >= 0; k-- {
			stack = append(stack, frame{list[k], attach, calls})
		}
	}
	push(t.roots, -1, nil)
	leaf := -1
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		last, calls := c.node(&t.nodes[f.node], f.attach, f.calls, base)
		if f.node == t.current {
			leaf = last
		}
		push(t.children[f.node], last, calls)
	}
	return leaf
}

// newID returns id, or id with a suffix when it is taken or empty.
func (c *converter) newID(id string) string {
	if id == "" {
		id = "node"
	}
	k, taken := c.next[id]
	if !taken {
		c.next[id] = 2
		return id
	}
	for ; ; k++ {
		cand := id + "-" + strconv.Itoa(k)
		if _, used := c.next[cand]; !used {
			c.next[id] = k + 1
			c.next[cand] = 2
			return cand
		}
	}
}

// add appends an entry and returns its index.
func (c *converter) add(typ, id string, parent int, ms int64, body []byte) int {
	c.entries = append(c.entries, entry{typ: typ, id: c.newID(id), parent: parent, ms: ms, body: body})
	return len(c.entries) - 1
}

// keep adds a custom entry holding a message as the export has it.
func (c *converter) keep(what, id string, parent int, ms int64, raw json.RawMessage) int {
	b := append([]byte(`,"customType":`), jsjson.AppendString(nil, "chatgpt."+safeName(what))...)
	b = append(b, `,"data":`...)
	b = jsjson.AppendValue(b, raw)
	return c.add("custom", id, parent, ms, b)
}

// node converts one node under entry parent and returns the entry its
// children hang from and the calls in force below it.
func (c *converter) node(nd *node, parent int, calls *call, base int64) (int, *call) {
	ms := base
	if parent >= 0 {
		ms = c.entries[parent].ms
	}
	if nd.message == nil {
		return parent, calls
	}
	m := objectOf(nd.message)
	if m == nil {
		return c.keep("message", nd.key+"-raw", parent, ms, nd.message), calls
	}
	if t, ok := millis(m["create_time"]); ok {
		ms = t
	} else if t, ok := millis(m["update_time"]); ok {
		ms = t
	}
	author := objectOf(m["author"])
	role, name := str(author["role"]), str(author["name"])
	meta := objectOf(m["metadata"])
	hidden := isTrue(meta["is_visually_hidden_from_conversation"])
	recipient := str(m["recipient"])
	toTool := recipient != "" && recipient != "all"

	x, ct := readContent(m["content"])
	x.metadata(meta)
	if x.isCode && !(role == "assistant" && toTool) {
		x.text(x.code)
		if x.language != "" && x.language != "unknown" {
			x.lose(ct)
		}
	}
	if role != "assistant" { // only a model thinks: elsewhere it is text
		x.texts = append(x.texts, x.thinking...)
		x.thinking = nil
	}

	last := parent
	kept := false
	switch {
	case ct == "user_editable_context" || ct == "model_editable_context":
		// The user's custom instructions and the model's memory: what the
		// model was given, not what anyone said.
		if len(x.texts) > 0 {
			last = c.customMessage(ct, nd.key, last, ms, x.texts)
		}
	case role == "user":
		calls = nil
		switch {
		case len(x.texts) == 0:
		case hidden:
			last = c.customMessage("hidden", nd.key, last, ms, x.texts)
		default:
			body := blocks(`,"message":{"role":"user","content":[`, nil, x.texts)
			last = c.add("message", nd.key, last, ms, appendMS(append(body, ']'), ms))
		}
	case role == "assistant" && toTool:
		eid := c.newID(nd.key)
		callID := str(m["id"])
		if callID == "" || c.callIDs[callID] {
			callID = eid
		}
		c.callIDs[callID] = true
		body := blocks(`,"message":{"role":"assistant","content":[`, x.thinking, nil)
		if len(x.thinking) > 0 {
			body = append(body, ',')
		}
		body = append(body, `{"type":"toolCall","id":`...)
		body = jsjson.AppendString(body, callID)
		body = append(body, `,"name":`...)
		body = jsjson.AppendString(body, recipient)
		body = append(body, `,"arguments":`...)
		body = appendArguments(body, x)
		body = append(body, "}]"...)
		body = c.appendModel(body, meta)
		c.entries = append(c.entries, entry{typ: "message", id: eid, parent: last, ms: ms, body: appendMS(body, ms)})
		last = len(c.entries) - 1
		calls = &call{name: recipient, id: callID, prev: calls}
	case role == "assistant":
		if len(x.texts)+len(x.thinking) > 0 {
			body := blocks(`,"message":{"role":"assistant","content":[`, x.thinking, x.texts)
			body = c.appendModel(append(body, ']'), meta)
			last = c.add("message", nd.key, last, ms, appendMS(body, ms))
		}
	case role == "tool":
		answered := calls.find(name)
		if answered == nil {
			// A tool that spoke unasked (a file search announcing the
			// uploads, a spinner): nothing to pair it with.
			last, kept = c.keep(orDefault(ct, "tool"), nd.key, last, ms, nd.message), true
			break
		}
		b := append([]byte(`,"message":{"role":"toolResult","toolCallId":`), jsjson.AppendString(nil, answered.id)...)
		b = append(b, `,"toolName":`...)
		b = jsjson.AppendString(b, orDefault(name, answered.name))
		b = blocks(string(b)+`,"content":[`, nil, x.texts)
		b = append(b, `],"isError":false`...)
		last = c.add("message", nd.key, last, ms, appendMS(b, ms))
	case role == "system" || role == "developer":
		if len(x.texts) > 0 {
			last = c.customMessage("system", nd.key, last, ms, x.texts)
		}
	default:
		last, kept = c.keep(orDefault(role, "unknown"), nd.key, last, ms, nd.message), true
	}
	if x.lost != "" && !kept {
		last = c.keep(x.lost, nd.key+"-raw", last, ms, nd.message)
	}
	return last, calls
}

// customMessage adds a custom_message entry: in the model's context, not
// shown to the user.
func (c *converter) customMessage(what, id string, parent int, ms int64, texts []string) int {
	b := append([]byte(`,"customType":`), jsjson.AppendString(nil, "chatgpt."+what)...)
	b = blocks(string(b)+`,"content":[`, nil, texts)
	return c.add("custom_message", id, parent, ms, append(b, `],"display":false`...))
}

// appendModel appends the model that wrote a message: its own slug, else
// the conversation's.
func (c *converter) appendModel(b []byte, meta map[string]json.RawMessage) []byte {
	model := orDefault(str(meta["model_slug"]), c.defaultModel)
	if model == "" {
		return b
	}
	b = append(b, `,"provider":"openai"`...)
	return jsjson.AppendString(append(b, `,"model":`...), model)
}

// blocks appends to prefix the thinking and then the text blocks, comma
// separated.
func blocks(prefix string, thinking, texts []string) []byte {
	b := []byte(prefix)
	n := 0
	for _, s := range thinking {
		if n > 0 {
			b = append(b, ',')
		}
		b = jsjson.AppendString(append(b, `{"type":"thinking","thinking":`...), s)
		b = append(b, '}')
		n++
	}
	for _, s := range texts {
		if n > 0 {
			b = append(b, ',')
		}
		b = jsjson.AppendString(append(b, `{"type":"text","text":`...), s)
		b = append(b, '}')
		n++
	}
	return b
}

// appendMS closes a message with its time.
func appendMS(b []byte, ms int64) []byte {
	b = strconv.AppendInt(append(b, `,"timestamp":`...), ms, 10)
	return append(b, '}')
}

// appendArguments writes a call's arguments as an object: the call's text
// when it is a JSON object (web.run's queries, dalle's prompt, canvas
// edits), else {"code": ...} for code (python's source, the old
// browser's commands) and {"text": ...} for text.
func appendArguments(b []byte, x extracted) []byte {
	text := x.code
	if !x.isCode {
		text = strings.Join(x.texts, "\n")
	}
	if t := bytes.TrimSpace([]byte(text)); len(t) > 0 && t[0] == '{' && jscan.Valid(t) {
		return jsjson.AppendValue(b, t)
	}
	if text == "" {
		return append(b, "{}"...)
	}
	if !x.isCode {
		return append(jsjson.AppendString(append(b, `{"text":`...), text), '}')
	}
	b = jsjson.AppendString(append(b, `{"code":`...), text)
	if x.language != "" && x.language != "unknown" {
		b = jsjson.AppendString(append(b, `,"language":`...), x.language)
	}
	return append(b, '}')
}
