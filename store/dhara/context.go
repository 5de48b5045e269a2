package dhara

import (
	"bufio"
	"io"
	"slices"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// compactions are what the compactions on a path do to its context.
type compactions struct {
	newest int    // the newest compaction's entry, -1 for none
	ranged []bool // per entry: in a compaction's range; nil for none
	out    []bool // per entry: in a range and preserved by none; nil for none
}

func (s *Session) compactionsOn(path []int) compactions {
	c := compactions{newest: -1}
	var hidden, preserved []int
	for _, i := range path {
		if s.typ[i] != tCompaction {
			continue
		}
		c.newest = i
		raw := s.Entries[i].Raw
		hidden = s.appendIndexes(hidden, jscan.Member(raw, "entryIds"))
		preserved = s.appendIndexes(preserved, jscan.Member(raw, "preservedEntryIds"))
	}
	if c.newest >= 0 {
		c.ranged = make([]bool, len(s.Entries))
		for _, i := range hidden {
			c.ranged[i] = true
		}
		c.out = slices.Clone(c.ranged)
		for _, i := range preserved {
			c.out[i] = false
		}
	}
	return c
}

// appendIndexes appends the entries a JSON list of ids names (ids that
// name none left out).
func (s *Session) appendIndexes(out []int, list []byte) []int {
	_ = jscan.Elements(list, func(v []byte) bool {
		if id, ok := jscan.String(v); ok && id != "" {
			if i, ok := s.byID.get(id); ok {
				out = append(out, i)
			}
		}
		return true
	})
	return out
}

// hides reports whether the compactions take entry i out of the context.
func (c *compactions) hides(i int) bool { return c.out != nil && c.out[i] }

func stringList(v []byte) []string {
	var out []string
	_ = jscan.Elements(v, func(id []byte) bool {
		if s, ok := jscan.String(id); ok {
			out = append(out, s)
		}
		return true
	})
	return out
}

// BuildContext is what an agent resumes with at leaf (DECISIONS.md 7, 8):
// the path, each compaction's range left out but for its preserved tool
// results, the newest summary where the first entry left out stood, and
// each message with its tool calls.
func (s *Session) BuildContext(leaf int) model.Context {
	return s.build(leaf, true)
}

// BuildHistory is the path's messages with every compaction's summary at
// its own place and nothing left out: what the user saw.
func (s *Session) BuildHistory(leaf int) model.Context {
	return s.build(leaf, false)
}

func (s *Session) build(leaf int, compact bool) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	path := ctx.Path
	ctx.Model = s.modelAt(path)
	var c compactions
	if compact {
		c = s.compactionsOn(path)
		ctx.Compaction = c.newest
	}
	onPath := make([]bool, len(s.Entries))
	for _, i := range path {
		onPath[i] = true
	}
	// The calls folded into their message: those whose message is on the
	// path and in the context.
	folded := func(call int) (owner int, ok bool) {
		if s.typ[call] != tToolCall {
			return -1, false
		}
		j := int(s.owner[call])
		if j < 0 || !onPath[call] || !onPath[j] || c.hides(j) {
			return -1, false
		}
		return j, true
	}
	done := make([]bool, len(s.Entries))
	ctx.Entries = make([]model.Projected, 0, len(path))
	ctx.Messages = make([]model.ContextMessage, 0, len(path))
	add := func(i int, m model.ContextMessage, n int) {
		ctx.Entries = append(ctx.Entries, model.Projected{Entry: i, First: len(ctx.Messages), N: n})
		if n > 0 {
			ctx.Messages = append(ctx.Messages, m)
		}
		done[i] = true
	}
	addMessage := func(i int) {
		m := model.ContextMessage{Entry: i}
		k := 0 // the message's calls on the path, in entry order
		for c := s.firstCall[i]; c >= 0; c = s.nextCall[c] {
			if _, ok := folded(int(c)); ok && !done[c] {
				k++
			}
		}
		m.Content = -int32(k)
		add(i, m, 1)
		for c := s.firstCall[i]; c >= 0; c = s.nextCall[c] {
			if _, ok := folded(int(c)); ok && !done[c] {
				add(int(c), model.ContextMessage{}, 0)
			}
		}
	}
	summaryPlaced := false
	for _, i := range path {
		if done[i] {
			continue
		}
		if c.hides(i) {
			if !summaryPlaced {
				add(c.newest, model.ContextMessage{Entry: c.newest, Kind: model.KindCompactionSummary}, 1)
				summaryPlaced = true
			}
			continue
		}
		switch t := s.typ[i]; {
		case t == tCompaction:
			switch {
			case !compact:
				add(i, model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary}, 1)
			case i == c.newest && !summaryPlaced:
				add(i, model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary}, 1)
				summaryPlaced = true
			}
		case t == tToolCall:
			if owner, ok := folded(i); ok {
				addMessage(owner) // the message stands where its first call does
			} else {
				add(i, model.ContextMessage{Entry: i}, 1)
			}
		case t.message():
			addMessage(i)
		default:
			add(i, model.ContextMessage{}, 0)
		}
	}
	return ctx
}

// modelAt is the model in force at the end of a path: the last model
// change or assistant message naming one, else meta.json's.
func (s *Session) modelAt(path []int) *model.ModelRef {
	for k := len(path) - 1; k >= 0; k-- {
		e := &s.Entries[path[k]]
		if e.Type == TypeModelChange || e.Type == TypeMessage && e.Role == model.RoleAssistant {
			if m := jscan.Member(e.Raw, "model"); m != nil {
				return &model.ModelRef{Provider: jscan.Member(e.Raw, "provider"), ModelID: m}
			}
		}
	}
	return model.NewModelRef(s.Meta.Provider, s.Meta.Model)
}

// Summarized counts the messages the compactions of a context left out.
func (s *Session) Summarized(leaf int, ctx model.Context) int {
	if ctx.Compaction < 0 {
		return 0
	}
	c := s.compactionsOn(ctx.Path)
	n := 0
	for _, i := range ctx.Path {
		if s.typ[i].message() && !s.owned(i) && c.hides(i) {
			n++
		}
	}
	return n
}

// WriteContextJSON writes a context in Dhara's model (DECISIONS.md 13):
// {"messages": the entries that give its messages, verbatim and in order,
// "entryIds": their ids, "model": {"provider", "model"} or null}.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	given := func(pe model.Projected) bool { return pe.N > 0 || s.typ[pe.Entry] == tToolCall }
	bw.WriteString(`{"messages":[`)
	// The ids are gathered as the lines are written, while each line is
	// in the cache: a second walk over 100 MB of lines missed it at every
	// id.
	ids := make([]byte, 0, 24*len(ctx.Entries))
	first := true
	for _, pe := range ctx.Entries {
		if !given(pe) {
			continue
		}
		if !first {
			bw.WriteByte(',')
			ids = append(ids, ',')
		}
		first = false
		e := &s.Entries[pe.Entry]
		bw.Write(e.Raw)
		if e.idPlain {
			ids = append(append(append(ids, '"'), e.ID...), '"')
		} else {
			ids = jsjson.AppendString(ids, e.ID)
		}
	}
	bw.WriteString(`],"entryIds":[`)
	bw.Write(ids)
	bw.WriteString(`],"model":`)
	if m := ctx.Model; m != nil {
		bw.WriteString(`{"provider":`)
		bw.Write(orNull(m.Provider))
		bw.WriteString(`,"model":`)
		bw.Write(orNull(m.ModelID))
		bw.WriteByte('}')
	} else {
		bw.WriteString("null")
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func orNull(v []byte) []byte {
	if v == nil {
		return []byte("null")
	}
	return v
}

// PlanCompaction plans a compaction of the path to leaf keeping about
// keepRecentTokens: the range is the context's entries after the newest
// summary up to a user message, found walking back from the end until the
// kept messages reach keepRecentTokens (never a split turn, so a call, its
// message and its result are on one side).
func (s *Session) PlanCompaction(leaf int, keep float64) *model.Plan {
	if leaf < 0 || leaf >= len(s.Entries) || s.Entries[leaf].Type == TypeCompaction {
		return nil
	}
	ctx := s.BuildContext(leaf)
	start := 0
	for k, pe := range ctx.Entries {
		if pe.Entry == ctx.Compaction {
			start = k + 1
		}
	}
	tokens := 0.0
	for _, m := range ctx.Messages {
		tokens += float64(s.MessageTokens(m))
	}
	acc, reach := 0.0, -1
	for k := len(ctx.Entries) - 1; k >= start; k-- {
		for _, m := range ctx.EntryMessages(k) {
			acc += float64(s.MessageTokens(m))
		}
		if acc >= keep {
			reach = k
			break
		}
	}
	if reach < 0 {
		return nil
	}
	isUser := func(k int) bool { return s.Entries[ctx.Entries[k].Entry].IsUser() }
	cut := -1
	for k := reach; k < len(ctx.Entries); k++ {
		if isUser(k) {
			cut = k
			break
		}
	}
	if cut < 0 {
		for k := reach - 1; k > start; k-- {
			if isUser(k) {
				cut = k
				break
			}
		}
	}
	if cut <= start {
		return nil
	}
	some := false // something to summarize: system entries stay
	for _, pe := range ctx.Entries[start:cut] {
		if e := &s.Entries[pe.Entry]; e.kind == model.EntryMessage && e.Type != TypeSystem {
			some = true
		}
	}
	if !some {
		return nil
	}
	p := &model.Plan{Leaf: leaf, Path: ctx.Path, Context: ctx, FirstKept: cut, TurnStart: -1,
		BoundaryStart: start, TokensBefore: tokens, PreviousCompaction: ctx.Compaction}
	p.FirstKeptEntry = ctx.Entries[cut].Entry
	p.FirstKeptEntryID = s.Entries[p.FirstKeptEntry].ID
	read, modified := map[string]bool{}, map[string]bool{}
	for k := start; k < cut; k++ {
		pe := ctx.Entries[k]
		p.MessagesToSummarize = append(p.MessagesToSummarize, ctx.EntryMessages(k)...)
		if e := &s.Entries[pe.Entry]; e.Type == TypeToolCall {
			path, ok := jscan.String(jscan.Member(jscan.Member(e.Raw, "input"), "path"))
			switch {
			case !ok:
			case e.ToolName == "read":
				read[path] = true
			case e.ToolName == "write" || e.ToolName == "edit":
				modified[path] = true
			}
		}
	}
	for f := range modified {
		p.ModifiedFiles = append(p.ModifiedFiles, f)
		delete(read, f)
	}
	for f := range read {
		p.ReadFiles = append(p.ReadFiles, f)
	}
	slices.Sort(p.ReadFiles)
	slices.Sort(p.ModifiedFiles)
	if ids, _ := s.Range(p); len(ids) == 0 {
		return nil // all of it an earlier compaction's already (its preserved results)
	}
	return p
}

// IsUser reports whether the entry is a user's message.
func (e *Entry) IsUser() bool { return e.Type == TypeMessage && e.Role == model.RoleUser }

// NothingToCompact says why PlanCompaction made no plan.
func (s *Session) NothingToCompact(leaf int, keep float64) string {
	switch {
	case leaf < 0 || leaf >= len(s.Entries):
		return "Nothing to compact: the session has no entries"
	case s.Entries[leaf].Type == TypeCompaction:
		return "Nothing to compact: the path already ends in a compaction"
	}
	return "Nothing to compact: keeping about " + jsjson.FormatNumber(keep) + " tokens leaves nothing to summarize before a user message"
}

// Range is the entries a compaction of plan p replaces (its entryIds) and
// the tool results among them it keeps (preservedEntryIds): the path's
// entries from the range's start to the first kept one, compactions and
// what earlier compactions already replaced left out.
func (s *Session) Range(p *model.Plan) (entryIDs, preserved []string) {
	c := s.compactionsOn(p.Path)
	calls := map[string]bool{}
	for _, i := range p.Path {
		e := &s.Entries[i]
		if i == p.FirstKeptEntry {
			break
		}
		if e.Type == TypeToolCall {
			calls[e.ID] = true
		}
	}
	inRange := map[int]bool{}
	for _, pe := range p.Context.Entries[p.BoundaryStart:p.FirstKept] {
		inRange[pe.Entry] = true
	}
	for _, i := range p.Path {
		e := &s.Entries[i]
		// A system entry is prompt state, not conversation: it stays.
		if !inRange[i] || e.ID == "" || e.Type == TypeCompaction || e.Type == TypeSystem || (c.ranged != nil && c.ranged[i]) {
			continue
		}
		entryIDs = append(entryIDs, e.ID)
		if e.Type == TypeToolResult && calls[e.Ref] {
			preserved = append(preserved, e.ID)
		}
	}
	return entryIDs, preserved
}
