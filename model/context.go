package model

import (
	"bufio"
	"bytes"
	"io"

	"skein/internal/jsjson"
	"skein/model/jscan"
)

// Kind says how a context message is made from its entry.
type Kind uint8

const (
	KindMessage           Kind = iota // a message entry's message, unchanged
	KindCompactionSummary             // {role:"compactionSummary", summary, tokensBefore, timestamp}
	KindBranchSummary                 // {role:"branchSummary", summary, fromId, timestamp}
	KindCustom                        // {role:"custom", customType, content, display, details, timestamp}
)

// ContextMessage is one message of a built context and the entry it came
// from: the first seed's parallel messages and entryIds lists in one.
type ContextMessage struct {
	Entry int
	Kind  Kind
}

// Context is what pi's buildSessionContext returns for a leaf.
type Context struct {
	Messages []ContextMessage
	// ThinkingLevel is the raw thinkingLevel of the last thinking_level_change
	// on the path, `"off"` without one, nil when that entry had none.
	ThinkingLevel []byte
	// Model is nil when the path names no model.
	Model *ModelRef
	// Compaction is the index of the compaction the context starts from, -1 for none.
	Compaction int
}

// ModelRef is {provider, modelId}, raw; a nil field was absent.
type ModelRef struct {
	Provider []byte
	ModelID  []byte
}

var offJSON = []byte(`"off"`)

// BuildContext builds the context at entry leaf (-1 for an empty context) as
// pi's buildSessionContext does.
func (s *Session) BuildContext(leaf int) Context {
	ctx := Context{ThinkingLevel: offJSON, Compaction: -1}
	if leaf < 0 || leaf >= len(s.Entries) {
		return ctx
	}
	path := s.Path(leaf)
	ctx.Messages = make([]ContextMessage, 0, len(path)+1)
	// The last of each kind on the path counts: look from the leaf back.
	compactionAt := -1 // position in path
	thinkingSeen := false
	for k := len(path) - 1; k >= 0 && (!thinkingSeen || ctx.Model == nil || compactionAt < 0); k-- {
		e := &s.Entries[path[k]]
		switch {
		case e.Type == TypeThinkingLevelChange && !thinkingSeen:
			ctx.ThinkingLevel, thinkingSeen = e.Field("thinkingLevel"), true
		case e.Type == TypeModelChange && ctx.Model == nil:
			ctx.Model = &ModelRef{Provider: e.Field("provider"), ModelID: e.Field("modelId")}
		case e.Type == TypeMessage && e.Role == RoleAssistant && ctx.Model == nil:
			ctx.Model = &ModelRef{Provider: e.MessageField("provider"), ModelID: e.MessageField("model")}
		case e.Type == TypeCompaction && compactionAt < 0:
			compactionAt = k
		}
	}
	appendEntry := func(i int) {
		if k, ok := s.messageKind(i); ok {
			ctx.Messages = append(ctx.Messages, ContextMessage{i, k})
		}
	}
	if compactionAt < 0 {
		for _, i := range path {
			appendEntry(i)
		}
		return ctx
	}
	c := path[compactionAt]
	ctx.Compaction = c
	ctx.Messages = append(ctx.Messages, ContextMessage{c, KindCompactionSummary})
	firstKept, hasFirstKept := s.FirstKeptEntryID(&s.Entries[c])
	keptKey := keyOf(firstKept)
	found := false
	for _, i := range path[:compactionAt] {
		if e := &s.Entries[i]; hasFirstKept && e.HasID && sameID(e.ID, e.idKey, firstKept, keptKey) {
			found = true
		}
		if found {
			appendEntry(i)
		}
	}
	for _, i := range path[compactionAt+1:] {
		appendEntry(i)
	}
	return ctx
}

// messageKind is the message entry i adds to a context, as pi's
// buildSessionContext appends it: messages, custom messages and branch
// summaries with a summary; ok is false for any other entry.
func (s *Session) messageKind(i int) (k Kind, ok bool) {
	switch e := &s.Entries[i]; e.Type {
	case TypeMessage:
		return KindMessage, true
	case TypeCustomMessage:
		return KindCustom, true
	case TypeBranchSummary:
		return KindBranchSummary, jsTruthy(e.Field("summary"))
	}
	return 0, false
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
// that pi writes is: see jsjson.Copyable), and rewritten otherwise.
func (s *Session) AppendMessageJSON(dst []byte, m ContextMessage) []byte {
	e := &s.Entries[m.Entry]
	switch m.Kind {
	case KindMessage:
		if e.Message == nil {
			return append(dst, "null"...)
		}
		if e.RenamedRole {
			return jsjson.AppendValue(dst, appendReplacingMember(nil, e.Message, "role", []byte(`"custom"`)))
		}
		if jsjson.Copyable(e.Message) {
			return append(dst, e.Message...)
		}
		return jsjson.AppendValue(dst, e.Message)
	case KindCompactionSummary:
		return appendObject(dst, []member{
			{"role", []byte(`"compactionSummary"`)},
			{"summary", e.Field("summary")},
			{"tokensBefore", e.Field("tokensBefore")},
			{"timestamp", msJSON(e.Timestamp)},
		})
	case KindBranchSummary:
		return appendObject(dst, []member{
			{"role", []byte(`"branchSummary"`)},
			{"summary", e.Field("summary")},
			{"fromId", e.Field("fromId")},
			{"timestamp", msJSON(e.Timestamp)},
		})
	default:
		return appendObject(dst, []member{
			{"role", []byte(`"custom"`)},
			{"customType", e.Field("customType")},
			{"content", e.Field("content")},
			{"display", e.Field("display")},
			{"details", e.Field("details")},
			{"timestamp", msJSON(e.Timestamp)},
		})
	}
}

// MessageJSON returns the JSON of a context message.
func (s *Session) MessageJSON(m ContextMessage) []byte { return s.AppendMessageJSON(nil, m) }

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
		dst = AppendJSONString(dst, m.key)
		dst = append(dst, ':')
		dst = jsjson.AppendValue(dst, m.val)
	}
	return append(dst, '}')
}

func msJSON(iso string) []byte { return []byte(FormatJSNumber(DateMs(iso))) }

// appendReplacingMember copies obj with the value of its member key replaced.
func appendReplacingMember(dst, obj []byte, key string, val []byte) []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	_ = jscan.Members(obj, func(k, v []byte) bool {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.Write(k)
		buf.WriteByte(':')
		if jscan.KeyIs(k, key) {
			buf.Write(val)
		} else {
			buf.Write(v)
		}
		return true
	})
	buf.WriteByte('}')
	return append(dst, buf.Bytes()...)
}

// EntryID is the id a context message came from ("" when its entry has none).
func (s *Session) EntryID(m ContextMessage) string { return s.Entries[m.Entry].ID }

// WriteContextJSON writes {messages, entryIds, thinkingLevel, model},
// message by message, so that a large context is never held twice.
func (s *Session) WriteContextJSON(w io.Writer, ctx Context) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	var scratch []byte
	bw.WriteString(`{"messages":[`)
	for i, m := range ctx.Messages {
		if i > 0 {
			bw.WriteByte(',')
		}
		if e := &s.Entries[m.Entry]; m.Kind == KindMessage && !e.RenamedRole && e.Message != nil && jsjson.Copyable(e.Message) {
			bw.Write(e.Message)
			continue
		}
		scratch = s.AppendMessageJSON(scratch[:0], m)
		bw.Write(scratch)
	}
	bw.WriteString(`],"entryIds":[`)
	for i, m := range ctx.Messages {
		if i > 0 {
			bw.WriteByte(',')
		}
		if e := &s.Entries[m.Entry]; e.idKey.hex {
			// From the number: the line need not be read again.
			bw.Write(appendHexID(scratch[:0], e.idKey.n))
		} else if e.HasID {
			bw.Write(AppendJSONString(scratch[:0], e.ID))
		} else {
			bw.WriteString("null")
		}
	}
	bw.WriteByte(']')
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
