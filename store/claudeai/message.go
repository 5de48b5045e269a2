package claudeai

import (
	"bytes"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// conv is what the messages of one conversation share while it is written.
type conv struct {
	w       *writer
	callIDs map[string]string // a call's id in the export → its id in the session
	callsOf ids               // the toolCall ids given out
}

// call is a tool_use of the message being written.
type call struct {
	orig, id, name string
	paired         bool
}

// msg writes one message: its entries form a chain, each a child of the
// one before.
type msg struct {
	c      *conv
	role   string // "user" or "assistant"
	base   string // the message's uuid, the stem of its entries' ids
	parent string // the entry the next one hangs from
	ms     int64  // that entry's time
	ownMs  int64  // the message's created_at
	hasOwn bool
	n      int // entries written
	msgs   int // message entries written
	calls  []call

	// The part being built: an assistant message is cut at each tool_result.
	blocks   []byte // its content blocks, comma-separated
	nblocks  int
	startMs  int64 // the start_timestamp of its first block that has one
	hasStart bool
	meta     []byte // records of what its blocks hold besides what pi keeps
	deferred []pending
}

// pending is a custom entry waiting for the part it follows.
type pending struct {
	kind string
	data []byte
	ms   int64
	ok   bool
}

// message writes node i after the entry parent (time ms) and returns its
// last entry and that entry's time.
func (c *conv) message(n *node, i int, parent string, ms int64) (string, int64) {
	base := n.uuid
	if base == "" {
		base = "m" + strconv.Itoa(i)
	}
	m := &msg{c: c, base: base, parent: parent, ms: ms, ownMs: n.ms, hasOwn: n.hasMs}
	f, other := pick(n.raw, "sender", "content", "text", "attachments", "files", "files_v2", "stop_reason", "uuid", "parent_message_uuid",
		"created_at", "updated_at", "index", "input_mode")
	sender, _ := jscan.String(f[0])
	switch {
	case !isObject(n.raw):
		m.custom("message", n.raw, 0, false)
		return m.parent, m.ms
	case sender == "human" || sender == "user":
		m.role = "user"
	case sender == "assistant":
		m.role = "assistant"
	default:
		m.custom("message", n.raw, 0, false)
		return m.parent, m.ms
	}
	blocks := blocksOf(f[1])
	text, textOK := jscan.String(f[2])
	if !hasText(blocks) && !onlyPlaceholders(text) {
		m.addText(text) // an export older than content, or content without the text
	}
	for i := range blocks {
		m.block(&blocks[i])
	}
	for _, t := range attachmentTexts(f[3], f[4], f[5]) {
		m.addText(t)
	}
	stop, mapped := stopReason(f[6])
	_, uuidOK := jscan.String(f[7])
	_, parentOK := jscan.String(f[8])
	if other || kept(f[2]) || kept(f[7]) || kept(f[8]) || !mapped {
		m.addMeta(-1, "message", leftovers(n.raw, func(name string) bool {
			switch name {
			case "text":
				return !textOK
			case "uuid":
				return !uuidOK
			case "parent_message_uuid":
				return !parentOK
			case "stop_reason":
				return !mapped
			}
			return !messageKeys[name]
		}))
	}
	m.flush(stop, m.msgs == 0)
	return m.parent, m.ms
}

// messageKeys are a message's members that its entries carry, or that say
// nothing its entries do not: its times, its place in the array (index),
// files_v2 (a second list of its files), input_mode. The flattened text
// is left out when the content has the text (claude.ai derives it from
// the content, with a placeholder for each block it cannot flatten).
var messageKeys = map[string]bool{
	"content": true, "sender": true, "created_at": true, "updated_at": true, "index": true,
	"attachments": true, "files": true, "files_v2": true, "input_mode": true,
}

// block adds a block of the message's content.
func (m *msg) block(b *block) {
	switch {
	case b.isStr:
		m.addText(b.str)
	case isNull(b.raw):
	case !isObject(b.raw):
		m.custom("block", b.raw, 0, false)
	case b.typ == "text":
		m.noteStart(b.start, b.hasStart)
		m.addRaw("text", b.text)
		if b.other || kept(b.text) || some(b.thinking, b.id, b.name, b.input, b.toolUseID, b.content, b.isError) {
			m.addMeta(b.k, b.typ, leftovers(b.raw, b.notCarried("text")))
		}
	case b.typ == "thinking" && m.role == "assistant":
		m.noteStart(b.start, b.hasStart)
		m.addRaw("thinking", b.thinking)
		if b.other || kept(b.thinking) || some(b.text, b.id, b.name, b.input, b.toolUseID, b.content, b.isError) {
			m.addMeta(b.k, b.typ, leftovers(b.raw, b.notCarried("thinking")))
		}
	case b.typ == "tool_use" && m.role == "assistant":
		m.noteStart(b.start, b.hasStart)
		m.toolUse(b)
	case b.typ == "tool_result":
		m.toolResult(b)
	default:
		// voice_note, token_budget, a thinking or tool_use in a prompt, and
		// whatever claude.ai adds next: kept whole where it was.
		m.custom(kindName(b.typ), b.raw, b.start, b.hasStart)
	}
}

func (m *msg) addText(s string) {
	if s != "" {
		m.next()
		m.blocks = append(m.blocks, `{"type":"text","text":`...)
		m.blocks = jsjson.AppendString(m.blocks, lineBreaks(s))
		m.blocks = append(m.blocks, '}')
	}
}

// lineBreaks is s with each CRLF a line break (LF): a text pasted from
// Windows showed a ␍ at the end of every line.
func lineBreaks(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// crlfText is a JSON string's text with its CRLFs made line breaks, when
// it holds one (only then is it decoded).
func crlfText(raw []byte) (string, bool) {
	if !bytes.Contains(raw, []byte(`\r\n`)) {
		return "", false
	}
	s, ok := jscan.Unquote(raw)
	if !ok || !strings.Contains(s, "\r\n") {
		return "", false
	}
	return lineBreaks(s), true
}

// addRaw adds a text or thinking block of a raw string (nothing for an
// empty one, or a value that is not a string): copied as it is when
// JSON.stringify would write it so.
func (m *msg) addRaw(typ string, raw []byte) {
	if !jscan.IsString(raw) || len(raw) <= 2 {
		return
	}
	m.next()
	m.blocks = append(m.blocks, `{"type":"`...)
	m.blocks = append(m.blocks, typ...)
	m.blocks = append(m.blocks, `","`...)
	m.blocks = append(m.blocks, typ...)
	m.blocks = append(m.blocks, `":`...)
	if s, ok := crlfText(raw); ok {
		m.blocks = jsjson.AppendString(m.blocks, lineBreaks(s))
	} else {
		m.blocks = jsjson.AppendValue(m.blocks, raw)
	}
	m.blocks = append(m.blocks, '}')
}

func (m *msg) add(block []byte) {
	m.next()
	m.blocks = append(m.blocks, block...)
}

// next starts a block of the part being built.
func (m *msg) next() {
	if m.nblocks > 0 {
		m.blocks = append(m.blocks, ',')
	}
	m.nblocks++
}

func (m *msg) noteStart(ms int64, ok bool) {
	if ok && !m.hasStart {
		m.startMs, m.hasStart = ms, true
	}
}

// addMeta notes what block k (-1: the message itself) holds besides what
// its entry keeps.
func (m *msg) addMeta(k int, typ string, fields []byte) {
	if fields == nil {
		return
	}
	if m.meta == nil {
		m.meta = append(m.meta, '[')
	} else {
		m.meta = append(m.meta, ',')
	}
	if k >= 0 {
		m.meta = append(m.meta, `{"block":`...)
		m.meta = strconv.AppendInt(m.meta, int64(k), 10)
		m.meta = append(m.meta, ',')
	} else {
		m.meta = append(m.meta, '{')
	}
	m.meta = append(m.meta, `"type":`...)
	m.meta = jsjson.AppendString(m.meta, typ)
	m.meta = append(m.meta, `,"fields":`...)
	m.meta = append(m.meta, fields...)
	m.meta = append(m.meta, '}')
}

// toolUse adds a tool call. Its id is the block's, else the one claude.ai
// puts in the input (_tool_call_id), else made up.
func (m *msg) toolUse(b *block) {
	input := b.input
	orig, _ := jscan.String(b.id)
	if orig == "" {
		orig, _ = jscan.String(member(input, "_tool_call_id"))
	}
	id := orig
	if id == "" {
		id = m.base + "-call" + strconv.Itoa(len(m.calls)+1)
	}
	id = m.c.callsOf.take(id)
	if orig != "" {
		m.c.callIDs[orig] = id
	}
	name, _ := jscan.String(b.name)
	m.calls = append(m.calls, call{orig: orig, id: id, name: name})

	out := append([]byte(`{"type":"toolCall","id":`), jsjson.AppendString(nil, id)...)
	out = append(out, `,"name":`...)
	out = jsjson.AppendString(out, name)
	out = append(out, `,"arguments":`...)
	keepInput := !isObject(input)
	if keepInput {
		out = append(out, "{}"...)
	} else {
		out = jsjson.AppendValue(out, input)
	}
	m.add(append(out, '}'))
	carried := b.notCarried("id", "name")
	fields := leftovers(b.raw, func(n string) bool { return carried(n) && (n != "input" || keepInput) })
	if fields != nil {
		// The call's id in the session, to find the call the record is of.
		fields = append(append([]byte(`{"toolCallId":`), jsjson.AppendString(nil, id)...), append([]byte{','}, fields[1:]...)...)
	}
	m.addMeta(b.k, "tool_use", fields)
}

// toolResult ends the part before it and writes the result. It answers the
// call its tool_use_id names; without one, the first unanswered call of
// the message with its name, or the first unanswered call when it names
// none.
func (m *msg) toolResult(b *block) {
	if m.role == "assistant" {
		m.flush("toolUse", false)
	} else {
		m.flush("", false)
	}
	name, _ := jscan.String(b.name)
	tuid, _ := jscan.String(b.toolUseID)
	id, callName := "", ""
	match := -1
	for j := range m.calls {
		c := &m.calls[j]
		if c.paired {
			continue
		}
		if tuid != "" && c.orig == tuid || tuid == "" && name != "" && c.name == name {
			match = j
			break
		}
	}
	if match < 0 && tuid == "" && name == "" {
		for j := range m.calls {
			if !m.calls[j].paired {
				match = j
				break
			}
		}
	}
	switch {
	case match >= 0:
		m.calls[match].paired = true
		id, callName = m.calls[match].id, m.calls[match].name
	case tuid != "":
		id = tuid // a call of an earlier message, or of none
		if mapped, ok := m.c.callIDs[tuid]; ok {
			id = mapped
		}
	default:
		id = m.c.callsOf.take(m.base + "-result" + strconv.Itoa(b.k))
	}
	if name == "" {
		name = callName
	}
	isErr := string(b.isError) == "true"
	ms := m.timeFor(b.start, b.hasStart)
	w := m.c.w
	entryID := m.nextID()
	w.begin("message", entryID, m.parent, ms)
	w.buf = append(w.buf, `,"message":{"role":"toolResult","toolCallId":`...)
	w.buf = jsjson.AppendString(w.buf, id)
	w.buf = append(w.buf, `,"toolName":`...)
	w.buf = jsjson.AppendString(w.buf, name)
	w.buf = append(w.buf, `,"content":`...)
	w.buf = appendResultContent(w.buf, b.content)
	w.buf = append(w.buf, `,"isError":`...)
	w.buf = strconv.AppendBool(w.buf, isErr)
	w.buf = append(w.buf, `,"timestamp":`...)
	w.buf = strconv.AppendInt(w.buf, ms, 10)
	w.buf = append(w.buf, '}')
	w.end()
	m.parent, m.ms = entryID, ms
	m.msgs++
	carried := b.notCarried("tool_use_id", "name")
	m.addMeta(b.k, "tool_result", leftovers(b.raw, func(n string) bool {
		return carried(n) && n != "content" && (n != "is_error" || !isErr)
	}))
	m.flushMeta()
}

// custom writes a block, or a message, that pi has no place for, where it
// was: at once when the part being built is empty, else after that part.
func (m *msg) custom(kind string, data []byte, start int64, hasStart bool) {
	p := pending{kind: kind, data: data, ms: start, ok: hasStart}
	if m.nblocks > 0 {
		m.deferred = append(m.deferred, p)
		return
	}
	m.flushMeta()
	m.writeCustom(p)
}

func (m *msg) writeCustom(p pending) {
	ms := m.timeFor(p.ms, p.ok)
	id := m.nextID()
	m.c.w.custom(id, m.parent, ms, p.kind, p.data)
	m.parent, m.ms = id, ms
}

// flushMeta writes the records of the part just written, if any.
func (m *msg) flushMeta() {
	if m.meta == nil {
		return
	}
	data := append(m.meta, ']')
	m.meta = nil
	id := m.nextID()
	m.c.w.custom(id, m.parent, m.ms, "meta", data)
	m.parent = id
}

// flush writes the part being built: its message entry (also an empty one
// when force is set), then its records and the customs it was waiting for.
func (m *msg) flush(stop string, force bool) {
	if m.nblocks > 0 || force {
		ms := m.timeFor(m.startMs, m.hasStart)
		w := m.c.w
		id := m.nextID()
		w.begin("message", id, m.parent, ms)
		w.buf = append(w.buf, `,"message":{"role":`...)
		w.buf = jsjson.AppendString(w.buf, m.role)
		w.buf = append(w.buf, `,"content":[`...)
		w.buf = append(w.buf, m.blocks...)
		w.buf = append(w.buf, ']')
		if m.role == "assistant" {
			w.buf = append(w.buf, `,"provider":"anthropic","model":"claude.ai"`...)
			if stop != "" {
				w.buf = append(w.buf, `,"stopReason":`...)
				w.buf = jsjson.AppendString(w.buf, stop)
			}
		}
		w.buf = append(w.buf, `,"timestamp":`...)
		w.buf = strconv.AppendInt(w.buf, ms, 10)
		w.buf = append(w.buf, '}')
		w.end()
		m.parent, m.ms = id, ms
		m.msgs++
	}
	m.blocks, m.nblocks, m.hasStart = m.blocks[:0], 0, false
	m.flushMeta()
	deferred := m.deferred
	m.deferred = nil
	for _, p := range deferred {
		m.writeCustom(p)
	}
}

// timeFor is an entry's time: the message's own for its first entry, else
// the time its block started, else the time of the entry before it.
func (m *msg) timeFor(start int64, hasStart bool) int64 {
	switch {
	case m.n == 0 && m.hasOwn:
		return m.ownMs
	case hasStart:
		return start
	}
	return m.ms
}

// nextID is the id of the message's next entry: its uuid, then the uuid
// with -1, -2, ...
func (m *msg) nextID() string {
	base := m.base
	if m.n > 0 {
		base += "-" + strconv.Itoa(m.n)
	}
	m.n++
	return m.c.w.ids.take(base)
}
