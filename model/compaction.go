package model

import (
	"math"
	"sort"
	"strconv"

	"skein/model/jscan"
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
	textBlocks := func(content []byte, images bool) {
		if n, ok := rawStringLen(content); ok {
			chars += n
			return
		}
		_ = jscan.Elements(content, func(b []byte) bool {
			switch String(Member(b, "type")) {
			case "text":
				chars += strLen(Member(b, "text"))
			case "image":
				if images {
					chars += 4800
				}
			}
			return true
		})
	}
	switch role {
	case RoleUser:
		textBlocks(Member(msg, "content"), false)
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
	case RoleCustom, RoleToolResult:
		textBlocks(Member(msg, "content"), true)
	case RoleBashExecution:
		chars = strLen(Member(msg, "command")) + strLen(Member(msg, "output"))
	case RoleBranchSummary, RoleCompactionSummary:
		chars = strLen(Member(msg, "summary"))
	}
	return (chars + 3) / 4
}

// MessageTokens estimates one context message.
func (s *Session) MessageTokens(m ContextMessage) int {
	if m.Kind == KindMessage {
		return s.Entries[m.Entry].Tokens()
	}
	return EstimateTokens(s.MessageJSON(m))
}

// ContextTokens is pi's estimateContextTokens: the usage of the last
// assistant message that was neither aborted nor an error, plus estimates of
// the messages after it; estimates of all messages when there is none.
func (s *Session) ContextTokens(ctx Context) float64 {
	msgs := make([][]byte, len(ctx.Messages))
	for i, m := range ctx.Messages {
		if m.Kind == KindMessage && !s.Entries[m.Entry].RenamedRole {
			msgs[i] = s.Entries[m.Entry].Message
		} else {
			msgs[i] = s.MessageJSON(m)
		}
	}
	last, usage := -1, []byte(nil)
	for i := len(msgs) - 1; i >= 0 && last < 0; i-- {
		if u := assistantUsage(msgs[i]); u != nil {
			last, usage = i, u
		}
	}
	total := 0.0
	if last >= 0 {
		total = calculateContextTokens(usage)
	}
	for _, m := range msgs[last+1:] {
		total += float64(EstimateTokens(m))
	}
	return total
}

func assistantUsage(msg []byte) []byte {
	if msg == nil || String(Member(msg, "role")) != RoleAssistant {
		return nil
	}
	stop := String(Member(msg, "stopReason"))
	if u := Member(msg, "usage"); stop != "aborted" && stop != "error" && jsTruthy(u) {
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

// Plan is what pi's prepareCompaction decides for a path.
type Plan struct {
	Leaf             int
	Path             []int // entry indexes, root first
	FirstKept        int   // position in Path of the first kept entry
	FirstKeptEntryID string
	TokensBefore     float64
	IsSplitTurn      bool
	TurnStart        int // position in Path of the split turn's start, -1
	BoundaryStart    int // position in Path where this compaction's range starts
	// Messages to summarize and the split turn's prefix, as context messages.
	MessagesToSummarize []ContextMessage
	TurnPrefixMessages  []ContextMessage
	PreviousCompaction  int // entry index, -1 for none
	ReadFiles           []string
	ModifiedFiles       []string
}

// PlanCompaction plans a compaction of the path to leaf keeping about
// keepRecentTokens, as pi's prepareCompaction(getBranch(leaf)) does. It
// returns nil where pi returns undefined: an empty path, a path that ends in
// a compaction, or a first kept entry without an id.
func (s *Session) PlanCompaction(leaf int, keepRecentTokens float64) *Plan {
	if leaf < 0 || leaf >= len(s.Entries) {
		return nil
	}
	path := s.Path(leaf)
	if s.Entries[path[len(path)-1]].Type == TypeCompaction {
		return nil
	}
	p := &Plan{Leaf: leaf, Path: path, TurnStart: -1, PreviousCompaction: -1}
	prevAt := -1
	for k := len(path) - 1; k >= 0; k-- {
		if s.Entries[path[k]].Type == TypeCompaction {
			prevAt = k
			break
		}
	}
	start := 0
	if prevAt >= 0 {
		p.PreviousCompaction = path[prevAt]
		start = prevAt + 1
		if id, ok := s.FirstKeptEntryID(&s.Entries[path[prevAt]]); ok {
			for k, i := range path {
				if s.Entries[i].HasID && s.Entries[i].ID == id {
					start = k
					break
				}
			}
		}
	}
	p.BoundaryStart = start
	p.TokensBefore = s.ContextTokens(s.BuildContext(leaf))
	p.FirstKept, p.TurnStart, p.IsSplitTurn = s.findCutPoint(path, start, len(path), keepRecentTokens)
	first := &s.Entries[path[p.FirstKept]]
	if !first.HasID || first.ID == "" {
		return nil
	}
	p.FirstKeptEntryID = first.ID
	historyEnd := p.FirstKept
	if p.IsSplitTurn {
		historyEnd = p.TurnStart
	}
	for k := start; k < historyEnd; k++ {
		if m, ok := s.compactionMessage(path[k]); ok {
			p.MessagesToSummarize = append(p.MessagesToSummarize, m)
		}
	}
	if p.IsSplitTurn {
		for k := p.TurnStart; k < p.FirstKept; k++ {
			if m, ok := s.compactionMessage(path[k]); ok {
				p.TurnPrefixMessages = append(p.TurnPrefixMessages, m)
			}
		}
	}
	read, modified := map[string]bool{}, map[string]bool{}
	if prevAt >= 0 {
		prev := &s.Entries[path[prevAt]]
		if details := prev.Field("details"); !jsTruthy(prev.Field("fromHook")) && jsTruthy(details) {
			for _, f := range stringArray(Member(details, "readFiles")) {
				read[f] = true
			}
			for _, f := range stringArray(Member(details, "modifiedFiles")) {
				modified[f] = true
			}
		}
	}
	for _, m := range append(append([]ContextMessage(nil), p.MessagesToSummarize...), p.TurnPrefixMessages...) {
		if m.Kind == KindMessage {
			FileOps(s.Entries[m.Entry].Message, read, modified)
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

// compactionMessage is pi's getMessageFromEntryForCompaction.
func (s *Session) compactionMessage(i int) (ContextMessage, bool) {
	switch e := &s.Entries[i]; e.Type {
	case TypeMessage:
		return ContextMessage{i, KindMessage}, e.Message != nil && string(e.Message) != "null"
	case TypeCustomMessage:
		return ContextMessage{i, KindCustom}, true
	case TypeBranchSummary:
		return ContextMessage{i, KindBranchSummary}, true
	}
	return ContextMessage{}, false
}

// findCutPoint is pi's findCutPoint over path positions [start, end).
func (s *Session) findCutPoint(path []int, start, end int, keep float64) (cut, turnStart int, split bool) {
	var cutPoints []int
	for k := start; k < end; k++ {
		e := &s.Entries[path[k]]
		switch e.Type {
		case TypeMessage:
			switch e.Role {
			case RoleBashExecution, RoleCustom, RoleBranchSummary, RoleCompactionSummary, RoleUser, RoleAssistant:
				cutPoints = append(cutPoints, k)
			}
		case TypeBranchSummary, TypeCustomMessage:
			cutPoints = append(cutPoints, k)
		}
	}
	if len(cutPoints) == 0 {
		return start, -1, false
	}
	cut = cutPoints[0]
	acc := 0.0
	for k := end - 1; k >= start; k-- {
		e := &s.Entries[path[k]]
		if e.Type != TypeMessage {
			continue
		}
		acc += float64(e.Tokens())
		if acc >= keep {
			for _, c := range cutPoints {
				if c >= k {
					cut = c
					break
				}
			}
			break
		}
	}
	for cut > start {
		prev := &s.Entries[path[cut-1]]
		if prev.Type == TypeCompaction || prev.Type == TypeMessage {
			break
		}
		cut--
	}
	e := &s.Entries[path[cut]]
	if e.Type == TypeMessage && e.Role == RoleUser {
		return cut, -1, false
	}
	turnStart = -1
	for k := cut; k >= start; k-- {
		e := &s.Entries[path[k]]
		if e.Type == TypeBranchSummary || e.Type == TypeCustomMessage ||
			e.Type == TypeMessage && (e.Role == RoleUser || e.Role == RoleBashExecution) {
			turnStart = k
			break
		}
	}
	return cut, turnStart, turnStart != -1
}

// FileOps adds the paths of an assistant message's read, write and edit tool
// calls to read and modified, as pi's extractFileOpsFromMessage does.
func FileOps(msg []byte, read, modified map[string]bool) {
	if String(Member(msg, "role")) != RoleAssistant {
		return
	}
	_ = jscan.Elements(Member(msg, "content"), func(b []byte) bool {
		if String(Member(b, "type")) != "toolCall" {
			return true
		}
		args, name := Member(b, "arguments"), Member(b, "name")
		if name == nil || !jsTruthy(args) {
			return true
		}
		path, ok := bstr(Member(args, "path"))
		if !ok || path == "" {
			return true
		}
		switch String(name) {
		case "read":
			read[path] = true
		case "write", "edit":
			modified[path] = true
		}
		return true
	})
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

// PlanJSON is the plan as `skein session plan --json` prints it: the two
// message lists as counts; null for no plan.
func PlanJSON(p *Plan) []byte {
	if p == nil {
		return []byte("null")
	}
	b := []byte(`{"firstKeptEntryId":`)
	b = AppendJSONString(b, p.FirstKeptEntryID)
	b = append(b, `,"tokensBefore":`...)
	b = append(b, FormatJSNumber(p.TokensBefore)...)
	b = append(b, `,"isSplitTurn":`...)
	b = strconv.AppendBool(b, p.IsSplitTurn)
	b = append(b, `,"messagesToSummarize":`...)
	b = strconv.AppendInt(b, int64(len(p.MessagesToSummarize)), 10)
	b = append(b, `,"turnPrefixMessages":`...)
	b = strconv.AppendInt(b, int64(len(p.TurnPrefixMessages)), 10)
	for _, l := range []struct {
		key   string
		files []string
	}{{"readFiles", p.ReadFiles}, {"modifiedFiles", p.ModifiedFiles}} {
		b = append(b, `,"`+l.key+`":[`...)
		for i, f := range l.files {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, f)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
