package dhara

import (
	"bytes"
	"strconv"
	"time"

	"skein/internal/hugemem"
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/internal/par"
	"skein/internal/randid"
	"skein/model"
)

// Built is a session in Dhara's model, made from a session of any format:
// what an import writes as a new folder and what the json export prints.
type Built struct {
	ID      string
	Meta    []byte   // meta.json's object
	Entries [][]byte // entries.jsonl's lines
	Tree    []byte   // tree.json's object
}

// FromSession is the session s (of any format) in Dhara's model
// (DECISIONS.md): every message, its content blocks (text, thinking,
// images with their data), a message's tool calls as tool_call entries
// after it naming it, results as tool_result entries; compactions over the
// entries their context leaves out; model changes and labels; anything
// else as a custom entry holding the source's record. Branches are the
// source tree's leaves, the one the source resumes at last (the active
// one). meta holds extra members for meta.json (an import's source).
func FromSession(s *model.Session, now time.Time, meta []Field) Built {
	b := build(s, now)
	out := Built{ID: b.id, Tree: b.treeBytes(b.branches(isoMs(now))), Entries: make([][]byte, len(b.lines))}
	par.Range(len(b.lines), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			out.Entries[k] = b.lines[k].build()
		}
	})
	out.Meta = b.metaJSON(now, "", meta)
	return out
}

func isoMs(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// build makes the lines of s in Dhara's model: everything but their bytes
// and tree.json's.
func build(s *model.Session, now time.Time) *builder {
	b := &builder{s: s, ids: make(map[string]bool, s.Len()+s.Len()/4), last: make([]string, s.Len()), first: make([]string, s.Len()), calls: map[string]string{}, lines: make([]line, 0, s.Len()+s.Len()/4)}
	b.id = newFolderID()
	b.notes = s.SideNotes()
	b.lastTS = isoMs(now)
	if t, ok := jsdate.ISO(s.Info.Created); ok {
		b.lastTS = t
	}
	order := s.ParentsFirst()
	ready, all := b.prepare()
	for _, i := range order {
		ready(i)
		b.entry(i)
	}
	all()
	b.pairTools()
	b.compactions()
	return b
}

// metaJSON is meta.json's object: the seed's members, then meta's. Its
// updatedAt is updated, or now when that is "".
func (b *builder) metaJSON(now time.Time, updated string, meta []Field) []byte {
	s := b.s
	nowISO := isoMs(now)
	m := []byte(`{"id":`)
	m = jsjson.AppendString(m, b.id)
	title := s.Name()
	if title == "" {
		title = s.Info.Name
	}
	if title == "" && s.Info.FirstMessage != model.NoMessages {
		title = s.Info.FirstMessage // what the source's agent lists it by
	}
	if title != "" {
		m = append(m, `,"title":`...)
		m = jsjson.AppendString(m, title)
	}
	created := nowISO
	if c, ok := jsdate.ISO(s.Info.Created); ok {
		created = c
	} else if len(b.lines) > 0 && b.lines[0].ts != "" {
		created = b.lines[0].ts
	}
	m = append(m, `,"createdAt":`...)
	m = jsjson.AppendString(m, created)
	if updated == "" {
		updated = nowISO
	}
	m = append(m, `,"updatedAt":`...)
	m = jsjson.AppendString(m, updated)
	if ctx := s.BuildContext(s.Leaf()); ctx.Model != nil {
		ref := ctx.Model
		if p, ok := jsonStr(ref.Provider); ok && p != "" {
			m = append(m, `,"provider":`...)
			m = jsjson.AppendString(m, p)
		}
		if id, ok := jsonStr(ref.ModelID); ok && id != "" {
			m = append(m, `,"model":`...)
			m = jsjson.AppendString(m, id)
		}
	}
	m = append(m, `,"formatVersion":"0.1.0"`...)
	if s.Info.Cwd != "" {
		m = append(m, `,"cwd":`...)
		m = jsjson.AppendString(m, s.Info.Cwd)
	}
	for _, f := range meta {
		if f.Value != nil {
			m = append(m, ',')
			m = jsjson.AppendString(m, f.Key)
			m = append(m, ':')
			m = append(m, f.Value...)
		}
	}
	return append(m, '}')
}

func jsonStr(raw []byte) (string, bool) { return jscan.String(raw) }

// timed reports whether ts is a time JavaScript's Date reads.
func timed(ts string) bool {
	t := jsdate.Parse(ts)
	return t == t
}

// newFolderID is a new session's id and folder name: 16 hex digits, never
// anything a file says.
func newFolderID() string { return randid.Hex(8) }

type line struct {
	id, typ, ts string
	fields      []Field
	parent      string // the Dhara id of its parent entry, "" for a root
	source      int    // the source entry it came from
}

func (l *line) build() []byte { return entryLine(l.id, l.typ, l.fields, l.ts) }

// size is about how many bytes the line is (no fewer).
func (l *line) size() int { return entryLineSize(l.id, l.typ, l.fields, l.ts) }

// appendTo appends the line's bytes to dst.
func (l *line) appendTo(dst []byte) []byte { return appendEntryLine(dst, l.id, l.typ, l.fields, l.ts) }

type builder struct {
	s     *model.Session
	id    string
	ids   map[string]bool
	lines []line
	// first and last are, per source entry, the Dhara ids of its first and
	// last lines ("" when it gave none); a child goes after the last.
	first, last []string
	compact     []int             // lines that are compactions, filled in last
	calls       map[string]string // a source call id -> its tool_call's id
	lastTS      string            // the last timestamp given
	bySource    map[int][]string  // linesOf's, made once the lines are
	notes       []bool            // the source's side notes (model.Session.SideNotes)
	pre         []prepared        // per source entry, what prepare made of it
	kind        []model.EntryKind // per source entry, its kind (a source's Entry can cost)
	sourceID    string            // entryID's: the source id the next add keeps
	seq         int               // the last number entryID gave
	quotes      map[string][]byte // quoted's
}

// prepared is what an entry gives that does not depend on the entries
// before it, made on every core ahead of the walk: a message and its
// content (and its calls' inputs) in Dhara's shape, or the record a custom
// entry keeps.
type prepared struct {
	msg     model.Message
	content []byte
	inputs  [][]byte       // a message's calls' inputs, on one line
	data    []byte         // a custom entry's data
	ts      string         // the entry's ownTime
	ctx     *model.Context // a compaction's: the source's context at it
}

// ownTime is entry e's time (at index i): its own when JavaScript's Date
// reads it, else its message's, else "" (add gives it the one before).
func (b *builder) ownTime(i int, e model.Entry) string {
	if ts := e.Timestamp; ts != "" && timed(ts) {
		return ts
	}
	if m := b.s.MessageHead(model.ContextMessage{Entry: i}); m.HasTime {
		ts, _ := jsdate.ISO(m.Time)
		return ts
	}
	return ""
}

// prepare makes each entry's prepared, on every core, ahead of the walk
// over the entries, which waits on ready(i) before it reads what prepare
// made of entry i; all waits for it all.
func (b *builder) prepare() (ready func(i int), all func()) {
	s := b.s
	b.pre = make([]prepared, s.Len())
	b.kind = make([]model.EntryKind, s.Len())
	return par.Ahead(s.Len(), 512, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			p := &b.pre[i]
			e := s.Entry(i)
			b.kind[i] = e.Kind
			p.ts = b.ownTime(i, e)
			switch e.Kind {
			case model.EntryMessage:
				p.msg = s.MessageLiteral(model.ContextMessage{Entry: i})
				switch p.msg.Role {
				case model.RoleUser, model.RoleAssistant, model.RoleSystem, model.RoleToolResult:
					p.content = contentJSON(p.msg.Blocks)
					for _, c := range p.msg.ToolCalls() {
						p.inputs = append(p.inputs, oneLineInput(c.Input))
					}
					p.msg.Blocks = callsOnly(p.msg.Blocks)
				default:
					p.data = b.customData(i)
				}
			case model.EntryCompaction:
				// The source's context at it: what it keeps, and its range.
				c := s.BuildContext(i)
				p.ctx = &c
			case model.EntryModelChange, model.EntryLabel:
			default:
				p.data = b.customData(i)
			}
		}
	})
}

// callsOnly is the tool calls of blocks, without their inputs: what the
// walk still reads of a message once its content is made (the text goes
// at once, not when the walk reaches it: less for the collector to scan).
func callsOnly(blocks []model.Block) []model.Block {
	var out []model.Block
	for _, blk := range blocks {
		if blk.Type == model.BlockToolCall {
			blk.Call.Input = nil
			out = append(out, model.Block{Type: blk.Type, Call: blk.Call})
		}
	}
	return out
}

// oneLineInput is a call's input as Dhara's entry holds it: the object on
// one line, {} when it is none.
func oneLineInput(raw []byte) []byte {
	input := bytes.TrimSpace(raw)
	if len(input) == 0 || !jscan.Valid(input) {
		return []byte("{}")
	}
	return jsjson.AppendValue(make([]byte, 0, len(input)), input)
}

// maxSourceID is the longest source id a line keeps as its own.
const maxSourceID = 16

// entryID is the id of the line of a source entry whose id is id: that id
// when it is short, else a short one of skein's, and the next add keeps
// the source's as sourceId. tree.json lists a line's id once for each
// branch through it, and a Claude Code UUID is 36 bytes: a 100 MB log of
// 117 rewinds gave 105 MB of tree.json, 37 MB with short ids. A call's
// id is never replaced: results and providers name it.
func (b *builder) entryID(id, kind string) string {
	if len(id) <= maxSourceID {
		return b.unique(id, kind)
	}
	b.sourceID = id
	b.seq++
	return b.unique(kindPrefix(kind)+"_"+strconv.Itoa(b.seq), kind)
}

// quoted is s as a JSON string, made once for each s: roles, models and
// tool names repeat on every line.
func (b *builder) quoted(s string) []byte {
	if q, ok := b.quotes[s]; ok {
		return q
	}
	q := jsonString(s)
	q = q[:len(q):len(q)] // shared: an append to it copies
	if b.quotes == nil {
		b.quotes = map[string][]byte{}
	}
	if len(b.quotes) < 1024 {
		b.quotes[s] = q
	}
	return q
}

// unique is id when no line has it yet, else id with a suffix.
func (b *builder) unique(id, kind string) string {
	if id == "" {
		id = kindPrefix(kind) + "_" + newFolderID()
	}
	for k := 2; b.ids[id]; k++ {
		id = id + "~" + strconv.Itoa(k)
	}
	b.ids[id] = true
	return id
}

// parentOf is the Dhara id a source entry's first line goes after: the last
// line of its parent (or of the nearest ancestor that gave one).
func (b *builder) parentOf(i int) string {
	for p := b.s.Parent(i); p >= 0; p = b.s.Parent(p) {
		if b.last[p] != "" {
			return b.last[p]
		}
	}
	return ""
}

func (b *builder) add(i int, id, typ, ts string, fields []Field) {
	// Every entry has a timestamp: one the source gives none (ts is
	// ownTime's) takes the entry's before it (or the import's time).
	if ts == "" {
		ts = b.lastTS
	} else {
		b.lastTS = ts
	}
	parent := b.parentOf(i)
	if b.last[i] != "" {
		parent = b.last[i]
	}
	if b.sourceID != "" {
		fields = append(fields, Field{Key: "sourceId", Value: jsonString(b.sourceID)})
		b.sourceID = ""
	}
	b.lines = append(b.lines, line{id: id, typ: typ, ts: ts, fields: fields, parent: parent, source: i})
	if b.first[i] == "" {
		b.first[i] = id
	}
	b.last[i] = id
	if b.notes[i] {
		// A side note: what follows its parent follows it, so that it is
		// no branch of its own.
		if p := b.s.Parent(i); p >= 0 && b.last[p] != "" {
			b.last[p] = id
		}
	}
}

func (b *builder) entry(i int) {
	s := b.s
	e := s.Entry(i)
	ts := b.pre[i].ts // prepare made it (the walk waited for it)
	switch e.Kind {
	case model.EntryMessage:
		p := b.prepared(i)
		msg := p.msg
		switch msg.Role {
		case model.RoleUser, model.RoleAssistant, model.RoleSystem:
			id := b.entryID(e.ID, TypeMessage)
			typ := TypeMessage
			fields := []Field{{Key: "role", Value: b.quoted(msg.Role)}, {Key: "content", Value: p.content}}
			if msg.Role == model.RoleSystem {
				typ = TypeSystem
				fields = fields[1:]
			}
			if msg.Model != "" {
				fields = append(fields, Field{Key: "model", Value: b.quoted(msg.Model)})
			}
			if msg.Provider != "" {
				fields = append(fields, Field{Key: "provider", Value: b.quoted(msg.Provider)})
			}
			if msg.StopReason != "" {
				fields = append(fields, Field{Key: "stopReason", Value: b.quoted(msg.StopReason)})
			}
			if msg.Error != "" {
				// Why an answer failed: the seed has no member for it, and
				// Dhara keeps unknown ones (an import lost it).
				fields = append(fields, Field{Key: "errorMessage", Value: jsonString(msg.Error)})
			}
			if msg.Usage != nil {
				fields = append(fields, Field{Key: "usage", Value: usageJSON(msg.Usage)})
			}
			b.add(i, id, typ, ts, fields)
			for k, c := range msg.ToolCalls() {
				input := p.inputs[k]
				callID := b.unique(c.ID, TypeToolCall)
				b.calls[c.ID] = callID
				b.add(i, callID, TypeToolCall, ts, []Field{
					{Key: "toolName", Value: b.quoted(c.Name)}, {Key: "input", Value: input}, {Key: "parentMessageId", Value: jsonString(id)}})
			}
		case model.RoleToolResult:
			callID := msg.ToolCallID
			if id, ok := b.calls[callID]; ok {
				callID = id
			}
			fields := []Field{{Key: "callId", Value: jsonString(callID)}, {Key: "content", Value: p.content}, {Key: "isError", Value: []byte(strconv.FormatBool(msg.IsError))}}
			if msg.ToolName != "" {
				fields = append(fields, Field{Key: "toolName", Value: b.quoted(msg.ToolName)})
			}
			b.add(i, b.entryID(e.ID, TypeToolResult), TypeToolResult, ts, fields)
		default:
			b.pre[i].data = p.data // prepared(i) gave it away with the rest
			b.custom(i, e, ts)
		}
	case model.EntryCompaction:
		msg := s.Message(model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary})
		b.add(i, b.entryID(e.ID, TypeCompaction), TypeCompaction, ts, []Field{
			{Key: "summary", Value: jsonString(msg.Summary)},
			{Key: "tokensBefore", Value: []byte(jsjson.FormatNumber(msg.TokensBefore))}})
		b.compact = append(b.compact, len(b.lines)-1)
		// What the compaction itself keeps in its format's context (Codex's
		// replacement history: the prompts, the instructions), which a
		// Dhara compaction, hiding the entries before it, cannot name:
		// written again after it.
		for _, m := range model.KeptIn(*b.pre[i].ctx, i) {
			msg := s.Message(m)
			// Marked synthetic: a copy, not a message of the conversation.
			typ, fields := TypeMessage, []Field{{Key: "role", Value: b.quoted(msg.Role)}, {Key: "content", Value: contentJSON(msg.Blocks)}, {Key: "synthetic", Value: []byte("true")}}
			if msg.Role != model.RoleUser && msg.Role != model.RoleAssistant {
				typ, fields = TypeSystem, fields[1:]
			}
			b.add(i, b.unique("", typ), typ, ts, fields)
		}
	case model.EntryModelChange:
		d := s.Detail(i)
		b.add(i, b.entryID(e.ID, TypeModelChange), TypeModelChange, ts, []Field{
			{Key: "provider", Value: jsonString(d.Provider)}, {Key: "model", Value: jsonString(d.Model)}})
	case model.EntryLabel:
		d := s.Detail(i)
		target := d.Target
		if j, ok := s.Index(d.Target); ok && b.first[j] != "" {
			target = b.first[j]
		}
		b.add(i, b.entryID(e.ID, TypeLabel), TypeLabel, ts, []Field{
			{Key: "targetId", Value: jsonString(target)}, {Key: "label", Value: jsonString(d.Label)}})
	default:
		b.custom(i, e, ts)
	}
}

// custom keeps an entry with no home in Dhara's model: its record, as the
// source stored it, under a customType naming its format and type.
func (b *builder) custom(i int, e model.Entry, ts string) {
	format := b.s.Info.Format
	if format == "" {
		format = "pi"
	}
	kind := e.Type
	if e.Kind == model.EntryMessage && e.Role != "" {
		kind = e.Type + "." + e.Role
	}
	data := b.pre[i].data
	if data == nil {
		data = b.customData(i)
	}
	b.pre[i].data = nil
	b.add(i, b.entryID(e.ID, TypeCustom), TypeCustom, ts, []Field{
		{Key: "customType", Value: jsonString(format + "." + kind)}, {Key: "data", Value: data}})
}

// customData is the data of the custom entry that keeps entry i: its
// record on one line (a JSON string of its bytes when it is no JSON).
func (b *builder) customData(i int) []byte {
	data := b.s.Raw(i)
	if len(data) == 0 || !validJSON(data) {
		data = jsonString(string(data))
	}
	return jsjson.AppendValue(make([]byte, 0, len(data)), data)
}

// prepared is what prepare made of entry i, given once (its memory goes
// with the line that holds it).
func (b *builder) prepared(i int) prepared {
	p := b.pre[i]
	b.pre[i] = prepared{}
	return p
}

// pairTools makes every call and result a pair, as Dhara's model wants:
// a result whose call is none of the session's is kept as custom data; a
// call with no result (the source recorded none, or the session stopped)
// gets one that says so, and what followed the call follows it.
func (b *builder) pairTools() {
	calls, answered := map[string]bool{}, map[string]bool{}
	for _, l := range b.lines {
		if l.typ == TypeToolCall {
			calls[l.id] = true
		}
	}
	for k := range b.lines {
		l := &b.lines[k]
		if l.typ != TypeToolResult {
			continue
		}
		id, _ := jscan.String(l.fields[0].Value)
		if calls[id] && !answered[id] {
			answered[id] = true
			continue
		}
		obj := []byte("{")
		for n, f := range l.fields {
			if n > 0 {
				obj = append(obj, ',')
			}
			obj = jsjson.AppendString(obj, f.Key)
			obj = append(append(obj, ':'), f.Value...)
		}
		obj = append(obj, '}')
		l.typ = TypeCustom
		l.fields = []Field{{Key: "customType", Value: jsonString("skein.unpairedToolResult")}, {Key: "data", Value: obj}}
	}
	// Each unanswered call gets its result after it, and what named the
	// call as its parent names the result (one walk for them all: a
	// session stopped in the middle of many calls has many).
	rids := map[string]string{}
	for _, l := range b.lines {
		if l.typ == TypeToolCall && !answered[l.id] {
			rids[l.id] = b.unique("", TypeToolResult)
		}
	}
	out := make([]line, 0, len(b.lines)+len(rids))
	for _, l := range b.lines {
		if rid, ok := rids[l.parent]; ok {
			l.parent = rid
		}
		out = append(out, l)
		rid, ok := rids[l.id]
		if !ok {
			continue
		}
		out = append(out, line{id: rid, typ: TypeToolResult, ts: l.ts, parent: l.id, source: l.source, fields: []Field{
			{Key: "callId", Value: jsonString(l.id)},
			{Key: "content", Value: []byte(`[{"type":"text","text":"(no result: the session recorded none)"}]`)},
			{Key: "isError", Value: []byte("false")},
			{Key: "synthetic", Value: []byte("true")}}})
		if b.last[l.source] == l.id {
			b.last[l.source] = rid
		}
	}
	b.lines = out
	b.compact = b.compact[:0]
	for k, l := range b.lines {
		if l.typ == TypeCompaction {
			b.compact = append(b.compact, k)
		}
	}
}

// compactions give each compaction its range: the entries of its path that
// the source's own context at it leaves out (for pi, those before its first
// kept entry), as Dhara ids, less what an earlier compaction on the path
// already replaced (a context leaves out every range on its path,
// DECISIONS.md 7, so a range need not name them again: naming them made
// the ranges of a long session quadratic in its length); none is
// preserved, as the source kept none.
func (b *builder) compactions() {
	// ranged is, per compaction (a source entry), the source entries its
	// range named; hidden marks, with the compaction's stamp, what the
	// earlier compactions on its path named.
	ranged := map[int][]int{}
	hidden := make([]int32, b.s.Len())
	for n, k := range b.compact {
		stamp := int32(n + 1)
		l := &b.lines[k]
		i := l.source
		ctx := *b.pre[i].ctx
		b.pre[i].ctx = nil // its last use
		kept := make(map[int]bool, len(ctx.Entries))
		for _, pe := range ctx.Entries {
			kept[pe.Entry] = true
		}
		path := b.s.Path(i)
		for _, j := range path {
			if j != i && b.kind[j] == model.EntryCompaction {
				for _, h := range ranged[j] {
					hidden[h] = stamp
				}
			}
		}
		var ids []string
		var mine []int
		again := "" // an entry an earlier range holds: naming it again changes nothing
		for _, j := range path {
			if j == i || kept[j] || b.kind[j] == model.EntryCompaction {
				continue
			}
			if hidden[j] == stamp {
				if again == "" && len(b.linesOf(j)) > 0 {
					again = b.linesOf(j)[0]
				}
				continue
			}
			mine = append(mine, j)
			ids = append(ids, b.linesOf(j)...)
		}
		ranged[i] = mine
		if len(ids) == 0 && again != "" {
			// A compaction that replaced nothing new still names a range
			// (the schema wants one): one an earlier range holds.
			ids = append(ids, again)
		}
		if len(ids) == 0 && b.first[i] != "" {
			// One that replaced nothing at all: the entry before it, if
			// any.
			if p := l.parent; p != "" {
				ids = append(ids, p)
			}
		}
		l.fields = append(l.fields, Field{Key: "entryIds", Value: jsonStrings(ids)}, Field{Key: "preservedEntryIds", Value: []byte("[]")})
	}
}

// linesOf are the Dhara ids a source entry gave, in order.
func (b *builder) linesOf(j int) []string {
	if b.bySource == nil {
		b.bySource = map[int][]string{}
		for _, l := range b.lines {
			b.bySource[l.source] = append(b.bySource[l.source], l.id)
		}
	}
	return b.bySource[j]
}

// tree is tree.json: a branch per leaf of the lines' tree, its full path,
// the path to the source's leaf first (the root, "branch_main") and
// created now (so it is the active one), each other branch's parent the
// earlier one it shares the longest prefix with.
// treeBranch is a branch of tree.json: its ids are line indexes.
type treeBranch struct {
	id, parent string
	ids        []int32
	created    string
}

// treeBranches are tree.json's branches, and each line's owner: the first
// branch that holds it.
type treeBranches struct {
	list  []treeBranch
	owner []int32
}

func (b *builder) branches(now string) treeBranches {
	// Lines by index: a line's parent's index (-1 for a root), whether it
	// has children, the first branch that holds it (-1 for none).
	// Most lines follow their parent: the map is made only for the rest.
	var at map[string]int32
	lineOf := func(id string) (int32, bool) {
		if at == nil {
			at = make(map[string]int32, len(b.lines))
			for k, l := range b.lines {
				at[l.id] = int32(k)
			}
		}
		k, ok := at[id]
		return k, ok
	}
	parent := make([]int32, len(b.lines))
	hasKids := make([]bool, len(b.lines))
	for k, l := range b.lines {
		parent[k] = -1
		if l.parent == "" {
			continue
		}
		p, ok := int32(k-1), k > 0 && b.lines[k-1].id == l.parent
		if !ok {
			p, ok = lineOf(l.parent)
		}
		if ok {
			parent[k] = p
			hasKids[p] = true
		}
	}
	pathTo := func(k int32) []int32 {
		n := 0
		for j := k; j >= 0; j = parent[j] {
			n++
		}
		out := make([]int32, n)
		for j := k; j >= 0; j = parent[j] {
			n--
			out[n] = j
		}
		return out
	}
	active := int32(-1)
	if leaf := b.s.Leaf(); leaf >= 0 {
		for j := leaf; j >= 0 && active < 0; j = b.s.Parent(j) {
			if id := b.last[j]; id != "" {
				active = -1
				// Near the end, as a rule (the leaf's path is written last).
				for k := len(b.lines) - 1; k >= 0 && k >= len(b.lines)-4096; k-- {
					if b.lines[k].id == id {
						active = int32(k)
						break
					}
				}
				if active < 0 {
					if k, ok := lineOf(id); ok {
						active = k
					}
				}
			}
		}
	}
	type branch = treeBranch
	var branches []branch
	// owner is the first branch that holds a line: a branch's parent is
	// the owner of its fork point, the last line it shares with the
	// branches before it (one walk per branch, up to that point).
	owner := make([]int32, len(b.lines))
	for k := range owner {
		owner[k] = -1
	}
	if active >= 0 || len(b.lines) == 0 {
		var ids []int32
		if active >= 0 {
			ids = pathTo(active)
		}
		branches = append(branches, branch{id: "branch_main", ids: ids, created: now})
		for _, k := range ids {
			owner[k] = 0
		}
	}
	n := 1
	for k := range b.lines {
		leaf := int32(k)
		if hasKids[k] || leaf == active {
			continue
		}
		ids := pathTo(leaf)
		fork := int32(-1)
		for j := len(ids) - 1; j >= 0; j-- {
			if o := owner[ids[j]]; o >= 0 {
				fork = o
				break
			}
		}
		created := b.lines[k].ts
		if created == "" {
			created = now
		}
		br := branch{id: "branch_" + strconv.Itoa(n), ids: ids, created: created}
		n++
		if fork >= 0 {
			br.parent = branches[fork].id
		}
		for _, j := range ids {
			if owner[j] < 0 {
				owner[j] = int32(len(branches))
			}
		}
		branches = append(branches, br)
	}
	// A compaction's branch is the first that holds it.
	for _, k := range b.compact {
		if o := owner[k]; o >= 0 {
			b.setBranch(k, branches[o].id)
		}
	}
	return treeBranches{branches, owner}
}

// treeBytes is tree.json as it is stored (indent's shape: id lists on one
// line).
func (b *builder) treeBytes(tb treeBranches) []byte {
	branches, owner := tb.list, tb.owner
	// A branch's ids up to its fork point are the bytes its fork point's
	// owner wrote for them (a path from the root is one path): copied at
	// once, so that each id is written once, by the first branch that
	// holds it.
	size := 64
	for _, br := range branches {
		size += 192 + len(br.id) + len(br.parent) + len(br.created) + len(br.ids)*4
		for _, k := range br.ids {
			size += len(b.lines[k].id)
		}
	}
	t := make([]byte, 0, size)
	hugemem.Advise(t[:size]) // 100 MB of ids: fresh pages are most of the cost
	root := "branch_main"
	if len(branches) > 0 {
		root = branches[0].id
	}
	t = append(t, "{\n  \"root\": "...)
	t = append(t, jsonString(root)...)
	t = append(t, ",\n  \"branches\": ["...)
	listStart := make([]int, len(branches)) // where a branch's first id starts
	endOf := make([]int, len(b.lines))      // where the id its owner wrote ends
	for n, br := range branches {
		if n > 0 {
			t = append(t, ',')
		}
		t = append(t, "\n    {\n      \"id\": "...)
		t = append(t, jsonString(br.id)...)
		t = append(t, ",\n      \"parentBranchId\": "...)
		if br.parent == "" {
			t = append(t, "null"...)
		} else {
			t = append(t, jsonString(br.parent)...)
		}
		t = append(t, ",\n      \"entryIds\": ["...)
		listStart[n] = len(t)
		from := 0
		for j := len(br.ids) - 1; j >= 0; j-- {
			if o := owner[br.ids[j]]; o >= 0 && int(o) < n {
				t = append(t, t[listStart[o]:endOf[br.ids[j]]]...)
				from = j + 1
				break
			}
		}
		for j := from; j < len(br.ids); j++ {
			k := br.ids[j]
			if j > 0 {
				t = append(t, ", "...)
			}
			t = jsjson.AppendString(t, b.lines[k].id)
			if owner[k] == int32(n) {
				endOf[k] = len(t)
			}
		}
		t = append(t, "],\n      \"createdAt\": "...)
		t = append(t, jsonString(br.created)...)
		t = append(t, "\n    }"...)
	}
	if len(branches) > 0 {
		t = append(t, "\n  "...)
	}
	return append(t, "]\n}\n"...) // within size: a growth here copied it all
}

// setBranch gives compaction line k the first branch that holds it.
func (b *builder) setBranch(k int, branch string) {
	if l := &b.lines[k]; !hasField(l.fields, "branchId") {
		l.fields = append(l.fields, Field{Key: "branchId", Value: jsonString(branch)})
	}
}

func hasField(fs []Field, key string) bool {
	for _, f := range fs {
		if f.Key == key {
			return true
		}
	}
	return false
}

// indented is a tree.json as it is stored: FromSession's is already.
func indented(tree []byte) []byte {
	if bytes.HasPrefix(tree, []byte("{\n  ")) && bytes.HasSuffix(tree, []byte("\n}\n")) {
		return tree
	}
	return indent(tree)
}
