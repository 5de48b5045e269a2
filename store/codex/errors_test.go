package codex

import (
	"bytes"
	"strings"
	"testing"

	"skein/model"
)

// An older Codex's failed turn, as the real rollouts issue 23 names hold
// it: the user's message, then an error event and nothing from the model
// (the provider refused the developer role). Codex 0.171.0 writes a
// task_complete with an error instead (testdata/agentgen/codex's
// server-errors, which TestAgentgenShow checks).
var errorEventLines = []string{
	`{"timestamp":"2025-09-02T08:00:00.000Z","type":"session_meta","payload":{"id":"0199e000-0000-7000-8000-00000000e001","timestamp":"2025-09-02T08:00:00.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.29.0","model_provider":"ollama"}}`,
	`{"timestamp":"2025-09-02T08:00:00.010Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}}`,
	`{"timestamp":"2025-09-02T08:00:00.020Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Hello?"}]}}`,
	`{"timestamp":"2025-09-02T08:00:00.020Z","type":"event_msg","payload":{"type":"user_message","message":"Hello?","kind":"plain"}}`,
	`{"timestamp":"2025-09-02T08:00:00.030Z","type":"turn_context","payload":{"cwd":"/w","approval_policy":"on-request","model":"llama3"}}`,
	`{"timestamp":"2025-09-02T08:00:00.500Z","type":"event_msg","payload":{"type":"error","message":"unexpected status 400 Bad Request: {\"error\":{\"message\":\"'developer' is not one of ['system', 'assistant', 'user', 'function'] - 'messages.0.role'\"}}"}}`,
}

// An error event is the failed turn's reply: an assistant's message with
// the error, counted in the stats' errors, shown in the history and the
// tree, and left out of the context Codex resumes with (and so of its
// JSON), where the screens show it as omitted.
func TestErrorEvent(t *testing.T) {
	s := parse(t, errorEventLines...)
	i := at(t, s, 6)
	if e := s.Entry(i); e.Kind != model.EntryMessage || e.Role != model.RoleAssistant {
		t.Fatalf("error event %+v", e)
	}
	msg := s.Message(model.ContextMessage{Entry: i})
	if msg.Role != model.RoleAssistant || msg.StopReason != "error" || !strings.Contains(msg.Error, "'developer' is not one of") ||
		msg.Model != "llama3" || msg.Provider != "ollama" || len(msg.Blocks) != 0 {
		t.Errorf("message %+v", msg)
	}
	if st := s.Stats(); st.Errors != 1 || st.AssistantMessages != 1 {
		t.Errorf("stats %+v", st.Totals)
	}
	if got := ctxIDs(s, s.BuildHistory(s.Leaf()).Messages); strings.Join(got, " ") != "L2 L3 L6" {
		t.Errorf("history %v", got)
	}
	ctx := s.BuildContext(s.Leaf())
	if got := ctxIDs(s, ctx.Messages); strings.Join(got, " ") != "L2 L3" {
		t.Errorf("context %v", got)
	}
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, ctx); err != nil || strings.Contains(buf.String(), "is not one of") {
		t.Errorf("context JSON %v: %s", err, buf.String())
	}
	d := dom(s)
	for k, pe := range ctx.Entries {
		if d.Omitted(ctx, k) != (pe.Entry == i) {
			t.Errorf("entry %s omitted: %v", s.Entries[pe.Entry].ID(), d.Omitted(ctx, k))
		}
	}
	if tree := partsText(s.TreeText(i, "")); tree != "assistant: error: "+model.OneLine(msg.Error) {
		t.Errorf("tree text %q", tree)
	}
	if info := s.Info("x.jsonl", 0); info.MessageCount != 3 || info.FirstMessage != "Hello?" {
		t.Errorf("info %+v", info)
	}
}

// 0.171.0's failed turn is its task_complete with an error; a
// task_complete without one (a turn that worked) is no message.
func TestTaskCompleteError(t *testing.T) {
	s := parse(t, append(errorEventLines[:5:5],
		`{"timestamp":"2026-12-06T12:45:34.528Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Hello.","error":null}}`,
		`{"timestamp":"2026-12-06T12:45:36.079Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t2","last_agent_message":null,"error":{"message":"stream disconnected before completion: boom","codex_error_info":"other"}}}`)...)
	if e := s.Entry(at(t, s, 6)); e.Kind == model.EntryMessage {
		t.Errorf("a turn that worked as a message: %+v", e)
	}
	msg := s.Message(model.ContextMessage{Entry: at(t, s, 7)})
	if msg.Error != "stream disconnected before completion: boom" || msg.StopReason != "error" {
		t.Errorf("message %+v", msg)
	}
	if st := s.Stats(); st.Errors != 1 {
		t.Errorf("errors %d", st.Errors)
	}
}

func partsText(parts []model.Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
