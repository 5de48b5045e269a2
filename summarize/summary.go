package summarize

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"skein/internal/jsjson"
	"skein/internal/utf8js"
	"skein/model"
)

// The summarization prompts are pi 1.6.0's (dist/core/compaction), so that a
// model summarizing for skein gets what pi would send it.
const (
	SummarizationSystemPrompt = "You are a context summarization assistant. Your task is to read a conversation between a user and an AI assistant, then produce a structured summary following the exact format specified.\n\nDo NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary."

	SummarizationPrompt = "The messages above are a conversation to summarize. Create a structured context checkpoint summary that another LLM will use to continue the work.\n\nUse this EXACT format:\n\n## Goal\n[What is the user trying to accomplish? Can be multiple items if the session covers different tasks.]\n\n## Constraints & Preferences\n- [Any constraints, preferences, or requirements mentioned by user]\n- [Or \"(none)\" if none were mentioned]\n\n## Progress\n### Done\n- [x] [Completed tasks/changes]\n\n### In Progress\n- [ ] [Current work]\n\n### Blocked\n- [Issues preventing progress, if any]\n\n## Key Decisions\n- **[Decision]**: [Brief rationale]\n\n## Next Steps\n1. [Ordered list of what should happen next]\n\n## Critical Context\n- [Any data, examples, or references needed to continue]\n- [Or \"(none)\" if not applicable]\n\nKeep each section concise. Preserve exact file paths, function names, and error messages."

	UpdateSummarizationPrompt = "The messages above are NEW conversation messages to incorporate into the existing summary provided in <previous-summary> tags.\n\nUpdate the existing structured summary with new information. RULES:\n- PRESERVE all existing information from the previous summary\n- ADD new progress, decisions, and context from the new messages\n- UPDATE the Progress section: move items from \"In Progress\" to \"Done\" when completed\n- UPDATE \"Next Steps\" based on what was accomplished\n- PRESERVE exact file paths, function names, and error messages\n- If something is no longer relevant, you may remove it\n\nUse this EXACT format:\n\n## Goal\n[Preserve existing goals, add new ones if the task expanded]\n\n## Constraints & Preferences\n- [Preserve existing, add new ones discovered]\n\n## Progress\n### Done\n- [x] [Include previously done items AND newly completed items]\n\n### In Progress\n- [ ] [Current work - update based on progress]\n\n### Blocked\n- [Current blockers - remove if resolved]\n\n## Key Decisions\n- **[Decision]**: [Brief rationale] (preserve all previous, add new)\n\n## Next Steps\n1. [Update based on current state]\n\n## Critical Context\n- [Preserve important context, add new if needed]\n\nKeep each section concise. Preserve exact file paths, function names, and error messages."

	TurnPrefixSummarizationPrompt = "The messages above are earlier context from an ongoing conversation. Later messages are stored separately and do not need to be reconstructed.\n\nCreate a concise checkpoint of the user's request and the progress shown above. This checkpoint will be placed before the later messages so the conversation can continue with the necessary context.\n\n## Original Request\n[What did the user ask for?]\n\n## Progress So Far\n- [Key decisions and work completed in these messages]\n\n## Context Needed to Continue\n- [Information from these messages needed to understand the later work]\n\nOnly summarize information explicitly present above. Do not infer or recreate later messages."
)

const toolResultMaxChars = 2000

// SerializeConversation is pi's convertToLlm followed by serializeConversation:
// the messages as "[User]: …", "[Assistant]: …", "[Assistant tool calls]: …",
// "[Tool result]: …" blocks, so that a model reads them as a document.
func SerializeConversation(s *model.Session, msgs []model.ContextMessage) string {
	var parts []string
	for _, cm := range msgs {
		m := s.Message(cm)
		switch m.Role {
		case model.RoleUser, model.RoleCustom:
			if t := m.Text(""); t != "" {
				parts = append(parts, "[User]: "+t)
			}
		case model.RoleBashExecution:
			if m.Excluded {
				continue
			}
			parts = append(parts, "[User]: "+bashText(&m))
		case model.RoleBranchSummary:
			parts = append(parts, "[User]: The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"+m.Summary+"</summary>")
		case model.RoleCompactionSummary:
			parts = append(parts, "[User]: The conversation history before this point was compacted into the following summary:\n\n<summary>\n"+m.Summary+"\n</summary>")
		case model.RoleAssistant:
			var text, calls []string
			hasText := false
			for _, b := range m.Blocks {
				switch b.Type {
				case model.BlockText:
					text, hasText = append(text, b.Text), true
				case model.BlockToolCall:
					var args []string
					jsjson.ObjectEntries(b.Call.Input, func(k string, v []byte) {
						args = append(args, k+"="+string(jsjson.AppendValue(nil, v)))
					})
					calls = append(calls, b.Call.Name+"("+strings.Join(args, ", ")+")")
				}
			}
			if hasText {
				parts = append(parts, "[Assistant]: "+strings.Join(text, "\n"))
			}
			if len(calls) > 0 {
				parts = append(parts, "[Assistant tool calls]: "+strings.Join(calls, "; "))
			}
		case model.RoleToolResult:
			if t := m.Text(""); t != "" {
				if n := utf8js.Len16(t); n > toolResultMaxChars {
					t = utf8js.Slice16(t, toolResultMaxChars) + fmt.Sprintf("\n\n[... %d more characters truncated]", n-toolResultMaxChars)
				}
				parts = append(parts, "[Tool result]: "+t)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// bashText is pi's bashExecutionToText.
func bashText(m *model.Message) string {
	text := "Ran `" + m.Command + "`\n"
	if m.Output != "" {
		text += "```\n" + m.Output + "\n```"
	} else {
		text += "(no output)"
	}
	switch {
	case m.Cancelled:
		text += "\n\n(command cancelled)"
	case m.ExitCode != "" && m.ExitCode != "0":
		text += "\n\nCommand exited with code " + m.ExitCode
	}
	return text
}

// SummaryPrompt is the user message pi sends to summarize: the conversation
// in tags, the previous summary when there is one, and the instructions.
func SummaryPrompt(conversation, previous, instructions string) string {
	base := SummarizationPrompt
	if previous != "" {
		base = UpdateSummarizationPrompt
	}
	if instructions != "" {
		base += "\n\nAdditional focus: " + instructions
	}
	prompt := "<conversation>\n" + conversation + "\n</conversation>\n\n"
	if previous != "" {
		prompt += "<previous-summary>\n" + previous + "\n</previous-summary>\n\n"
	}
	return prompt + base
}

// TurnPrefixPrompt is the user message pi sends to summarize a split turn's
// prefix.
func TurnPrefixPrompt(conversation, instructions string) string {
	prompt := "# Conversation\n" + conversation + "\n\n# Instructions\n" + TurnPrefixSummarizationPrompt
	if instructions != "" {
		prompt += "\n\nAdditional focus: " + instructions
	}
	return prompt
}

// PreviousSummary is the summary of the compaction the plan follows, if any.
func PreviousSummary(s *model.Session, p *model.Plan) string {
	if p == nil || p.PreviousCompaction < 0 {
		return ""
	}
	return s.EntryMessage(p.PreviousCompaction).Summary
}

// FormatFileOperations is pi's: the file lists as <read-files> and
// <modified-files> tags after the summary.
func FormatFileOperations(read, modified []string) string {
	var sections []string
	if len(read) > 0 {
		sections = append(sections, "<read-files>\n"+strings.Join(read, "\n")+"\n</read-files>")
	}
	if len(modified) > 0 {
		sections = append(sections, "<modified-files>\n"+strings.Join(modified, "\n")+"\n</modified-files>")
	}
	if len(sections) == 0 {
		return ""
	}
	return "\n\n" + strings.Join(sections, "\n\n")
}

// JoinSummaries merges the history summary and a split turn's prefix summary
// as pi does.
func JoinSummaries(history, turnPrefix string) string {
	return history + "\n\n---\n\n**Turn Context (split turn):**\n\n" + turnPrefix
}

// ---- the extractive summarizer -----------------------------------------------

// ExtractiveSummary summarizes without a model, from the conversation itself,
// in pi's structured format: the goals from the user's messages, what was
// done from completed tool calls and the assistant's conclusions, the errors
// met, open questions, and (with a split turn) the turn's context. The
// previous summary's goals, constraints, done items and decisions are kept.
// The file lists are not included: add FormatFileOperations.
func ExtractiveSummary(s *model.Session, p *model.Plan) string {
	x := extract(s, p.MessagesToSummarize)
	if prev := PreviousSummary(s, p); prev != "" {
		x.mergePrevious(prev)
	}
	if p.IsSplitTurn {
		// A constraint stated in the split turn's request still holds.
		for _, c := range extract(s, p.TurnPrefixMessages).constraints {
			x.constraints = addUnique(x.constraints, c)
		}
	}
	var b strings.Builder
	section := func(title string, items []string, empty string) {
		b.WriteString(title + "\n")
		if len(items) == 0 {
			b.WriteString(empty + "\n")
		}
		for _, it := range items {
			b.WriteString(it + "\n")
		}
		b.WriteString("\n")
	}
	section("## Goal", x.goals, "- (not stated in the summarized messages)")
	section("## Constraints & Preferences", bullets(x.constraints), "- (none)")
	b.WriteString("## Progress\n")
	section("### Done", x.done, "- (none)")
	section("### In Progress", x.inProgress, "- (none)")
	section("### Blocked", bullets(x.errors), "- (none)")
	section("## Key Decisions", x.decisions, "- (none)")
	var next []string
	for i, q := range x.next {
		next = append(next, fmt.Sprintf("%d. %s", i+1, q))
	}
	section("## Next Steps", next, "1. Continue from the most recent messages, which are kept.")
	section("## Critical Context", bullets(x.context), "- (none)")
	out := strings.TrimRight(b.String(), "\n")
	if p.IsSplitTurn && len(p.TurnPrefixMessages) > 0 {
		t := extract(s, p.TurnPrefixMessages)
		var tb strings.Builder
		tb.WriteString("## Original Request\n")
		if len(t.requests) > 0 {
			tb.WriteString(t.requests[0] + "\n")
		} else {
			tb.WriteString("(the request is before this part of the turn)\n")
		}
		tb.WriteString("\n## Early Progress\n")
		if len(t.done) == 0 {
			tb.WriteString("- (none)\n")
		}
		for _, d := range t.done {
			tb.WriteString(strings.Replace(d, "- [x] ", "- ", 1) + "\n")
		}
		tb.WriteString("\n## Context for Suffix\n")
		ctx := append(append([]string(nil), t.errors...), last(t.notes, 3)...)
		if len(ctx) == 0 {
			tb.WriteString("- The kept messages continue this turn.\n")
		}
		for _, c := range bullets(last(ctx, 4)) {
			tb.WriteString(c + "\n")
		}
		history := out
		if len(p.MessagesToSummarize) == 0 && PreviousSummary(s, p) == "" {
			history = "No prior history."
		}
		out = JoinSummaries(history, strings.TrimRight(tb.String(), "\n"))
	}
	return out
}

type extraction struct {
	goals, constraints, done, inProgress, errors, decisions, next, context []string
	requests, conclusions, notes                                           []string
}

var (
	constraintWord = regexp.MustCompile(`(?i)\b(don't|do not|never|must|mustn't|should|shouldn't|prefer|keep|without|avoid|always|only|no)\b`)
	decisionWord   = regexp.MustCompile(`(?i)\b(decided|decide|chose|choose|instead|because|went with|switch(ed)? to|will use|use .+ rather|keep the)\b`)
)

// sentences splits text into trimmed sentences on one line each.
func sentences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	for text != "" {
		// The first . ! or ? followed by a space or the end (what
		// `([.!?])(\s+|$)` finds: spaces are single ones here).
		end, next := -1, 0
		for k := 0; k < len(text); k++ {
			if c := text[k]; c == '.' || c == '!' || c == '?' {
				if k+1 == len(text) {
					end, next = k, k+1
					break
				}
				if text[k+1] == ' ' {
					end, next = k, k+2
					break
				}
			}
		}
		if end < 0 {
			out = append(out, text)
			break
		}
		out = append(out, strings.TrimSpace(text[:end+1]))
		text = text[next:]
	}
	return joinListNumbers(out)
}

// joinListNumbers puts a list item's number ("1.") back in front of the
// sentence it numbers: it is not a sentence of its own.
func joinListNumbers(parts []string) []string {
	out := parts[:0]
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if listNumber(p) && i+1 < len(parts) {
			out = append(out, p+" "+parts[i+1])
			i++
			continue
		}
		out = append(out, p)
	}
	return out
}

// listNumber reports whether s is "1." to "999.".
func listNumber(s string) bool {
	if len(s) < 2 || len(s) > 4 || s[len(s)-1] != '.' {
		return false
	}
	for _, c := range s[:len(s)-1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if needsFolding(s) {
		s = strings.Join(strings.Fields(s), " ")
	}
	if len(s) <= n {
		return s // no more runes than bytes
	}
	// The byte offsets of the (n-1)th and nth runes, without a []rune of
	// what may be a whole file's text.
	count, cut := 0, len(s)
	for i := range s {
		if count == n-1 {
			cut = i
		}
		if count == n {
			return strings.TrimSpace(s[:cut]) + "…"
		}
		count++
	}
	return s
}

// needsFolding reports whether strings.Fields would change s: white space
// at its ends, or other than single spaces within.
func needsFolding(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c >= 0x80:
			return true // (any other byte of Unicode's spaces is not ASCII)
		case c == ' ' && s[i+1] == ' ':
			return true
		}
	}
	return false
}

// The words without which constraintWord and decisionWord cannot match an
// ASCII sentence: a cheap test before the regular expression, which was a
// fifth of a long summary's time.
var (
	constraintHints = []string{"don't", "do not", "never", "must", "should", "prefer", "keep", "without", "avoid", "always", "only", "no"}
	decisionHints   = []string{"decide", "chose", "choose", "instead", "because", "went with", "switch", "use", "keep the"}
)

// mayMatch reports whether s holds one of hints, ignoring ASCII case, or is
// not ASCII (where case folding reaches further, the regular expression
// decides).
func mayMatch(s string, hints []string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	low := strings.ToLower(s)
	for _, h := range hints {
		if strings.Contains(low, h) {
			return true
		}
	}
	return false
}

func bullets(items []string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = "- " + it
	}
	return out
}

func last(items []string, n int) []string {
	if len(items) > n {
		return items[len(items)-n:]
	}
	return items
}

func addUnique(list []string, item string) []string {
	for _, x := range list {
		if x == item {
			return list
		}
	}
	return append(list, item)
}

// extract reads the messages once.
func extract(s *model.Session, msgs []model.ContextMessage) extraction {
	var x extraction
	// Two passes, each reading messages on every core: first the heads
	// (roles, and which tool calls failed), then, a block of messages at a
	// time so that a long path is never all in memory, the whole of the
	// messages whose text the summary reads. A tool's result that worked
	// is never read whole.
	type head struct {
		callID string // a tool result's call
		result bool   // a tool's result that worked: never read whole
		failed bool
	}
	heads := make([]head, len(msgs))
	eachMessage(len(msgs), func(i int) {
		// Only a tool's result needs its head read: the entry's role says
		// which messages are.
		if msgs[i].Kind != model.KindMessage || s.Entry(msgs[i].Entry).Role != model.RoleToolResult {
			return
		}
		if h := s.MessageHead(msgs[i]); h.Role == model.RoleToolResult {
			heads[i] = head{h.ToolCallID, !h.IsError, h.IsError}
		}
	})
	results := map[string]bool{} // tool call id -> ended in an error
	for i := range heads {
		if h := &heads[i]; h.callID != "" || h.result || h.failed {
			results[h.callID] = h.failed
		}
	}
	const block = 4096
	all := make([]model.Message, 0, min(block, len(msgs)))
	var steps []string
	lastUserAnswered := true
	for from := 0; from < len(msgs); from += block {
		n := min(block, len(msgs)-from)
		all = all[:n]
		eachMessage(n, func(i int) {
			if h := &heads[from+i]; h.result {
				all[i] = model.Message{Role: model.RoleToolResult, ToolCallID: h.callID}
				return
			}
			all[i] = s.Message(msgs[from+i])
		})
		x.take(all, results, &steps, &lastUserAnswered)
	}
	x.finish(steps, lastUserAnswered)
	return x
}

// eachMessage calls f for 0..n-1 on every core.
func eachMessage(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
}

// take reads a block of messages into the extraction.
func (x *extraction) take(all []model.Message, results map[string]bool, stepsp *[]string, answered *bool) {
	steps, lastUserAnswered := *stepsp, *answered
	defer func() { *stepsp, *answered = steps, lastUserAnswered }()
	for i := range all {
		m := &all[i]
		switch m.Role {
		case model.RoleUser:
			text := strings.TrimSpace(m.Text("\n"))
			if text == "" {
				continue
			}
			x.requests = append(x.requests, clip(text, 300))
			if len(x.goals) < 6 && (len(x.goals) == 0 || utf8.RuneCountInString(text) > 40) {
				x.goals = addUnique(x.goals, "- "+clip(text, 300))
			}
			for _, sen := range sentences(text) {
				if len(x.constraints) < 8 && mayMatch(sen, constraintHints) && constraintWord.MatchString(sen) {
					x.constraints = addUnique(x.constraints, clip(sen, 200))
				}
			}
			lastUserAnswered = false
		case model.RoleBashExecution:
			steps = append(steps, "- [x] Ran `"+clip(m.Command, 100)+"`"+exitNote(m.ExitCode))
		case model.RoleAssistant:
			stop := m.StopReason
			if stop == "error" && m.Error != "" {
				x.errors = addUnique(x.errors, "The model call failed: "+clip(m.Error, 200))
			}
			var text []string
			for _, b := range m.Blocks {
				switch {
				case b.Type == model.BlockText:
					text = append(text, b.Text)
				case b.Type == model.BlockToolCall:
					if failed, ok := results[b.Call.ID]; ok && !failed {
						steps = append(steps, "- [x] "+describeCall(b.Call))
					}
				}
			}
			joined := strings.TrimSpace(strings.Join(text, "\n"))
			if joined == "" {
				continue
			}
			sens := sentences(stripMarkdown(joined))
			if len(sens) > 0 {
				x.notes = append(x.notes, clip(sens[0], 200))
			}
			if len(sens) > 0 && (stop == "stop" || stop == "") {
				x.conclusions = append(x.conclusions, clip(sens[0], 200))
				lastUserAnswered = true
			}
			for _, sen := range sens {
				if len(x.decisions) < 12 && mayMatch(sen, decisionHints) && decisionWord.MatchString(sen) {
					x.decisions = addUnique(x.decisions, "- **"+clip(firstWords(sen, 6), 60)+"**: "+clip(sen, 220))
				}
			}
			if stop == "stop" || stop == "" {
				x.next = nil
				for _, sen := range sens {
					if strings.HasSuffix(sen, "?") {
						x.next = addUnique(x.next, "Answer: "+clip(sen, 200))
					}
				}
			}
		case model.RoleToolResult:
			if m.IsError {
				first := strings.TrimSpace(m.Text("\n"))
				if i := strings.IndexByte(first, '\n'); i >= 0 {
					first = first[:i]
				}
				x.errors = addUnique(x.errors, m.ToolName+" failed: "+clip(first, 200))
			}
		}
	}
}

// finish makes the sections that need every message read.
func (x *extraction) finish(steps []string, lastUserAnswered bool) {
	// Done: the steps that completed (the latest when there are many), then
	// what the assistant concluded.
	const maxSteps = 12
	if len(steps) > maxSteps {
		x.done = append(x.done, fmt.Sprintf("- [x] (%d earlier steps)", len(steps)-maxSteps))
		steps = steps[len(steps)-maxSteps:]
	}
	for _, st := range steps {
		x.done = addUnique(x.done, st)
	}
	for _, c := range last(x.conclusions, 4) {
		x.done = addUnique(x.done, "- [x] "+c)
	}
	if !lastUserAnswered && len(x.requests) > 0 {
		x.inProgress = append(x.inProgress, "- [ ] "+x.requests[len(x.requests)-1])
	}
	if len(x.conclusions) > 0 {
		x.context = append(x.context, "Last conclusion: "+x.conclusions[len(x.conclusions)-1])
	}
	if len(x.errors) > 0 {
		x.context = append(x.context, "Last error: "+x.errors[len(x.errors)-1])
	}
	x.errors = last(x.errors, 6)
}

// mergePrevious keeps what the previous summary said, before the new items.
func (x *extraction) mergePrevious(prev string) {
	sec := parseSections(prev)
	merge := func(old []string, cur []string) []string {
		out := append([]string(nil), old...)
		for _, c := range cur {
			out = addUnique(out, c)
		}
		return out
	}
	x.goals = merge(sec["## Goal"], x.goals)
	x.constraints = merge(trimBullets(sec["## Constraints & Preferences"]), x.constraints)
	x.done = merge(sec["### Done"], x.done)
	x.decisions = merge(sec["## Key Decisions"], x.decisions)
	x.context = merge(trimBullets(sec["## Critical Context"]), x.context)
}

// parseSections reads a structured summary's sections (their non-empty
// lines), up to the file lists.
func parseSections(summary string) map[string][]string {
	if i := strings.Index(summary, "\n\n<read-files>"); i >= 0 {
		summary = summary[:i]
	}
	if i := strings.Index(summary, "\n\n<modified-files>"); i >= 0 {
		summary = summary[:i]
	}
	if i := strings.Index(summary, "\n\n---\n\n**Turn Context"); i >= 0 {
		summary = summary[:i]
	}
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(summary, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "## ") || strings.HasPrefix(t, "### "):
			cur = t
		case t == "" || cur == "" || t == "- (none)" || t == "(none)":
		default:
			out[cur] = append(out[cur], t)
		}
	}
	return out
}

func trimBullets(items []string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, strings.TrimPrefix(it, "- "))
	}
	return out
}

func exitNote(code string) string {
	if code == "" || code == "0" {
		return ""
	}
	return " (exit " + code + ")"
}

// describeCall says what a completed tool call did, keeping exact paths and
// commands.
func describeCall(tc model.ToolCall) string {
	arg := model.KeyArgument(tc.Input)
	switch tc.Name {
	case "read":
		return "Read `" + clip(arg, 120) + "`"
	case "write":
		return "Wrote `" + clip(arg, 120) + "`"
	case "edit":
		return "Edited `" + clip(arg, 120) + "`"
	case "bash":
		return "Ran `" + clip(arg, 120) + "`"
	}
	if arg != "" {
		return "Used " + tc.Name + " on `" + clip(arg, 100) + "`"
	}
	return "Used " + tc.Name
}

func stripMarkdown(s string) string {
	// Drop fenced code: it is not prose to summarize.
	var b strings.Builder
	inFence := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if !inFence {
			b.WriteString(line + "\n")
		}
	}
	return dropMarkdownNoise(b.String())
}

// dropMarkdownNoise removes what `(?m)^#{1,6} |\*\*|__|^\s*[-*] ` matches
// (heading marks, bold, bullets), as regexp's ReplaceAllString would, by
// hand: the regular expression was most of an extractive summary's time.
func dropMarkdownNoise(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	for i := 0; i < len(s); {
		lineStart := i == 0 || s[i-1] == '\n'
		if lineStart && s[i] == '#' {
			k := i
			for k < len(s) && s[k] == '#' && k-i < 6 {
				k++
			}
			if k < len(s) && s[k] == ' ' {
				i = k + 1
				continue
			}
		}
		if i+1 < len(s) && (s[i] == '*' && s[i+1] == '*' || s[i] == '_' && s[i+1] == '_') {
			i += 2
			continue
		}
		if lineStart {
			j := i
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			if j+1 < len(s) && (s[j] == '-' || s[j] == '*') && s[j+1] == ' ' {
				i = j + 2
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.TrimRight(strings.Join(f, " "), ".,:;")
}
