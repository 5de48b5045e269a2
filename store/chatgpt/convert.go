package chatgpt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/internal/utf8js"
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
// user message; prev is the one before it. A link whose answered is set is
// no call but a mark: the call it names got its result above this point.
type call struct {
	name, id string
	prev     *call
	answered *call
}

// answer returns the calls with c marked as answered, for what follows
// its result.
func (calls *call) answer(c *call) *call { return &call{prev: calls, answered: c} }

// maxCallSearch bounds the walk back over a turn's calls for the one a
// tool's reply answers: a turn has tens of calls, a hostile file millions.
const maxCallSearch = 1000

// find returns the nearest call to tool (any call when the tool has no
// name), and whether its result was written already.
func (c *call) find(tool string) (found *call, answered bool) {
	var marks []*call
	for k := 0; c != nil && k < maxCallSearch; c, k = c.prev, k+1 {
		if c.answered != nil {
			marks = append(marks, c.answered)
		} else if tool == "" || sameTool(c.name, tool) {
			return c, slices.Contains(marks, c)
		}
	}
	return nil, false
}

// result is a call's result not written yet: a tool's reply, and those
// that follow it answering the same call (a browsing display then the
// pages quoted, DALL·E's image then its note). pi pairs one result with a
// call, so they become one result, written when the run ends.
type result struct {
	call   *call
	attach int    // the entry above the first reply
	id     string // the first reply's node: the result's entry id
	name   string
	texts  []string
	ms     int64     // the last reply's time
	kept   []keptRaw // the replies' originals to keep after the result
}

// keptRaw is a reply's original message, kept because its conversion
// leaves something out.
type keptRaw struct {
	what, id string
	ms       int64
	raw      json.RawMessage
}

// with returns r extended by one more reply; r itself is left as it was,
// since each branch below a reply extends it on its own.
func (r *result) with(texts []string, ms int64, kept *keptRaw) *result {
	n := *r
	n.texts = append(slices.Clip(r.texts), texts...)
	n.ms = ms
	if kept != nil {
		n.kept = append(slices.Clip(r.kept), *kept)
	}
	return &n
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

// convert reads one conversation of an export; when it is not an object
// with a mapping object, it says why not.
func convert(raw json.RawMessage) (_ Conversation, whyNot string) {
	conv := objectOf(raw)
	if conv == nil {
		return Conversation{}, "not a conversation but " + kindOf(raw)
	}
	t, ok := readTree(conv["mapping"], str(conv["current_node"]))
	if !ok {
		if _, there := conv["messages"]; there && !nonEmpty(conv["mapping"]) {
			return Conversation{}, "it has no mapping but a messages member, a shape of ChatGPT's export no source shows: not read"
		}
		if mapping, there := conv["mapping"]; there {
			return Conversation{}, "its mapping (the messages) is " + kindOf(mapping) + ": the export holds no messages of it"
		}
		return Conversation{}, "it has no mapping (the messages): the export holds no messages of it"
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
	return Conversation{ID: id, Title: title, Lines: b}, ""
}

// kindOf names a JSON value's kind, for a reason given.
func kindOf(raw json.RawMessage) string {
	switch {
	case len(raw) == 0:
		return "nothing"
	case raw[0] == '{':
		return "an object"
	case raw[0] == '[':
		return "a list"
	case raw[0] == '"':
		return "a string"
	case string(raw) == "null":
		return "null"
	case string(raw) == "true" || string(raw) == "false":
		return "a boolean"
	}
	return "a number"
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
	return utf8js.Trim(b.String())
}

// walk converts the nodes depth first, every parent before its children
// and the current path last, and returns the entry the current node ends
// at (the nearest one above it when it gives none), -1 for none.
func (c *converter) walk(t *tree, base int64) int {
	type frame struct {
		node, attach int
		calls        *call
		run          *result // the result the node's reply continues, if any
	}
	var stack, kids []frame
	push := func(list []frame) {
		// The child on the path to the current node goes last.
		for k, f := range list {
			if t.onPath[f.node] {
				list = append(slices.Delete(list, k, k+1), f)
				break
			}
		}
		for k := len(list) - 1; k >= 0; k-- {
			stack = append(stack, list[k])
		}
	}
	kids = kids[:0]
	for _, r := range t.roots {
		kids = append(kids, frame{r, -1, nil, nil})
	}
	push(kids)
	leaf := -1
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		last, calls, run := c.node(&t.nodes[f.node], f.attach, f.calls, f.run, base)
		kids = kids[:0]
		if run == nil {
			for _, ch := range t.children[f.node] {
				kids = append(kids, frame{ch, last, calls, nil})
			}
		} else {
			// A reply: the children that reply to the same call carry the
			// result on; at the others (or the current node, or a leaf) it
			// is written, and they hang from it.
			var rest []int
			for _, ch := range t.children[f.node] {
				if c.continues(&t.nodes[ch], calls, run.call) {
					kids = append(kids, frame{ch, run.attach, calls, run})
				} else {
					rest = append(rest, ch)
				}
			}
			if len(rest) > 0 || len(kids) == 0 || f.node == t.current {
				last = c.writeResult(run)
				calls = calls.answer(run.call)
				for _, ch := range rest {
					kids = append(kids, frame{ch, last, calls, nil})
				}
			}
		}
		if f.node == t.current {
			leaf = last
		}
		push(kids)
	}
	return leaf
}

// continues reports whether nd is a tool's reply to call, the call a reply
// before it answered.
func (c *converter) continues(nd *node, calls, answered *call) bool {
	m := objectOf(nd.message)
	author := objectOf(m["author"])
	if str(author["role"]) != "tool" {
		return false
	}
	found, done := calls.find(str(author["name"]))
	return found == answered && !done
}

// writeResult adds a call's result, its replies' texts in order, then the
// originals kept of them, and returns the last entry.
func (c *converter) writeResult(r *result) int {
	b := append([]byte(`,"message":{"role":"toolResult","toolCallId":`), jsjson.AppendString(nil, r.call.id)...)
	b = append(b, `,"toolName":`...)
	b = jsjson.AppendString(b, r.name)
	b = blocks(string(b)+`,"content":[`, nil, r.texts)
	b = append(b, `],"isError":false`...)
	last := c.add("message", r.id, r.attach, r.ms, appendMS(b, r.ms))
	for _, k := range r.kept {
		last = c.keep(k.what, k.id, last, k.ms, k.raw)
	}
	return last
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
// children hang from and the calls in force below it; a tool's reply to a
// call gives no entry but the result it starts, or run extended by it.
func (c *converter) node(nd *node, parent int, calls *call, run *result, base int64) (int, *call, *result) {
	ms := base
	if parent >= 0 {
		ms = c.entries[parent].ms
	}
	if nd.message == nil {
		return parent, calls, nil
	}
	m := objectOf(nd.message)
	if m == nil {
		return c.keep("message", nd.key+"-raw", parent, ms, nd.message), calls, nil
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
		answered, done := calls.find(name)
		if answered == nil || done {
			// A tool that spoke unasked (a file search announcing the
			// uploads, a spinner), or to a call whose result is above:
			// nothing to pair it with.
			last, kept = c.keep(orDefault(ct, "tool"), nd.key, last, ms, nd.message), true
			break
		}
		var lost *keptRaw
		if x.lost != "" {
			lost = &keptRaw{x.lost, nd.key + "-raw", ms, nd.message}
		}
		if run == nil {
			run = &result{call: answered, attach: parent, id: nd.key, name: orDefault(name, answered.name)}
		}
		return parent, calls, run.with(x.texts, ms, lost)
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
	return last, calls, nil
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
		b = jsjson.AppendString(append(b, `{"type":"thinking","thinking":`...), lineBreaks(s))
		b = append(b, '}')
		n++
	}
	for _, s := range texts {
		if n > 0 {
			b = append(b, ',')
		}
		b = jsjson.AppendString(append(b, `{"type":"text","text":`...), lineBreaks(s))
		b = append(b, '}')
		n++
	}
	return b
}

// lineBreaks is s with each CRLF a line break (LF): a text pasted from
// Windows showed a ␍ at the end of every line.
func lineBreaks(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

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
