package pi

import (
	"math"
	"sort"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// EstimateTokens is pi's estimateTokens of a raw message: ceil(chars/4),
// chars in UTF-16 code units.
func EstimateTokens(msg []byte) int {
	return estimateTokens(String(Member(msg, "role")), msg)
}

// Tokens estimates a message entry's message, with its migrated role.
func (e *Entry) Tokens() int { return estimateTokens(e.Role, e.Message) }

func estimateTokens(role string, msg []byte) int {
	if msg == nil {
		return 0
	}
	chars := 0
	strLen := func(raw []byte) int { n, _ := rawStringLen(raw); return n }
	// pi's estimateTextAndImageContentChars: a string, or the text blocks
	// with text and 4,800 per image.
	textAndImages := func(content []byte) {
		if n, ok := rawStringLen(content); ok {
			chars += n
			return
		}
		_ = jscan.Elements(content, func(b []byte) bool {
			switch String(Member(b, "type")) {
			case "text":
				if t := Member(b, "text"); jsTruthy(t) {
					chars += strLen(t)
				}
			case "image":
				chars += 4800
			}
			return true
		})
	}
	switch role {
	case RoleSystem:
		textAndImages(Member(msg, "content"))
		jsjson.ObjectEntries(Member(msg, "sections"), func(_ string, v []byte) {
			if jsTruthy(v) {
				chars += strLen(v)
			}
		})
		if tools := Member(msg, "toolsAdded"); jsTruthy(tools) {
			chars += StringifyLen(tools)
		}
	case RoleUser, RoleCustom, RoleToolResult:
		textAndImages(Member(msg, "content"))
	case RoleAssistant:
		_ = jscan.Elements(Member(msg, "content"), func(b []byte) bool {
			switch String(Member(b, "type")) {
			case "text":
				chars += strLen(Member(b, "text"))
			case "thinking":
				chars += strLen(Member(b, "thinking"))
			case "toolCall":
				chars += strLen(Member(b, "name"))
				if args := Member(b, "arguments"); args != nil {
					chars += StringifyLen(args)
				}
			}
			return true
		})
	case RoleBashExecution:
		chars = strLen(Member(msg, "command")) + strLen(Member(msg, "output"))
	case RoleBranchSummary, RoleCompactionSummary:
		chars = strLen(Member(msg, "summary"))
	}
	return (chars + 3) / 4
}

// MessageTokens estimates one context message.
func (s *Session) MessageTokens(m model.ContextMessage) int {
	if m.Kind == model.KindMessage && m.Content == 0 {
		return s.Entries[m.Entry].Tokens()
	}
	return EstimateTokens(s.MessageJSON(m))
}

// ContextTokens is pi 1.6.0's estimateProjectedContextTokens: the usage of
// the last assistant message that was neither aborted nor an error and
// counted some tokens, plus estimates of the messages after it, provided no
// context edit or compaction on the path came after that message; otherwise
// the estimate of the current system message plus those of the other
// messages.
func (s *Session) ContextTokens(ctx model.Context) float64 {
	msgs := make([][]byte, len(ctx.Messages))
	for i, m := range ctx.Messages {
		msgs[i] = s.rawMessage(m)
	}
	last, usage := -1, []byte(nil)
	for i := len(msgs) - 1; i >= 0 && last < 0; i-- {
		if u := assistantUsage(msgs[i]); u != nil {
			last, usage = i, u
		}
	}
	if last >= 0 && s.usageTrusted(ctx, ctx.Messages[last].Entry) {
		total := calculateContextTokens(usage)
		for _, m := range msgs[last+1:] {
			total += float64(EstimateTokens(m))
		}
		return total
	}
	total := 0.0
	if sys := s.CurrentSystemMessage(ctx.Messages); sys != nil {
		total += float64(EstimateTokens(sys))
	}
	for i, m := range msgs {
		if s.messageRole(ctx.Messages[i]) != RoleSystem {
			total += float64(EstimateTokens(m))
		}
	}
	return total
}

// usageTrusted reports whether the usage recorded by entry u still describes
// the context: the first path entry with u's id comes after the path's last
// context edit or compaction.
func (s *Session) usageTrusted(ctx model.Context, u int) bool {
	ue := &s.Entries[u]
	usageAt := -1
	if ue.HasID && ue.ID != "" {
		for k, i := range ctx.Path {
			if e := &s.Entries[i]; e.HasID && sameID(e.ID, e.idKey, ue.ID, ue.idKey) {
				usageAt = k
				break
			}
		}
	}
	invalidAt := -1
	for k := len(ctx.Path) - 1; k >= 0; k-- {
		if t := s.Entries[ctx.Path[k]].Type; t == TypeContextEdit || t == TypeCompaction {
			invalidAt = k
			break
		}
	}
	return usageAt > invalidAt
}

// assistantUsage is pi's getAssistantUsage: the usage of an assistant
// message that was not aborted or an error and counts some tokens.
func assistantUsage(msg []byte) []byte {
	if msg == nil || String(Member(msg, "role")) != RoleAssistant {
		return nil
	}
	stop := String(Member(msg, "stopReason"))
	if u := Member(msg, "usage"); stop != "aborted" && stop != "error" && jsTruthy(u) && calculateContextTokens(u) > 0 {
		return u
	}
	return nil
}

// calculateContextTokens is usage.totalTokens || input+output+cacheRead+cacheWrite,
// with JavaScript's arithmetic: a missing field makes NaN, null counts 0.
func calculateContextTokens(usage []byte) float64 {
	if t := Member(usage, "totalTokens"); jsTruthy(t) {
		if f, ok := jsNumberValue(t); ok {
			return f
		}
		return math.NaN()
	}
	sum := 0.0
	for _, k := range []string{"input", "output", "cacheRead", "cacheWrite"} {
		v := Member(usage, k)
		switch f, ok := jsNumberValue(v); {
		case ok:
			sum += f
		case string(v) == "null":
		default:
			return math.NaN()
		}
	}
	return sum
}

// KeptTokens estimates what a compaction keeps of the context: the messages
// from its first kept entry on.
func (s *Session) KeptTokens(p *model.Plan) int {
	kept := 0
	for _, m := range p.Context.Messages[p.Context.Entries[p.FirstKept].First:] {
		kept += s.MessageTokens(m)
	}
	return kept
}

// PlanCompaction plans a compaction of the path to leaf keeping about
// keepRecentTokens, as pi 1.6.0's prepareCompaction(getBranch(leaf)) does on
// the path's projection. It returns nil where pi returns undefined ("Nothing
// to compact"): an empty path, a path that ends in a compaction, a first kept
// entry without an id, or nothing to summarize.
func (s *Session) PlanCompaction(leaf int, keepRecentTokens float64) *model.Plan {
	if leaf < 0 || leaf >= len(s.Entries) {
		return nil
	}
	path := s.Path(leaf)
	if s.Entries[path[len(path)-1]].Type == TypeCompaction {
		return nil
	}
	ctx := s.project(path, model.Context{ThinkingLevel: offJSON, Compaction: -1})
	p := &model.Plan{Leaf: leaf, Context: ctx, TurnStart: -1, PreviousCompaction: -1}
	proj := ctx.Entries
	// The newest compaction comes first in the projection; an older one kept
	// in its range gives no messages.
	prevAt := -1
	for k, pe := range proj {
		if s.Entries[pe.Entry].Type == TypeCompaction && pe.N > 0 {
			prevAt = k
			break
		}
	}
	if prevAt >= 0 {
		p.PreviousCompaction = proj[prevAt].Entry
		p.BoundaryStart = prevAt + 1
	}
	p.TokensBefore = s.ContextTokens(ctx)
	p.FirstKept, p.TurnStart, p.IsSplitTurn = s.findCutPoint(ctx, p.BoundaryStart, len(proj), keepRecentTokens)
	if p.FirstKept >= len(proj) {
		return nil
	}
	p.FirstKeptEntry = proj[p.FirstKept].Entry
	first := &s.Entries[p.FirstKeptEntry]
	if !first.HasID || first.ID == "" {
		return nil
	}
	p.FirstKeptEntryID = first.ID
	historyEnd := p.FirstKept
	if p.IsSplitTurn {
		historyEnd = p.TurnStart
	}
	p.MessagesToSummarize = s.summarizable(ctx, p.BoundaryStart, historyEnd)
	if p.IsSplitTurn {
		p.TurnPrefixMessages = s.summarizable(ctx, p.TurnStart, p.FirstKept)
	}
	if len(p.MessagesToSummarize) == 0 && len(p.TurnPrefixMessages) == 0 {
		return nil
	}
	read, modified := map[string]bool{}, map[string]bool{}
	if prevAt >= 0 {
		prev := &s.Entries[p.PreviousCompaction]
		if details := prev.Field("details"); !jsTruthy(prev.Field("fromHook")) && jsTruthy(details) {
			for _, f := range stringArray(Member(details, "readFiles")) {
				read[f] = true
			}
			for _, f := range stringArray(Member(details, "modifiedFiles")) {
				modified[f] = true
			}
		}
	}
	for _, list := range [][]model.ContextMessage{p.MessagesToSummarize, p.TurnPrefixMessages} {
		for _, m := range list {
			FileOps(s.rawMessage(m), read, modified)
		}
	}
	for f := range read {
		if !modified[f] {
			p.ReadFiles = append(p.ReadFiles, f)
		}
	}
	for f := range modified {
		p.ModifiedFiles = append(p.ModifiedFiles, f)
	}
	sortJS(p.ReadFiles)
	sortJS(p.ModifiedFiles)
	return p
}

// NothingToCompact says why PlanCompaction(leaf, keep) made no plan, in pi's
// words ("Nothing to compact") and then the reason.
func NothingToCompact(s *Session, leaf int, keep float64) string {
	switch {
	case leaf < 0 || leaf >= len(s.Entries):
		return "Nothing to compact: the session has no entries"
	case s.Entries[leaf].Type == TypeCompaction:
		return "Nothing to compact: the path already ends in a compaction"
	}
	return "Nothing to compact: keeping about " + jsjson.FormatNumber(keep) + " tokens leaves nothing to summarize"
}

// summarizable is the messages of the projected entries [from, to) that a
// compaction summarizes (pi's getMessagesFromProjectedEntryForCompaction):
// none from a compaction, and no system messages, which are prompt state.
func (s *Session) summarizable(ctx model.Context, from, to int) []model.ContextMessage {
	var out []model.ContextMessage
	for _, pe := range ctx.Entries[from:to] {
		if s.Entries[pe.Entry].Type == TypeCompaction {
			continue
		}
		for _, m := range ctx.Messages[pe.First : pe.First+pe.N] {
			if s.messageRole(m) != RoleSystem {
				out = append(out, m)
			}
		}
	}
	return out
}

// isCutPoint and startsTurn are pi's isCutPointMessage and
// isTurnStartMessage.
func isCutPoint(role string) bool {
	switch role {
	case RoleUser, RoleAssistant, RoleBashExecution, RoleCustom, RoleBranchSummary, RoleCompactionSummary:
		return true
	}
	return false
}

func startsTurn(role string) bool {
	switch role {
	case RoleUser, RoleBashExecution, RoleCustom, RoleBranchSummary, RoleCompactionSummary:
		return true
	}
	return false
}

// entryIs reports whether any message of projected entry k passes test
// (never for a compaction).
func (s *Session) entryIs(ctx model.Context, k int, test func(role string) bool) bool {
	if s.Entries[ctx.Entries[k].Entry].Type == TypeCompaction {
		return false
	}
	for _, m := range ctx.EntryMessages(k) {
		if test(s.messageRole(m)) {
			return true
		}
	}
	return false
}

// intrinsicallyVisible is pi's check that an entry gives the model a message
// before any edit applies (sessionEntryToContextMessages), a context edit
// never.
func (s *Session) intrinsicallyVisible(i int) bool {
	switch e := &s.Entries[i]; e.Type {
	case TypeMessage, TypeCustomMessage, TypeCompaction:
		return true
	case TypeBranchSummary:
		return jsTruthy(e.Field("summary"))
	}
	return false
}

// findCutPoint is pi 1.6.0's findProjectedCutPoint over the projected
// entries [start, end).
func (s *Session) findCutPoint(ctx model.Context, start, end int, keep float64) (cut, turnStart int, split bool) {
	var cutPoints []int
	for k := start; k < end; k++ {
		if s.entryIs(ctx, k, isCutPoint) {
			cutPoints = append(cutPoints, k)
		}
	}
	if len(cutPoints) == 0 {
		return start, -1, false
	}
	cut = cutPoints[0]
	acc := 0.0
	exceeded := false
	for k := end - 1; k >= start; k-- {
		tokens := 0
		for _, m := range ctx.EntryMessages(k) {
			tokens += s.MessageTokens(m)
		}
		if tokens == 0 {
			continue
		}
		acc += float64(tokens)
		if acc >= keep {
			exceeded = true
			cut = cutPoints[len(cutPoints)-1]
			for _, c := range cutPoints {
				if c >= k {
					cut = c
					break
				}
			}
			break
		}
	}
	if exceeded && s.recoverySuffix(ctx, cut+1, end) {
		cut++
	}
	for cut > start {
		prev := ctx.Entries[cut-1]
		if s.Entries[prev.Entry].Type == TypeCompaction || prev.N > 0 {
			break
		}
		cut--
	}
	if s.entryIs(ctx, cut, startsTurn) {
		return cut, -1, false
	}
	turnStart = -1
	for k := cut; k >= start; k-- {
		if s.entryIs(ctx, k, startsTurn) {
			turnStart = k
			break
		}
	}
	return cut, turnStart, turnStart != -1
}

// recoverySuffix reports whether the projected entries [from, to) are what
// overflow recovery leaves after the last visible input: an omitted
// assistant attempt, other omitted or invisible entries, no compaction, and
// no edit that replaces the content of an entry outside them.
func (s *Session) recoverySuffix(ctx model.Context, from, to int) bool {
	if from > to {
		from = to
	}
	suffix := ctx.Entries[from:to]
	omitted := func(pe model.Projected) bool { return s.intrinsicallyVisible(pe.Entry) && pe.N == 0 }
	omittedIDs := map[string]bool{}
	for _, pe := range suffix {
		if e := &s.Entries[pe.Entry]; omitted(pe) && e.HasID {
			omittedIDs[e.ID] = true
		}
	}
	assistantOmitted := false
	for _, pe := range suffix {
		e := &s.Entries[pe.Entry]
		if e.Type == TypeContextEdit {
			if r := e.Field("replacement"); string(r) != "null" {
				if target, ok := e.StringField("targetId"); !ok || !omittedIDs[target] {
					return false
				}
			}
		}
		if e.Type == TypeCompaction || (s.intrinsicallyVisible(pe.Entry) && !omitted(pe)) {
			return false
		}
		if e.Type == TypeMessage && e.Role == RoleAssistant && omitted(pe) {
			assistantOmitted = true
		}
	}
	return assistantOmitted
}

// FileOps adds the paths of an assistant message's read, write and edit tool
// calls, and of those a tool result records as made inside a script
// (nestedCalls.calls), to read and modified, as pi's
// extractFileOpsFromMessage does.
func FileOps(msg []byte, read, modified map[string]bool) {
	add := func(name, args []byte) {
		path, ok := bstr(Member(args, "path"))
		if len(args) == 0 || args[0] != '{' || !ok || path == "" {
			return
		}
		switch String(name) {
		case "read":
			read[path] = true
		case "write", "edit":
			modified[path] = true
		}
	}
	switch String(Member(msg, "role")) {
	case RoleToolResult:
		_ = jscan.Elements(Member(Member(msg, "nestedCalls"), "calls"), func(c []byte) bool {
			add(Member(c, "name"), Member(c, "arguments"))
			return true
		})
	case RoleAssistant:
		_ = jscan.Elements(Member(msg, "content"), func(b []byte) bool {
			if String(Member(b, "type")) != "toolCall" {
				return true
			}
			if args, name := Member(b, "arguments"), Member(b, "name"); args != nil && name != nil {
				add(name, args)
			}
			return true
		})
	}
}

func stringArray(raw []byte) []string {
	var out []string
	_ = jscan.Elements(raw, func(v []byte) bool {
		if s, ok := bstr(v); ok {
			out = append(out, s)
		}
		return true
	})
	return out
}

func sortJS(s []string) {
	sort.Slice(s, func(a, b int) bool { return compareUTF16(s[a], s[b]) < 0 })
}
