package pi

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"skein/internal/hugemem"
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/internal/par"
	"skein/internal/randid"
	"skein/model"
)

// Built is a session of any format as a new pi v3 file: what `session
// import --to pi` writes.
type Built struct {
	ID    string // the header's id, a uuid v7
	Cwd   string
	Lines []byte // the file's bytes
	// Calls and Results count the tool calls written and the results that
	// answer them (synthetic ones included); Kept counts the entries kept
	// as custom data because pi has no place for them.
	Calls, Results, Synthetic, Kept int
}

// ImportedFromType is the customType of the first entry of an imported
// file: its data names the source (path, sha256, size, format).
const ImportedFromType = "skein.importedFrom"

// FromSession is the session s (of any format) as a pi v3 session:
//   - a header with a new uuid v7, the source's creation time (Created)
//     and cwd;
//   - a first custom entry, skein.importedFrom, whose data is importedFrom
//     (when it is not nil), the parent of the source's roots;
//   - every entry of the source in its tree, parents before children and
//     the source's leaf last (pi resumes at the file's last entry), with
//     new ids (the source's may collide or be anything);
//   - messages in pi's shape: user (text and images), assistant (text,
//     thinking, toolCall blocks with the source's call ids; usage with a
//     cost, as pi's footer reads it), toolResult, bashExecution, and an
//     extension's custom message; compactions (the first kept entry the
//     first the source's own context keeps), branch summaries, model and
//     thinking level changes, labels and the session's name;
//   - what pi has no place for (a system prompt of another agent, a record
//     of a kind pi does not know) as a custom entry holding the source's
//     record, under a customType naming the source format and its kind; a
//     custom entry that a Dhara import made of a pi record ("pi.<type>")
//     is that record again;
//   - every tool call answered on its path before the next message: a
//     result the source does not have is written, saying so, and a result
//     whose call is not in the session is kept as custom data.
func FromSession(s *model.Session, now time.Time, cwd string, importedFrom []byte) (Built, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return Built{}, err
	}
	return fromSession(s, id.String(), now, cwd, importedFrom, nil), nil
}

// flushEvery is how many bytes the builder makes before it hands them to
// its flush.
const flushEvery = 4 << 20

// fromSession is FromSession with the header's id given; flush, when set,
// is given the file's bytes as they are made, in order, several MB at a
// time (the last ones are not: they are what Lines holds past them all).
func fromSession(s *model.Session, id string, now time.Time, cwd string, importedFrom []byte, flush func([]byte)) Built {
	b := &piBuilder{s: s, out: Built{ID: id, Cwd: cwd}, flush: flush, ids: map[string]bool{}, newID: make([]string, s.Len()), last: make([]string, s.Len()), open: map[string][]openCall{}}
	created := Created(s, now).UTC().Format("2006-01-02T15:04:05.000Z")
	b.lastTS = created
	var h []byte
	h = append(h, `{"type":"session","version":3,"id":`...)
	h = jsjson.AppendString(h, b.out.ID)
	h = append(h, `,"timestamp":`...)
	h = jsjson.AppendString(h, created)
	h = append(h, `,"cwd":`...)
	h = jsjson.AppendString(h, cwd)
	h = append(h, "}\n"...)
	b.buf = h
	root := ""
	if importedFrom != nil {
		root = b.fresh()
		b.line(root, "", b.lastTS, "custom", func(l []byte) []byte {
			l = append(l, `,"customType":`...)
			l = jsjson.AppendString(l, ImportedFromType)
			l = append(l, `,"data":`...)
			return append(l, importedFrom...)
		})
	}
	b.folds()
	b.notes = s.SideNotes()
	b.prepare()
	for _, i := range b.order() {
		if b.skip[i] {
			continue // a call its message holds
		}
		b.entry(i, root)
		if b.flush != nil && len(b.buf)-b.flushed >= flushEvery {
			b.flush(b.buf[b.flushed:])
			b.flushed = len(b.buf)
		}
	}
	// pi resumes at the last line: when the source's leaf has children
	// (written after it), a last entry under it that is in no context.
	if leaf := s.Leaf(); leaf >= 0 && b.last[leaf] != "" && b.tip != b.last[leaf] {
		b.line(b.fresh(), b.last[leaf], b.lastTS, "custom", func(l []byte) []byte {
			return append(l, `,"customType":"skein.resumesHere","data":{}`...)
		})
	}
	if name := s.Name(); name == "" && s.Info.Name != "" {
		// A name the source's list gives but no entry holds (a title record
		// of another format): pi's session_info, last, on the leaf's path.
		b.line(b.fresh(), b.tip, b.lastTS, "session_info", func(l []byte) []byte {
			return jsjson.AppendString(append(l, `,"name":`...), SessionName(s.Info.Name))
		})
	}
	b.out.Lines = b.buf
	return b.out
}

type piBuilder struct {
	s       *model.Session
	out     Built
	buf     []byte
	flush   func([]byte) // fromSession's
	flushed int          // how much of buf flush was given
	ids     map[string]bool
	newID   []string // per source entry, its id in the new file ("" when none)
	// last is, per source entry, the id of its last line: a result the
	// source lacked goes after its call, and the entry's children after it.
	last   []string
	lastTS string
	tip    string // the last line's id
	// open are, by line id, the calls of its path that no result answers
	// yet, in order.
	open map[string][]openCall
	// fold is, by message entry, how its format shows it with its calls
	// (Dhara's calls are entries of their own, folded into their message);
	// skip marks the call entries so folded.
	fold  map[int]model.ContextMessage
	skip  []bool
	notes []bool // the source's side notes (model.Session.SideNotes)
	pre   []prepared
}

// prepared is a message entry read and its content written ahead, by
// several goroutines: the work of an import that does not depend on the
// entries before.
type prepared struct {
	msg     model.Message
	content []byte
	ok      bool
	// data is, for an entry that is not a message prepared, its record on
	// one line (jsjson.AppendValue), as keep writes it; nil when its
	// record is no JSON.
	data []byte
	ts   string // the entry's ownTime
}

// prepare reads the message entries and writes their content in pi's
// shape, on every core.
func (b *piBuilder) prepare() {
	s := b.s
	n := s.Len()
	b.pre = make([]prepared, n)
	par.Range(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if b.skip[i] {
				continue
			}
			b.pre[i].ts = b.ownTime(i)
			if s.Entry(i).Kind != model.EntryMessage {
				// Most of what pi has no place for is kept (keep):
				// its record is made one line here.
				if raw := s.Raw(i); len(raw) > 0 && jscan.Valid(raw) {
					b.pre[i].data = jsjson.AppendValue(make([]byte, 0, len(raw)), raw)
				}
				continue
			}
			if _, folded := b.fold[i]; folded {
				continue
			}
			msg := s.MessageLiteral(model.ContextMessage{Entry: i})
			content := appendBlocks(make([]byte, 0, blocksSize(msg.Blocks)), msg.Blocks, msg.Role == model.RoleAssistant)
			b.pre[i].msg, b.pre[i].content, b.pre[i].ok = msg, content, true
		}
	})
	// The file at once: what was prepared, and a few hundred bytes a line
	// for the rest (an append past it grows it, as before).
	size := len(b.buf) + 256*n
	for k := range b.pre {
		size += len(b.pre[k].content) + len(b.pre[k].data)
	}
	buf := make([]byte, 0, size)
	hugemem.Advise(buf[:size]) // fresh pages are most of the cost of 100 MB
	b.buf = append(buf, b.buf...)
}

// preparedData is the record prepare made one line for entry i, once.
func (b *piBuilder) preparedData(i int) []byte {
	d := b.pre[i].data
	b.pre[i].data = nil
	return d
}

// blocksSize is about what appendBlocks writes of blocks: their strings,
// and some bytes a block for the rest.
func blocksSize(blocks []model.Block) int {
	n := 2
	for _, blk := range blocks {
		n += 64 + len(blk.Text) + len(blk.TextJSON) + len(blk.Data) + len(blk.MimeType) + len(blk.Name)
		n += len(blk.Call.ID) + len(blk.Call.Name) + len(blk.Call.Input)
	}
	return n + n/16 // escapes
}

// folds finds the messages a format shows with calls that are entries of
// their own, from each branch's history.
func (b *piBuilder) folds() {
	s := b.s
	b.fold = map[int]model.ContextMessage{}
	b.skip = make([]bool, s.Len())
	if s.Info.Format != "dhara" {
		return // the one format whose calls are entries of their own
	}
	for i := range s.Len() {
		if len(s.Children(i)) > 0 {
			continue
		}
		h := s.BuildHistory(i)
		calls := map[string]bool{}
		for _, m := range h.Messages {
			if m.Kind != model.KindMessage || m.Content >= 0 {
				continue
			}
			if f, ok := b.fold[m.Entry]; !ok || m.Content < f.Content {
				b.fold[m.Entry] = m
			}
			msg := s.Message(m)
			for _, c := range msg.ToolCalls() {
				calls[c.ID] = true
			}
		}
		for _, pe := range h.Entries {
			if e := s.Entry(pe.Entry); pe.N == 0 && e.Kind == model.EntryMessage && calls[e.ID] {
				b.skip[pe.Entry] = true
			}
		}
	}
}

type openCall struct{ id, name string }

// fresh is a new entry id: 8 hex digits, as pi makes them, unique in the
// file.
func (b *piBuilder) fresh() string {
	id := randid.Fresh("", 4, func(id string) bool { return b.ids[id] })
	b.ids[id] = true
	return id
}

// line appends an entry: type, id, parentId, timestamp, then what body
// adds.
func (b *piBuilder) line(id, parent, ts, typ string, body func([]byte) []byte) {
	l := b.buf
	l = append(l, `{"type":`...)
	l = jsjson.AppendString(l, typ)
	l = append(l, `,"id":`...)
	l = jsjson.AppendString(l, id)
	l = append(l, `,"parentId":`...)
	if parent == "" {
		l = append(l, "null"...)
	} else {
		l = jsjson.AppendString(l, parent)
	}
	l = append(l, `,"timestamp":`...)
	l = jsjson.AppendString(l, ts)
	l = body(l)
	b.buf = append(l, "}\n"...)
	b.tip = id
}

// order is the source's entries, parents before children, each node's
// children in their order but the one toward the leaf last, so that the
// leaf's path ends the file.
func (b *piBuilder) order() []int {
	s := b.s
	onPath := make([]bool, s.Len())
	for _, j := range s.Path(s.Leaf()) {
		onPath[j] = true
	}
	last := func(kids []int) []int {
		out := make([]int, 0, len(kids))
		toward := -1
		for _, k := range kids {
			if onPath[k] {
				toward = k
				continue
			}
			out = append(out, k)
		}
		if toward >= 0 {
			out = append(out, toward)
		}
		return out
	}
	out := make([]int, 0, s.Len())
	// Depth first without recursion: a chain may be 100,000 entries long.
	stack := []int{}
	push := func(kids []int) {
		kids = last(kids)
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, kids[k])
		}
	}
	push(s.Roots())
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, i)
		push(s.Children(i))
	}
	return out
}

// parentOf is the id the new line of source entry i hangs from: its
// parent's last line (or the nearest ancestor's that gave one), else root.
func (b *piBuilder) parentOf(i int, root string) string {
	for p := b.s.Parent(i); p >= 0; p = b.s.Parent(p) {
		if b.last[p] != "" {
			return b.last[p]
		}
	}
	return root
}

func (b *piBuilder) timestamp(i int) string {
	ts := b.pre[i].ts // prepare made it for every entry the walk writes
	if ts == "" {
		return b.lastTS
	}
	b.lastTS = ts
	return ts
}

// ownTime is entry i's time in pi's shape (UTC, milliseconds), from the
// entry or else its message; "" when it has none.
func (b *piBuilder) ownTime(i int) string {
	ts := b.s.Entry(i).Timestamp
	if t := jsdate.Parse(ts); ts == "" || t != t {
		ts = ""
		if m := b.s.MessageHead(model.ContextMessage{Entry: i}); m.HasTime {
			ts, _ = jsdate.ISO(m.Time)
		}
	}
	if ts == "" {
		return ""
	}
	if t, ok := jsdate.ISO(jsdate.Parse(ts)); ok {
		ts = t
	}
	return ts
}

func (b *piBuilder) entry(i int, root string) {
	s := b.s
	parent := b.parentOf(i, root)
	ts := b.timestamp(i)
	id := b.fresh()
	b.newID[i] = id
	b.last[i] = id
	pending := b.open[parent]
	b.write(i, id, parent, ts, pending)
	if b.notes[i] {
		// A side note: what follows its parent follows it, so that pi's
		// tree shows no branch for it.
		if p := s.Parent(i); p >= 0 && b.last[p] != "" {
			b.last[p] = b.last[i]
		}
	}
	if len(s.Children(i)) == 0 && len(b.open[b.last[i]]) > 0 && !b.notes[i] {
		// The branch ends with calls no result answers (a side note is no
		// branch: the conversation goes on after it).
		b.last[i] = b.answer(b.last[i], ts)
	}
}

// answer writes, after the line at parent, a result for each call open
// there that says the source recorded none; it returns the last one's id.
func (b *piBuilder) answer(parent, ts string) string {
	for _, c := range b.open[parent] {
		id := b.fresh()
		b.line(id, parent, ts, "message", func(l []byte) []byte {
			l = append(l, `,"message":{"role":"toolResult","toolCallId":`...)
			l = jsjson.AppendString(l, c.id)
			l = jsjson.AppendString(append(l, `,"toolName":`...), c.name)
			l = append(l, `,"content":[{"type":"text","text":"(no result: the imported session recorded none)"}],"isError":true,"timestamp":`...)
			l = jsjson.AppendNumber(l, jsdate.Parse(ts))
			return append(l, `},"details":{"skein":"synthetic"}`...)
		})
		b.out.Synthetic++
		b.out.Results++
		parent = id
	}
	return parent
}

// opensAt says whether entry i is a message that must not come between
// calls and their results (anything the model reads but a result).
func (b *piBuilder) opensAt(i int) bool {
	e := b.s.Entry(i)
	switch e.Kind {
	case model.EntryMessage:
		return e.Role != model.RoleToolResult
	case model.EntryCompaction, model.EntryBranchSummary, model.EntryCustomMessage:
		return true
	}
	return false
}

func (b *piBuilder) write(i int, id, parent, ts string, pending []openCall) {
	s := b.s
	e := s.Entry(i)
	if len(pending) > 0 && b.opensAt(i) {
		parent = b.answer(parent, ts)
		pending = nil
	}
	if len(pending) > 0 {
		b.open[id] = pending // passed on by what is not a message
	}
	switch e.Kind {
	case model.EntryMessage:
		var msg model.Message
		var content []byte
		if b.pre[i].ok {
			msg, content = b.pre[i].msg, b.pre[i].content
			b.pre[i].msg, b.pre[i].content = model.Message{}, nil
		} else {
			cm, ok := b.fold[i]
			if !ok {
				cm = model.ContextMessage{Entry: i}
			}
			msg = s.Message(cm)
		}
		if msg.Role == model.RoleToolResult {
			k := slices.IndexFunc(pending, func(c openCall) bool { return c.id == msg.ToolCallID })
			if k < 0 {
				b.unpaired(i, id, parent, ts)
				return
			}
			rest := slices.Delete(slices.Clone(pending), k, k+1)
			if len(rest) > 0 {
				b.open[id] = rest
			} else {
				delete(b.open, id)
			}
			b.out.Results++
		}
		if b.message(i, id, parent, ts, &msg, content) {
			b.openCalls(id, &msg)
			return
		}
	case model.EntryCompaction:
		msg := s.Message(model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary})
		kept := b.firstKept(i, id)
		b.line(id, parent, ts, "compaction", func(l []byte) []byte {
			l = jsjson.AppendString(append(l, `,"summary":`...), msg.Summary)
			l = jsjson.AppendString(append(l, `,"firstKeptEntryId":`...), kept)
			return jsjson.AppendNumber(append(l, `,"tokensBefore":`...), msg.TokensBefore)
		})
		b.kept(i, ts)
		return
	case model.EntryBranchSummary:
		msg := s.Message(model.ContextMessage{Entry: i, Kind: model.KindBranchSummary})
		from := "root"
		if p := s.Parent(i); p >= 0 && b.newID[p] != "" {
			from = b.newID[p]
		}
		b.line(id, parent, ts, "branch_summary", func(l []byte) []byte {
			l = jsjson.AppendString(append(l, `,"fromId":`...), from)
			return jsjson.AppendString(append(l, `,"summary":`...), msg.Summary)
		})
		return
	case model.EntryCustomMessage:
		msg := s.Message(model.ContextMessage{Entry: i, Kind: model.KindCustom})
		b.customMessage(id, parent, ts, &msg)
		return
	case model.EntryModelChange:
		d := s.Detail(i)
		b.line(id, parent, ts, "model_change", func(l []byte) []byte {
			l = jsjson.AppendString(append(l, `,"provider":`...), d.Provider)
			return jsjson.AppendString(append(l, `,"modelId":`...), d.Model)
		})
		return
	case model.EntryThinkingLevel:
		d := s.Detail(i)
		b.line(id, parent, ts, "thinking_level_change", func(l []byte) []byte {
			return jsjson.AppendString(append(l, `,"thinkingLevel":`...), d.ThinkingLevel)
		})
		return
	case model.EntryLabel:
		d := s.Detail(i)
		target := d.Target
		if j, ok := s.Index(d.Target); ok && b.newID[j] != "" {
			target = b.newID[j]
		} else {
			break // a label of an entry the file does not have: data
		}
		b.line(id, parent, ts, "label", func(l []byte) []byte {
			l = jsjson.AppendString(append(l, `,"targetId":`...), target)
			if d.Label != "" {
				l = jsjson.AppendString(append(l, `,"label":`...), d.Label)
			}
			return l
		})
		return
	case model.EntryTitle:
		d := s.Detail(i)
		b.line(id, parent, ts, "session_info", func(l []byte) []byte {
			return jsjson.AppendString(append(l, `,"name":`...), SessionName(d.Title))
		})
		return
	case model.EntryCustom:
		if b.restore(i, id, parent, ts) {
			return
		}
	case model.EntryContextEdit:
		// A pi 1.6.0 edit of an earlier entry's content: the same edit of
		// the same entry, by its new id.
		d := s.Detail(i)
		raw := s.Raw(i)
		replacement := jscan.Member(raw, "replacement")
		if j, ok := s.Index(d.Target); ok && b.newID[j] != "" && replacement != nil {
			target := b.newID[j]
			b.line(id, parent, ts, "context_edit", func(l []byte) []byte {
				l = jsjson.AppendString(append(l, `,"targetId":`...), target)
				return jsjson.AppendValue(append(l, `,"replacement":`...), replacement)
			})
			return
		}
	}
	b.keep(i, id, parent, ts)
}

// message writes a message entry; false when pi has no such message
// (the caller keeps it as data).
func (b *piBuilder) message(i int, id, parent, ts string, msg *model.Message, content []byte) bool {
	blocks := func(l []byte, assistant bool) []byte {
		if content != nil {
			return append(l, content...)
		}
		return appendBlocks(l, msg.Blocks, assistant)
	}
	ms := jsdate.Parse(ts)
	if msg.HasTime {
		ms = msg.Time
	}
	switch msg.Role {
	case model.RoleUser:
		b.line(id, parent, ts, "message", func(l []byte) []byte {
			l = append(l, `,"message":{"role":"user","content":`...)
			l = blocks(l, false)
			return append(jsjson.AppendNumber(append(l, `,"timestamp":`...), ms), '}')
		})
	case model.RoleAssistant:
		calls := msg.ToolCalls()
		stop := msg.StopReason
		switch stop {
		case "stop", "length", "toolUse", "error", "aborted":
		default:
			stop = "stop"
			if len(calls) > 0 {
				stop = "toolUse"
			}
		}
		provider, modelID := msg.Provider, msg.Model
		if provider == "" {
			provider = b.format()
		}
		if modelID == "" {
			modelID = b.format()
		}
		b.line(id, parent, ts, "message", func(l []byte) []byte {
			l = append(l, `,"message":{"role":"assistant","content":`...)
			l = blocks(l, true)
			l = jsjson.AppendString(append(l, `,"api":`...), "skein-import")
			l = jsjson.AppendString(append(l, `,"provider":`...), provider)
			l = jsjson.AppendString(append(l, `,"model":`...), modelID)
			l = appendUsage(append(l, `,"usage":`...), msg.Usage)
			l = jsjson.AppendString(append(l, `,"stopReason":`...), stop)
			if msg.Error != "" {
				l = jsjson.AppendString(append(l, `,"errorMessage":`...), msg.Error)
			}
			return append(jsjson.AppendNumber(append(l, `,"timestamp":`...), ms), '}')
		})
		b.out.Calls += len(calls)
	case model.RoleToolResult:
		b.line(id, parent, ts, "message", func(l []byte) []byte {
			l = append(l, `,"message":{"role":"toolResult","toolCallId":`...)
			l = jsjson.AppendString(l, msg.ToolCallID)
			l = jsjson.AppendString(append(l, `,"toolName":`...), msg.ToolName)
			l = append(l, `,"content":`...)
			l = blocks(l, false)
			l = strconv.AppendBool(append(l, `,"isError":`...), msg.IsError)
			return append(jsjson.AppendNumber(append(l, `,"timestamp":`...), ms), '}')
		})
	case model.RoleBashExecution:
		b.line(id, parent, ts, "message", func(l []byte) []byte {
			l = append(l, `,"message":{"role":"bashExecution","command":`...)
			l = jsjson.AppendString(l, msg.Command)
			l = jsjson.AppendString(append(l, `,"output":`...), msg.Output)
			l = append(l, `,"exitCode":`...)
			if n, err := strconv.Atoi(msg.ExitCode); err == nil {
				l = strconv.AppendInt(l, int64(n), 10)
			} else {
				l = append(l, "null"...)
			}
			l = strconv.AppendBool(append(l, `,"cancelled":`...), msg.Cancelled)
			l = append(l, `,"truncated":false`...)
			if msg.Excluded {
				l = append(l, `,"excludeFromContext":true`...)
			}
			return append(jsjson.AppendNumber(append(l, `,"timestamp":`...), ms), '}')
		})
	case model.RoleCustom:
		b.line(id, parent, ts, "message", func(l []byte) []byte {
			l = append(l, `,"message":{"role":"custom","customType":`...)
			l = jsjson.AppendString(l, msg.CustomType)
			l = append(l, `,"content":`...)
			l = blocks(l, false)
			l = strconv.AppendBool(append(l, `,"display":`...), !msg.Hidden)
			return append(jsjson.AppendNumber(append(l, `,"timestamp":`...), ms), '}')
		})
	default:
		return false
	}
	return true
}

func (b *piBuilder) customMessage(id, parent, ts string, msg *model.Message) {
	b.line(id, parent, ts, "custom_message", func(l []byte) []byte {
		l = jsjson.AppendString(append(l, `,"customType":`...), msg.CustomType)
		l = append(l, `,"content":`...)
		l = appendBlocks(l, msg.Blocks, false)
		return strconv.AppendBool(append(l, `,"display":`...), !msg.Hidden)
	})
}

// kept writes, after compaction i, the messages the compaction itself
// keeps in its format's context (Codex's replacement history: the user's
// prompts, the instructions), which pi's compaction, keeping a run of the
// entries before it, cannot name: so that pi's context holds them too.
func (b *piBuilder) kept(i int, ts string) {
	for _, m := range model.CompactionKeeps(b.s, i) {
		msg := b.s.Message(m)
		parent := b.last[i]
		pending := b.open[parent]
		if len(pending) > 0 && msg.Role != model.RoleToolResult {
			parent, pending = b.answer(parent, ts), nil
		}
		id := b.fresh()
		b.last[i] = id
		if msg.Role == model.RoleToolResult {
			k := slices.IndexFunc(pending, func(c openCall) bool { return c.id == msg.ToolCallID })
			if k < 0 {
				b.unpairedMsg(&msg, id, parent, ts)
				if len(pending) > 0 {
					b.open[id] = pending
				}
				continue
			}
			if rest := slices.Delete(slices.Clone(pending), k, k+1); len(rest) > 0 {
				b.open[id] = rest
			}
			b.out.Results++
		}
		if b.message(i, id, parent, ts, &msg, nil) {
			b.openCalls(id, &msg)
			continue
		}
		// Another agent's instructions: data, as pi keeps its own prompt.
		b.line(id, parent, ts, "custom", func(l []byte) []byte {
			l = jsjson.AppendString(append(l, `,"customType":`...), b.format()+".kept."+msg.Role)
			l = append(l, `,"data":{"role":`...)
			l = jsjson.AppendString(l, msg.Role)
			l = appendBlocks(append(l, `,"content":`...), msg.Blocks, false)
			return append(l, '}')
		})
		b.out.Kept++
		if len(pending) > 0 {
			b.open[id] = pending
		}
	}
}

// firstKept is the id of the first entry a compaction at source entry i
// keeps: the first entry before it on its path that the source's own
// context at it holds, else the compaction itself (pi 1.6.0's retain-none).
func (b *piBuilder) firstKept(i int, self string) string {
	ctx := b.s.BuildContext(i)
	for _, pe := range ctx.Entries {
		// The context at the compaction starts with it (its summary), then
		// what it keeps, in order.
		if pe.Entry != i && b.newID[pe.Entry] != "" && b.s.Entry(pe.Entry).Kind != model.EntryCompaction {
			return b.newID[pe.Entry]
		}
	}
	return self
}

// format names the source's format for what pi has no field of its own.
func (b *piBuilder) format() string {
	if f := b.s.Info.Format; f != "" {
		return f
	}
	return "pi"
}

// openCalls notes the calls of the answer written as line id as waiting
// for their results. pi drops an answer that failed or was stopped from
// what it sends, calls and all: its calls want none.
func (b *piBuilder) openCalls(id string, msg *model.Message) {
	if msg.Role != model.RoleAssistant || msg.StopReason == "error" || msg.StopReason == "aborted" {
		return
	}
	var calls []openCall
	for _, c := range msg.ToolCalls() {
		calls = append(calls, openCall{c.ID, c.Name})
	}
	if len(calls) > 0 {
		b.open[id] = calls
	}
}

// unpaired keeps a result whose call is not open on its path (not in the
// session, or answered already) as custom data.
func (b *piBuilder) unpaired(i int, id, parent, ts string) {
	msg := b.s.Message(model.ContextMessage{Entry: i})
	b.unpairedMsg(&msg, id, parent, ts)
	if p := b.open[parent]; len(p) > 0 {
		b.open[id] = p
	}
}

func (b *piBuilder) unpairedMsg(msg *model.Message, id, parent, ts string) {
	b.line(id, parent, ts, "custom", func(l []byte) []byte {
		l = append(l, `,"customType":"skein.unpairedToolResult","data":{"toolCallId":`...)
		l = jsjson.AppendString(l, msg.ToolCallID)
		l = jsjson.AppendString(append(l, `,"toolName":`...), msg.ToolName)
		l = appendBlocks(append(l, `,"content":`...), msg.Blocks, false)
		return append(strconv.AppendBool(append(l, `,"isError":`...), msg.IsError), '}')
	})
	b.out.Kept++
	if p := b.open[parent]; len(p) > 0 {
		b.open[id] = p
	}
}

// keep writes entry i as custom data: its record as the source stored it.
func (b *piBuilder) keep(i int, id, parent, ts string) {
	e := b.s.Entry(i)
	kind := e.Type
	if e.Kind == model.EntryMessage && e.Role != "" {
		kind = strings.Trim(e.Type+"."+e.Role, ".")
	}
	if kind == "" {
		kind = "entry"
	}
	if d := b.preparedData(i); d != nil {
		b.line(id, parent, ts, "custom", func(l []byte) []byte {
			l = jsjson.AppendString(append(l, `,"customType":`...), b.format()+"."+kind)
			return append(append(l, `,"data":`...), d...)
		})
		b.out.Kept++
		return
	}
	data := b.s.Raw(i)
	if len(data) == 0 || !jscan.Valid(data) {
		if e.Kind == model.EntryMessage {
			msg := b.s.Message(model.ContextMessage{Entry: i})
			data = append(appendBlocks([]byte(`{"content":`), msg.Blocks, true), '}')
		} else {
			data = jsjson.AppendString(nil, string(data))
		}
	}
	b.line(id, parent, ts, "custom", func(l []byte) []byte {
		l = jsjson.AppendString(append(l, `,"customType":`...), b.format()+"."+kind)
		return jsjson.AppendValue(append(l, `,"data":`...), data)
	})
	b.out.Kept++
}

// restore writes again the pi record a Dhara import kept as a custom entry
// ("pi.<type>", its data the pi line), with the new file's ids; false when
// the entry is no such record.
func (b *piBuilder) restore(i int, id, parent, ts string) bool {
	d := b.s.Detail(i)
	if !strings.HasPrefix(d.CustomType, "pi.") {
		return false
	}
	data := jscan.Member(b.s.Raw(i), "data")
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	// Only a whole pi entry under the customType a Dhara import gives it
	// (pi.<type>, pi.message.<role>): an extension's own "pi.*" data stays
	// data.
	typ, ok := jscan.Unquote(jscan.Member(data, "type"))
	if !ok || typ == "" || typ == "session" || jscan.Member(data, "id") == nil || jscan.Member(data, "timestamp") == nil {
		return false
	}
	want := "pi." + typ
	if typ == "message" {
		// Only the roles a Dhara import keeps as data: a user's, an
		// answer's or a result's record is never one, and restoring one
		// would skip the pairing of its calls.
		role, _ := jscan.Unquote(jscan.Member(jscan.Member(data, "message"), "role"))
		if role != model.RoleBashExecution && role != model.RoleCustom {
			return false
		}
		want += "." + role
	}
	if d.CustomType != want {
		return false
	}
	mapID := func(key string) ([]byte, bool) {
		v, ok := jscan.Unquote(jscan.Member(data, key))
		if !ok {
			return nil, true
		}
		if j, found := b.s.Index(v); found && b.newID[j] != "" {
			return jsjson.AppendString(nil, b.newID[j]), true
		}
		return nil, false
	}
	// The record's members, its ids made this file's.
	var body []byte
	okAll := true
	_ = jscan.Members(data, func(rawKey, val []byte) bool {
		key, _ := jscan.Unquote(rawKey)
		switch key {
		case "type", "id", "parentId", "timestamp":
			return true
		case "targetId", "firstKeptEntryId", "fromId":
			if v, ok := mapID(key); ok && v != nil {
				val = v
			} else if !ok && !(key == "fromId" && string(val) == `"root"`) {
				okAll = false
			}
		}
		body = append(append(body, ','), rawKey...)
		body = jsjson.AppendValue(append(body, ':'), val)
		return true
	})
	if !okAll {
		return false
	}
	b.line(id, parent, ts, typ, func(l []byte) []byte { return append(l, body...) })
	return true
}
