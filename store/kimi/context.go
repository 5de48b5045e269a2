package kimi

import (
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// BuildContext is what Kimi Code sends when it resumes at leaf: its
// loop-event fold (agent-core-v2's loopEventFold.ts) over the wire of
// leaf's agent, from the root to leaf. A context.append_message is sent
// as it is (the injections too), unless tool calls are pending, when it
// waits for their results; a step.begin opens an assistant message that
// its content.part and tool.call events fill; a tool.result of a pending
// call is sent as a tool message; a step.end seals the step, and drops
// it when it said nothing and called nothing; context.undo takes back
// the last count user turns; context.clear empties the context;
// context.apply_compaction starts it again from its summary.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	agent := s.Entries[leaf].Agent
	var out []int
	open, openStep := -1, ""
	openCalls, openVacuous := false, true
	pending := map[string]bool{}
	var deferred []int
	flush := func() {
		if len(pending) > 0 {
			return
		}
		out = append(out, deferred...)
		deferred = deferred[:0]
	}
	settle := func() {
		if open < 0 {
			return
		}
		clear(pending) // Kimi Code adds an "interrupted" result of its own for each
		if !openCalls && openVacuous {
			for k := len(out) - 1; k >= 0; k-- {
				if out[k] == open {
					out = append(out[:k], out[k+1:]...)
					break
				}
			}
		}
		open, openStep = -1, ""
		flush()
	}
	for _, i := range ctx.Path {
		e := &s.Entries[i]
		if e.Agent != agent {
			continue
		}
		switch {
		case e.Type == TypeAppendMsg:
			if len(pending) > 0 {
				deferred = append(deferred, i)
			} else {
				out = append(out, i)
			}
		case e.Event == "step.begin":
			settle()
			out = append(out, i)
			open, openStep, openCalls, openVacuous = i, e.Step, false, true
		case e.Event == "content.part" && open >= 0 && e.Step == openStep:
			for _, b := range partsBlocks([]byte("[" + string(jscan.ObjectMember(jscan.ObjectMember(e.Raw, "event"), "part")) + "]")) {
				if strings.TrimSpace(b.Text) != "" || b.Type == model.BlockImage || b.Type == model.BlockOther {
					openVacuous = false
				}
			}
		case e.Event == "tool.call" && open >= 0 && e.Step == openStep:
			pending[e.CallID] = true
			openCalls = true
		case e.Event == "tool.result" && pending[e.CallID]:
			delete(pending, e.CallID)
			out = append(out, i)
			flush()
		case e.Event == "step.end":
			if r := jscan.StringMember(jscan.ObjectMember(e.Raw, "event"), "finishReason"); r == "interrupted" || r == "error" {
				continue
			}
			settle()
		case e.Type == TypeClear:
			out, deferred, open = nil, nil, -1
			clear(pending)
		case e.Type == TypeCompaction:
			settle()
			out = []int{i}
			ctx.Compaction = i
		case e.Type == TypeUndo:
			n, _ := strconv.Atoi(string(jscan.ObjectMember(e.Raw, "count")))
			out = s.undo(out, n)
			open = -1
			clear(pending)
		}
	}
	for _, i := range out {
		kind := model.KindMessage
		if s.Entries[i].Type == TypeCompaction {
			kind = model.KindCompactionSummary
		}
		ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: kind})
	}
	return ctx
}

// undo takes the last n user turns back (applyUndo): from the end, every
// message but an injection, back to the n-th message the user typed and
// the injections of that prompt just before it; never past a compaction.
func (s *Session) undo(out []int, n int) []int {
	users := 0
	for k := len(out) - 1; k >= 0 && users < n; k-- {
		e := &s.Entries[out[k]]
		if e.Type == TypeCompaction {
			break
		}
		origin := jscan.StringMember(jscan.ObjectMember(jscan.ObjectMember(e.Raw, "message"), "origin"), "kind")
		if origin == "injection" {
			continue
		}
		out = append(out[:k], out[k+1:]...)
		if e.Type == TypeAppendMsg && origin == "user" {
			users++
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// jsdateISO is a time in ms as an ISO string, "" when it is none.
func jsdateISO(ms float64) string {
	s, _ := jsdate.ISO(ms)
	return s
}
