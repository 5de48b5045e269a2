package kimi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/internal/jscan"
	"skein/model"
)

// The sessions Kimi Code 2.1.0 wrote and the requests it sent when it
// resumed them (testdata/agentgen/kimi/README.md): the committed ones, or
// those a run with a fresh seed just made (AGENTGEN_OUT).
var agentgen = formattest.AgentgenSteps[formattest.Step]("kimi")

var read = formattest.ReadFile

// mainWire is the main agent's wire of session id under a Kimi Code home.
func mainWire(t *testing.T, home, id string) string {
	t.Helper()
	return formattest.OneFile(t, filepath.Join(home, "sessions", "wd_*", id, "agents", "main", "wire.jsonl"))
}

// TestAgentgenSessions: each session listed (id, cwd, first prompt,
// model), opened without a diagnostic, every call followed by its result
// (the sub-agent's too, its entries under the call that started it), one
// branch, and the stats' tokens equal to what the server reported.
func TestAgentgenSessions(t *testing.T) {
	b := backend
	for _, sc := range agentgen.Scenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			path := mainWire(t, filepath.Join(sc.Dir, "kimi-home"), sc.Steps[0].Session)
			formattest.Recognized(t, path, b.Claims, b.Detect, Sniff)
			_, info, err := b.ListInfo(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if info.ID != sc.Steps[0].Session || info.Cwd != "/sandbox/proj" || info.FirstMessage != sc.Steps[0].Args[1] || info.Model != "kimi-fake" || info.MessageCount == 0 {
				t.Errorf("info %+v", info)
			}
			if name, args := b.Resume(path); name != "kimi" || strings.Join(args, " ") != "--session "+sc.Steps[0].Session {
				t.Errorf("resume %s %v", name, args)
			}
			d, err := b.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			s := d.Source.(*Session)
			formattest.NoDiagnostics(t, s)
			if ends := d.BranchEnds(); len(ends) != 1+len(agentWires(path)) {
				t.Errorf("%d branch ends, %d sub-agents", len(ends), len(agentWires(path)))
			}
			var msgs []model.Message
			for i := range s.Entries {
				if s.Entries[i].kind == model.EntryMessage {
					msgs = append(msgs, s.Message(model.ContextMessage{Entry: i}))
				}
				if i > 0 && s.Entries[i].Agent != s.Entries[i-1].Agent {
					p := s.Parent(i)
					if p < 0 || s.Entries[p].Event != "tool.call" {
						t.Errorf("sub-agent %s not under a call", s.Entries[i].Agent)
					}
				}
			}
			calls := formattest.CallsAnswered(t, msgs, model.PairTools(msgs))
			formattest.OpenAIStats(t, s.Stats(), filepath.Join(sc.Dir, "usage.json"), len(calls))
		})
	}
}

// TestAgentgenContext checks that the context skein builds from the main
// wire cut where a resume began is what Kimi Code sent in that resume's
// first request: the request's messages less the system prompt and the
// new turn's (the prompt and the injections after it, all the user's),
// with skein's messages written as Kimi Code's OpenAI provider writes
// them (openaiMessages).
func TestAgentgenContext(t *testing.T) {
	for _, sc := range agentgen.Scenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			path := mainWire(t, filepath.Join(sc.Dir, "kimi-home"), sc.Steps[0].Session)
			rel, _ := filepath.Rel(filepath.Join(sc.Dir, "kimi-home"), path)
			data := read(t, path)
			var resumes []int
			for i, st := range sc.Steps {
				if i > 0 && len(st.Args) > 2 {
					resumes = append(resumes, i)
				}
			}
			for k, i := range resumes {
				name := formattest.ResumeRequest(k, len(resumes))
				var req struct{ Messages []map[string]any }
				formattest.ReadJSON(t, filepath.Join(sc.Dir, name), &req)
				n := sc.Steps[i-1].Lines[filepath.ToSlash(rel)]
				cut, ok := formattest.Cut(data, n)
				if !ok {
					t.Fatalf("%s has fewer than %d lines", rel, n)
				}
				s, err := Parse(cut)
				if err != nil {
					t.Fatal(err)
				}
				got := openaiMessages(s, s.BuildContext(s.Leaf()))
				sent := req.Messages[1:]
				if len(sent) < len(got) {
					t.Fatalf("%s: skein %d messages, sent %d", name, len(got), len(sent))
				}
				for _, m := range sent[len(got):] {
					if m["role"] != "user" {
						t.Errorf("%s: the new turn has a %v message", name, m["role"])
					}
				}
				if len(got) < 3 {
					t.Errorf("%s: only %d messages in the context", name, len(got))
				}
				want := normalize(sent[:len(got)])
				if !reflect.DeepEqual(normalize(got), want) {
					g, _ := json.MarshalIndent(got, "", " ")
					w, _ := json.MarshalIndent(want, "", " ")
					t.Errorf("%s: context\n%s\nsent\n%s", name, g, w)
				}
			}
		})
	}
}

func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// openaiMessages are a context's messages as Kimi Code's OpenAI provider
// sends them: a user's single text part as a string, an assistant's text
// joined (null for none) with its tool_calls and its thinking as
// reasoning_content, a tool result rendered as renderToolResultForModel
// does (the error status line, the wall time of Bash and the like).
func openaiMessages(s *Session, ctx model.Context) []map[string]any {
	var out []map[string]any
	for _, cm := range ctx.Messages {
		m := s.Message(cm)
		switch m.Role {
		case model.RoleAssistant:
			o := map[string]any{"role": "assistant", "content": nil}
			var text, think []string
			var calls []any
			for _, b := range m.Blocks {
				switch b.Type {
				case model.BlockText:
					text = append(text, b.Text)
				case model.BlockThinking:
					think = append(think, b.Text)
				case model.BlockToolCall:
					calls = append(calls, map[string]any{"id": b.Call.ID, "type": "function", "function": map[string]any{"name": b.Call.Name, "arguments": compact(b.Call.Input)}})
				}
			}
			if len(text) > 0 {
				o["content"] = strings.Join(text, "")
			}
			if calls != nil {
				o["tool_calls"] = calls
			}
			if think != nil {
				o["reasoning_content"] = strings.Join(think, "")
			}
			out = append(out, o)
		case model.RoleToolResult:
			text := m.Text("")
			raw := jscan.ObjectMember(jscan.ObjectMember(s.Entries[cm.Entry].Raw, "event"), "result")
			if m.IsError {
				text = "<system>ERROR: Tool execution failed.</system>\n" + text
			}
			if d := jscan.ObjectMember(raw, "durationMs"); d != nil && wallTime[m.ToolName] {
				var ms float64
				_ = json.Unmarshal(d, &ms)
				text = fmt.Sprintf("Wall time: %.3f seconds\n", ms/1000) + text
			}
			out = append(out, map[string]any{"role": "tool", "tool_call_id": m.ToolCallID, "content": text})
		default:
			out = append(out, map[string]any{"role": "user", "content": m.Text("")})
		}
	}
	return out
}

var wallTime = map[string]bool{"Agent": true, "AgentSwarm": true, "Bash": true, "FetchURL": true, "Glob": true, "Grep": true, "WebSearch": true}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}
