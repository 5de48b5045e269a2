package pi

import (
	"bufio"
	"io"
	"runtime"
	"sync/atomic"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/model"
)

// Content overrides of a context message (ContextMessage.Content): what pi
// 1.6.0 puts in place of a null content. A positive value is 1 + the index
// of the context_edit entry whose replacement content the message carries.
const (
	contentEmptyArray  = -1
	contentEmptyString = -2
)

var offJSON = []byte(`"off"`)

// BuildContext builds the context at entry leaf (-1 for an empty context) as
// pi 1.6.0's buildSessionProjection does: the path, or with a compaction on
// it the newest compaction (its system prompt checkpoint and summary), the
// kept entries from its firstKeptEntryId without their system messages, and
// everything after it; then the latest context edit of each selected entry
// applied.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx := model.Context{ThinkingLevel: offJSON, Compaction: -1}
	if leaf < 0 || leaf >= len(s.Entries) {
		return ctx
	}
	return s.project(s.Path(leaf), ctx)
}

// project builds the context of a path (root first).
func (s *Session) project(path []int, ctx model.Context) model.Context {
	ctx.Path = path
	// The last of each kind on the path counts: look from the leaf back,
	// noting the context edits on the way.
	compactionAt := -1 // position in path
	thinkingSeen := false
	var editsAt []int // positions of context edits, from the leaf back
	k := len(path) - 1
	for ; k >= 0 && (!thinkingSeen || ctx.Model == nil || compactionAt < 0); k-- {
		e := &s.Entries[path[k]]
		switch {
		case e.Type == TypeContextEdit:
			editsAt = append(editsAt, k)
		case e.Type == TypeThinkingLevelChange && !thinkingSeen:
			ctx.ThinkingLevel, thinkingSeen = e.Field("thinkingLevel"), true
		case e.Type == TypeModelChange && ctx.Model == nil:
			ctx.Model = &model.ModelRef{Provider: e.Field("provider"), ModelID: e.Field("modelId")}
		case e.Type == TypeMessage && e.Role == RoleAssistant && ctx.Model == nil:
			ctx.Model = &model.ModelRef{Provider: e.MessageField("provider"), ModelID: e.MessageField("model")}
		case e.Type == TypeCompaction && compactionAt < 0:
			compactionAt = k
		}
	}
	scannedFrom := k + 1 // the loop saw positions scannedFrom.. of path
	selected := path
	selectedFrom := 0 // the first position of path among the selected entries
	if compactionAt >= 0 {
		c := path[compactionAt]
		ctx.Compaction = c
		selected = make([]int, 0, len(path)+1)
		selected = append(selected, c)
		firstKept, hasFirstKept := s.FirstKeptEntryID(&s.Entries[c])
		keptKey := keyOf(firstKept)
		selectedFrom = compactionAt + 1
		for k, i := range path[:compactionAt] {
			e := &s.Entries[i]
			if selectedFrom > compactionAt && hasFirstKept && e.HasID && sameID(e.ID, e.idKey, firstKept, keptKey) {
				selectedFrom = k
			}
			if selectedFrom <= k && !(e.Type == TypeMessage && e.Role == RoleSystem) {
				selected = append(selected, i)
			}
		}
		selected = append(selected, path[compactionAt+1:]...)
	}
	// The latest edit of each selected entry, among the selected entries:
	// those the loop did not reach, then those it saw, in path order.
	var edits map[string]int
	addEdit := func(i int) {
		if target, ok := s.Entries[i].StringField("targetId"); ok {
			if edits == nil {
				edits = map[string]int{}
			}
			edits[target] = i
		}
	}
	for _, i := range path[selectedFrom:max(selectedFrom, scannedFrom)] {
		if s.Entries[i].Type == TypeContextEdit {
			addEdit(i)
		}
	}
	for k := len(editsAt) - 1; k >= 0; k-- {
		if editsAt[k] >= selectedFrom {
			addEdit(path[editsAt[k]])
		}
	}
	ctx.Messages = make([]model.ContextMessage, 0, len(selected)+1)
	ctx.Entries = make([]model.Projected, len(selected))
	for k, i := range selected {
		first := len(ctx.Messages)
		// An older compaction kept in the range gives nothing: only the newest,
		// first, contributes its checkpoint and summary.
		if k == 0 || s.Entries[i].Type != TypeCompaction {
			edit := -1
			if e := &s.Entries[i]; edits != nil && e.HasID {
				if j, ok := edits[e.ID]; ok {
					edit = j
				}
			}
			ctx.Messages = s.appendEntryMessages(ctx.Messages, i, edit)
		}
		ctx.Entries[k] = model.Projected{Entry: i, First: first, N: len(ctx.Messages) - first}
	}
	return ctx
}

// appendEntryMessages appends the messages entry i gives the model (pi
// 1.6.0's sessionEntryToContextMessages), with the context edit at index
// edit (-1 for none) applied as projectContextEntry applies it.
func (s *Session) appendEntryMessages(dst []model.ContextMessage, i, edit int) []model.ContextMessage {
	n := len(dst)
	e := &s.Entries[i]
	switch e.Type {
	case TypeMessage:
		m := model.ContextMessage{Entry: i, Kind: model.KindMessage}
		if e.NullContent {
			switch e.Role {
			case RoleSystem:
				m.Content = contentEmptyString
			case RoleUser, RoleAssistant, RoleToolResult:
				m.Content = contentEmptyArray
			}
		}
		dst = append(dst, m)
	case TypeCustomMessage:
		m := model.ContextMessage{Entry: i, Kind: model.KindCustom}
		if c := e.Field("content"); c == nil || string(c) == "null" {
			m.Content = contentEmptyArray
		}
		dst = append(dst, m)
	case TypeBranchSummary:
		if jsTruthy(e.Field("summary")) {
			dst = append(dst, model.ContextMessage{Entry: i, Kind: model.KindBranchSummary})
		}
	case TypeCompaction:
		if jsTruthy(e.Field("systemMessage")) {
			dst = append(dst, model.ContextMessage{Entry: i, Kind: model.KindSystemCheckpoint})
		}
		dst = append(dst, model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary})
	}
	if edit < 0 {
		return dst
	}
	replacement := s.Entries[edit].Field("replacement")
	switch {
	case replacement == nil:
		// pi throws on an edit without a replacement; skein leaves the entry as it is.
	case string(replacement) == "null":
		dst = dst[:n]
	default:
		for k := n; k < len(dst); k++ {
			if r := s.messageRole(dst[k]); r == RoleUser || r == RoleAssistant || r == RoleToolResult || r == RoleCustom {
				dst[k].Content = int32(edit) + 1
			}
		}
	}
	return dst
}

// messageRole is the role of a context message.
func (s *Session) messageRole(m model.ContextMessage) string {
	switch m.Kind {
	case model.KindMessage:
		return s.Entries[m.Entry].Role
	case model.KindCompactionSummary:
		return RoleCompactionSummary
	case model.KindBranchSummary:
		return RoleBranchSummary
	case model.KindCustom:
		return RoleCustom
	case model.KindSystemCheckpoint:
		return RoleSystem
	}
	return ""
}

// messageKind is the message entry i adds to a history (every entry's
// messages, nothing compacted away): messages, custom messages and branch
// summaries with a summary; ok is false for any other entry.
func (s *Session) messageKind(i int) (k model.Kind, ok bool) {
	switch e := &s.Entries[i]; e.Type {
	case TypeMessage:
		return model.KindMessage, true
	case TypeCustomMessage:
		return model.KindCustom, true
	case TypeBranchSummary:
		return model.KindBranchSummary, jsTruthy(e.Field("summary"))
	}
	return 0, false
}

// contentOverride is the content a context message carries in place of its
// own: ok is false when it carries its own; val is nil when the content is
// left out (a replacement without content, as JSON.stringify drops undefined).
func (s *Session) contentOverride(m model.ContextMessage) (val []byte, ok bool) {
	switch {
	case m.Content == 0:
		return nil, false
	case m.Content == contentEmptyArray:
		return []byte("[]"), true
	case m.Content == contentEmptyString:
		return []byte(`""`), true
	}
	replacement := s.Entries[m.EditEntry()].Field("replacement")
	if len(replacement) == 0 || replacement[0] != '{' {
		return nil, true
	}
	content := Member(replacement, "content")
	if r := s.messageRole(m); (r == RoleAssistant || r == RoleToolResult) && jscan.IsString(content) {
		b := append([]byte(`[{"type":"text","text":`), content...)
		return append(b, "}]"...), true
	}
	return content, true
}

// jsTruthy is JavaScript truthiness of a raw JSON value (nil is undefined).
func jsTruthy(raw []byte) bool {
	switch {
	case len(raw) == 0, string(raw) == "null", string(raw) == "false", string(raw) == `""`:
		return false
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		f, _ := jsNumberValue(raw)
		return f == f && f != 0
	}
	return true
}

// AppendMessageJSON appends the JSON of a context message as pi builds it
// and JSON.stringify writes it. A message entry's message is copied as
// stored when it is valid UTF-8 with only JSON.stringify's escapes (all
// that pi writes is: see jsjson.Copyable), and rewritten otherwise; so is a
// message whose content a context edit replaced or pi 1.6.0 replaces (a
// null content).
func (s *Session) AppendMessageJSON(dst []byte, m model.ContextMessage) []byte {
	e := &s.Entries[m.Entry]
	content, override := s.contentOverride(m)
	var contentMember []member
	if override {
		contentMember = []member{{"content", content}}
	}
	switch m.Kind {
	case model.KindMessage:
		if e.Message == nil {
			return append(dst, "null"...)
		}
		if e.RenamedRole {
			contentMember = append(contentMember, member{"role", []byte(`"custom"`)})
		}
		if len(contentMember) > 0 && len(e.Message) > 0 && e.Message[0] == '{' {
			return jsjson.AppendValue(dst, appendReplacingMembers(nil, e.Message, contentMember))
		}
		if e.copyable {
			return append(dst, e.Message...)
		}
		return jsjson.AppendValue(dst, e.Message)
	case model.KindSystemCheckpoint:
		if sys := e.Field("systemMessage"); !jsjson.Copyable(sys) {
			return jsjson.AppendValue(dst, sys)
		}
		return append(dst, e.Field("systemMessage")...)
	case model.KindCompactionSummary:
		return appendObject(dst, []member{
			{"role", []byte(`"compactionSummary"`)},
			{"summary", e.Field("summary")},
			{"tokensBefore", e.Field("tokensBefore")},
			{"timestamp", msJSON(e.Timestamp)},
		})
	case model.KindBranchSummary:
		return appendObject(dst, []member{
			{"role", []byte(`"branchSummary"`)},
			{"summary", e.Field("summary")},
			{"fromId", e.Field("fromId")},
			{"timestamp", msJSON(e.Timestamp)},
		})
	default:
		if !override {
			content = e.Field("content")
		}
		return appendObject(dst, []member{
			{"role", []byte(`"custom"`)},
			{"customType", e.Field("customType")},
			{"content", content},
			{"display", e.Field("display")},
			{"details", e.Field("details")},
			{"timestamp", msJSON(e.Timestamp)},
		})
	}
}

// MessageJSON returns the JSON of a context message.
func (s *Session) MessageJSON(m model.ContextMessage) []byte { return s.AppendMessageJSON(nil, m) }

type member struct {
	key string
	val []byte // nil: absent (undefined), left out as JSON.stringify does
}

func appendObject(dst []byte, members []member) []byte {
	dst = append(dst, '{')
	first := true
	for _, m := range members {
		if m.val == nil {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = jsjson.AppendKey(dst, m.key)
		dst = jsjson.AppendValue(dst, m.val)
	}
	return append(dst, '}')
}

func msJSON(iso string) []byte { return []byte(jsjson.FormatNumber(jsdate.Parse(iso))) }

// appendReplacingMembers copies obj as JavaScript's {...obj, key: val}
// builds it: a member already there keeps its place and takes the new value,
// a new one goes last, and a nil value (undefined) leaves the member out.
func appendReplacingMembers(dst, obj []byte, with []member) []byte {
	dst = append(dst, '{')
	first := true
	done := make([]bool, len(with))
	put := func(k, v []byte) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(append(append(dst, k...), ':'), v...)
	}
	_ = jscan.Members(obj, func(k, v []byte) bool {
		for w := range with {
			if jscan.KeyIs(k, with[w].key) {
				if !done[w] && with[w].val != nil {
					put(k, with[w].val)
				}
				done[w] = true
				return true
			}
		}
		put(k, v)
		return true
	})
	for w := range with {
		if !done[w] && with[w].val != nil {
			put(jsjson.AppendString(nil, with[w].key), with[w].val)
		}
	}
	return append(dst, '}')
}

// EntryID is the id a context message came from ("" when its entry has none).
func (s *Session) EntryID(m model.ContextMessage) string { return s.Entries[m.Entry].ID }

// WriteContextJSON writes {messages, entryIds, thinkingLevel, model}. The
// messages are formatted in blocks on every core and written in order, a few
// blocks in flight at most, so that a large context is never held twice.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(`{"messages":[`)
	if err := s.writeMessages(bw, ctx.Messages); err != nil {
		return err
	}
	bw.WriteString(`],"entryIds":[`)
	// The ids in one buffer, written at once: a write each cost more than
	// formatting them.
	ids := make([]byte, 0, 11*len(ctx.Messages))
	for i, m := range ctx.Messages {
		if i > 0 {
			ids = append(ids, ',')
		}
		if e := &s.Entries[m.Entry]; e.idKey.hex {
			// From the number: the line need not be read again.
			ids = appendHexID(ids, e.idKey.n)
		} else if e.HasID {
			ids = jsjson.AppendString(ids, e.ID)
		} else {
			ids = append(ids, "null"...)
		}
	}
	bw.Write(ids)
	bw.WriteByte(']')
	scratch := ids[:0]
	if ctx.ThinkingLevel != nil {
		bw.WriteString(`,"thinkingLevel":`)
		bw.Write(jsjson.AppendValue(scratch[:0], ctx.ThinkingLevel))
	}
	bw.WriteString(`,"model":`)
	if ctx.Model == nil {
		bw.WriteString("null")
	} else {
		bw.Write(appendObject(scratch[:0], []member{{"provider", ctx.Model.Provider}, {"modelId", ctx.Model.ModelID}}))
	}
	bw.WriteByte('}')
	return bw.Flush()
}

// Omitted reports whether projected entry k gives the model nothing because
// a context edit omitted it (an entry that would otherwise give a message).
func (s *Session) Omitted(ctx model.Context, k int) bool {
	pe := ctx.Entries[k]
	if pe.N > 0 || (k > 0 && s.Entries[pe.Entry].Type == TypeCompaction) {
		return false
	}
	return s.intrinsicallyVisible(pe.Entry)
}

// contextBlock is how many messages a worker formats at a time.
const contextBlock = 512

// appendMessages appends the JSON of msgs, comma-separated; first says
// whether msgs begins the array. A message pi would write as it is stored
// is copied, any other formatted as pi's JSON.stringify writes it.
func (s *Session) appendMessages(dst []byte, msgs []model.ContextMessage, first bool) []byte {
	for i, m := range msgs {
		if i > 0 || !first {
			dst = append(dst, ',')
		}
		if e := &s.Entries[m.Entry]; m.Kind == model.KindMessage && m.Content == 0 && !e.RenamedRole && e.Message != nil && e.copyable {
			dst = append(dst, e.Message...)
			continue
		}
		dst = s.AppendMessageJSON(dst, m)
	}
	return dst
}

// messagesSize is about the size of msgs' JSON, as stored.
func (s *Session) messagesSize(msgs []model.ContextMessage) int {
	n := 0
	for _, m := range msgs {
		n += len(s.Entries[m.Entry].Message) + 1
	}
	return n
}

// writeMessages writes the JSON of msgs, comma-separated, to bw: small
// contexts at once, large ones a block a worker, written in order.
func (s *Session) writeMessages(bw *bufio.Writer, msgs []model.ContextMessage) error {
	blocks := (len(msgs) + contextBlock - 1) / contextBlock
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if workers < 2 {
		var buf []byte
		for lo := 0; lo < len(msgs); lo += contextBlock {
			buf = s.appendMessages(buf[:0], msgs[lo:min(lo+contextBlock, len(msgs))], lo == 0)
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
	// done[b] receives block b's bytes; slots bounds the blocks in flight.
	done := make([]chan []byte, blocks)
	for b := range done {
		done[b] = make(chan []byte, 1)
	}
	slots := make(chan []byte, 2*workers)
	for range cap(slots) {
		slots <- nil
	}
	var next atomic.Int64
	stop := make(chan struct{})
	wp := newWorkerPanic()
	for range workers {
		go func() {
			defer wp.guard()()
			for {
				var buf []byte
				select {
				case buf = <-slots:
				case <-stop:
					return
				}
				b := int(next.Add(1) - 1)
				if b >= blocks {
					return
				}
				lo, hi := b*contextBlock, min((b+1)*contextBlock, len(msgs))
				if buf == nil {
					buf = make([]byte, 0, s.messagesSize(msgs[lo:hi])*9/8)
				}
				done[b] <- s.appendMessages(buf[:0], msgs[lo:hi], b == 0)
			}
		}()
	}
	defer close(stop)
	for b := range blocks {
		var buf []byte
		select {
		case buf = <-done[b]:
		case <-wp.failed:
			wp.rethrow()
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		slots <- buf
	}
	return nil
}
