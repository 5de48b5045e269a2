package codex

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/internal/jscan"
	"skein/model"
	"skein/store"
)

// agentgenUsage is one request of a scenario's usage.json: the thread (the
// session) it was made for, and the usage the fake server reported (null
// for a request that failed).
type agentgenUsage struct {
	Thread string
	Usage  *struct {
		InputTokens        float64 `json:"input_tokens"`
		OutputTokens       float64 `json:"output_tokens"`
		InputTokensDetails struct {
			CachedTokens float64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
	}
}

// TestAgentgenShow checks, on every rollout Codex wrote in
// testdata/agentgen/codex, what issue 23 asks skein to show: each tool call
// of the context followed by its result (parallel calls: N calls, then
// their N outputs by call_id), one branch (a fork is a file of its own, with
// a branch of its own), doctor's check clean (no problem, no warning: the
// line types 0.171.0 added are not flagged), and the stats' tokens equal to
// what the fake server reported for the requests of that session (a fork's
// own requests only: Codex's running totals in a fork include its source's,
// which the store would otherwise count twice).
func TestAgentgenShow(t *testing.T) {
	n := 0
	for _, sc := range agentgen.Scenarios(t) {
		dir := sc.Dir
		var usage []agentgenUsage
		formattest.ReadJSON(t, filepath.Join(dir, "usage.json"), &usage)
		failed, errors := 0, 0
		for _, st := range sc.Steps {
			if st.Exit != 0 {
				failed++
			}
		}
		paths, err := filepath.Glob(filepath.Join(dir, "codex-home/sessions/*/*/*/rollout-*.jsonl"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: no rollouts (%v)", sc.Name, err)
		}
		for _, path := range paths {
			n++
			name := sc.Name + "/" + filepath.Base(path)[len("rollout-2026-12-06T12-45-47-"):]
			t.Run(name, func(t *testing.T) {
				s := open(t, path)
				checkPairs(t, s)
				if tips := s.Tips(); tips != 1 {
					t.Errorf("%d branches, want 1", tips)
				}
				diags, format, err := store.Check(path)
				if err != nil || format != store.FormatCodex || len(diags) > 0 {
					t.Errorf("doctor: %v, %s, %+v", err, format, diags)
				}
				var want model.UsageTotals
				for _, u := range usage {
					if u.Thread == s.Meta.ID && u.Usage != nil {
						cached := u.Usage.InputTokensDetails.CachedTokens
						want.AddUsage(model.UsageTotals{TokensIn: u.Usage.InputTokens - cached, CacheRead: cached, TokensOut: u.Usage.OutputTokens})
					}
				}
				st := s.Stats()
				got := st.UsageTotals
				got.Cost, got.Unpriced = 0, 0 // the price table's part: agentgen_cost_test.go
				if got != want {
					t.Errorf("tokens %+v, the server reported %+v", got, want)
				}
				errors += st.Errors
				checkErrors(t, s, st.Errors)
				checkInjected(t, s, st)
			})
		}
		// codex exec exits 1 when its turn fails, and only then.
		if errors != failed {
			t.Errorf("%s: %d errors counted, %d turns failed", sc.Name, errors, failed)
		}
	}
	if n < 12 {
		t.Errorf("%d rollouts, want the 12 of the 10 scenarios", n)
	}
}

// checkPairs checks that every tool call of the context at the leaf has
// its result after it, before the next message that is not a call or a
// result (Codex writes a response's calls, then their outputs), and every
// result a call before it: what session show --tools shows in order.
func checkPairs(t *testing.T, s *Session) {
	t.Helper()
	ctx := s.BuildContext(s.Leaf())
	open := map[string]bool{}
	for _, m := range ctx.Messages {
		msg := s.Message(m)
		calls := msg.ToolCalls()
		switch {
		case len(calls) > 0:
			for _, c := range calls {
				open[c.ID] = true
			}
		case msg.Role == model.RoleToolResult:
			if !open[msg.ToolCallID] {
				t.Errorf("result for %s, which no call before it has", msg.ToolCallID)
			}
			delete(open, msg.ToolCallID)
		case len(open) > 0 && (msg.Role == model.RoleUser || msg.Role == model.RoleAssistant && msg.Text("") != ""):
			t.Errorf("%s message %q before the results of %v", msg.Role, clip([]byte(msg.Text(" "))), open)
			clear(open)
		}
	}
	if len(open) > 0 {
		t.Errorf("calls without a result: %v", open)
	}
}

// checkErrors checks that the session's n errors are messages of the
// history at the leaf, each an assistant's with its error's text, and none
// in the context (Codex does not send them), where they show as omitted.
func checkErrors(t *testing.T, s *Session, n int) {
	t.Helper()
	shown := 0
	for _, m := range s.BuildHistory(s.Leaf()).Messages {
		if msg := s.Message(m); msg.Error != "" {
			shown++
			if msg.Role != model.RoleAssistant || msg.StopReason != "error" || msg.Model == "" {
				t.Errorf("error message %+v", msg)
			}
		}
	}
	if shown != n {
		t.Errorf("%d errors in the history, %d counted", shown, n)
	}
	d := dom(s)
	ctx := d.BuildContext(s.Leaf())
	omitted := 0
	for k := range ctx.Entries {
		if d.Omitted(ctx, k) {
			omitted++
		}
	}
	for _, m := range ctx.Messages {
		if s.Message(m).Error != "" {
			t.Errorf("an error in the context: %s", s.Entries[m.Entry].ID())
		}
	}
	if omitted != n {
		t.Errorf("%d entries shown as omitted from the context, want the %d errors", omitted, n)
	}
}

// checkInjected checks that the user messages Codex injected are marked as
// its context, and only those: 0.171.0 names each part of a message it
// writes (content_item_kinds: "user.text" for the user's words,
// "agents_md.instructions", "environments.environment_context",
// "multi_agent.subagent_notification"... for its own). The user's
// messages are the stats' user messages, and the first is the list's.
func checkInjected(t *testing.T, s *Session, st model.Stats) {
	t.Helper()
	users, first := 0, ""
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeResponseItem || e.ItemType != "message" || e.Role != "user" {
			continue
		}
		var kinds []string
		raw := jscan.ObjectMember(jscan.ObjectMember(e.Payload, passthrough), "content_item_kinds")
		if err := json.Unmarshal(raw, &kinds); err != nil || len(kinds) == 0 {
			t.Fatalf("%s: content_item_kinds %s: %v", e.ID(), raw, err)
		}
		msg := s.Message(model.ContextMessage{Entry: i})
		words := slices.Contains(kinds, "user.text")
		if msg.Injected == words {
			t.Errorf("%s %v: injected %v", e.ID(), kinds, msg.Injected)
		}
		if words {
			users++
			if first == "" {
				first = msg.Text(" ")
			}
		}
		tree := partsText(s.TreeText(i, ""))
		if strings.HasPrefix(tree, "user: (context) ") == words {
			t.Errorf("%s %v: tree text %q", e.ID(), kinds, clip([]byte(tree)))
		}
	}
	if st.UserMessages != users {
		t.Errorf("%d user messages counted, Codex wrote %d of the user's", st.UserMessages, users)
	}
	if info := s.Info("x.jsonl", 0); info.FirstMessage != first || first == "" {
		t.Errorf("first message %q, want %q", info.FirstMessage, first)
	}
}
