package qwen

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// The chats Qwen Code 0.24.4 wrote and the requests it sent when it
// resumed them (testdata/agentgen/qwen/README.md): the committed ones, or
// those a cross-check run just made with a fresh seed (AGENTGEN_OUT,
// testdata/agentgen/crosscheck.sh).
var agentgen = formattest.AgentgenSteps[formattest.Step]("qwen")

var read = formattest.ReadFile

// chatPath is the path of session id's chat under a qwen home.
func chatPath(t *testing.T, home, id string) string {
	t.Helper()
	return formattest.OneFile(t, filepath.Join(home, "projects", "*", "chats", id+".jsonl"))
}

// TestAgentgenChats checks every chat Qwen Code wrote as the list and the
// session screen read it: listed by its backend, its record, every tool
// call followed by its result, one branch (no scenario rewinds), and the
// tokens of the stats equal to what the fake server reported.
func TestAgentgenChats(t *testing.T) {
	b := backend
	for _, sc := range agentgen.Scenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			last := sc.Steps[len(sc.Steps)-1]
			home := filepath.Join(sc.Dir, "qwen-home")
			path := chatPath(t, home, sc.Steps[0].Session)
			formattest.Recognized(t, path, b.Claims, b.Detect, Sniff)
			_, info, err := b.ListInfo(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if info.ID != last.Session || info.Cwd != "/sandbox/proj" || info.FirstMessage != sc.Steps[0].Args[1] || info.Model != "qwen-fake" || info.MessageCount == 0 {
				t.Errorf("info %+v", info)
			}
			d, err := b.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			s := Of(d)
			if s.Tips() != 1 || info.Branches != 1 {
				t.Errorf("%d branches", s.Tips())
			}
			formattest.NoDiagnostics(t, s)
			// The chat's messages, then each sub-agent's, in order.
			var msgs []model.Message
			for i := range s.Entries {
				if s.Entries[i].kind == model.EntryMessage {
					msgs = append(msgs, s.Message(model.ContextMessage{Entry: i}))
				}
			}
			for _, a := range s.Agents {
				if a.Call < 0 || a.CallID == "" {
					t.Errorf("sub-agent %s: no call", a.Name)
					continue
				}
				first := -1
				for i := range s.Entries {
					if s.Entries[i].File > 0 && s.Parent(i) == a.Call {
						first = i
					}
				}
				if first < 0 {
					t.Errorf("sub-agent %s not under its call %s", a.Name, a.CallID)
				}
			}
			calls := formattest.CallsAnswered(t, msgs, model.PairTools(msgs))
			formattest.OpenAIStats(t, s.Stats(), filepath.Join(sc.Dir, "usage.json"), len(calls))
		})
	}
}

// TestAgentgenContext checks that the context skein builds at the end of
// a chat, cut to the lines it had when a resume began, is the history
// Qwen Code sent in that resume's first request: skein's Contents turned
// into OpenAI messages as Qwen Code's converter does (openaiMessages),
// against the request's messages less the system prompt, the startup
// context Qwen Code puts before the first user message's parts (its
// <system-reminder> parts), and the last message (the new turn's).
func TestAgentgenContext(t *testing.T) {
	for _, sc := range agentgen.Scenarios(t) {
		resumes := 0
		for _, st := range sc.Steps {
			if isResume(st.Args) {
				resumes++
			}
		}
		k := 0
		for j, st := range sc.Steps {
			if !isResume(st.Args) {
				continue
			}
			file := formattest.ResumeRequest(k, resumes)
			k++
			t.Run(sc.Name+"/"+file, func(t *testing.T) {
				home := t.TempDir()
				for p, n := range sc.Steps[j-1].Lines {
					data := read(t, filepath.Join(sc.Dir, "qwen-home", p))
					if strings.HasSuffix(p, ".jsonl") {
						var ok bool
						if data, ok = formattest.Cut(data, n); !ok {
							t.Fatalf("%s has fewer than %d lines", p, n)
						}
					}
					formattest.Put(t, filepath.Join(home, p), data)
				}
				s, err := Open(chatPath(t, home, sc.Steps[0].Session))
				if err != nil {
					t.Fatal(err)
				}
				var got struct{ Messages []map[string]any }
				formattest.LeafContextJSON(t, s, &got)
				var req struct{ Messages []map[string]any }
				formattest.ReadJSON(t, filepath.Join(sc.Dir, file), &req)
				want := sentHistory(req.Messages)
				have := normalize(openaiMessages(got.Messages))
				if diff := formattest.FirstDiff("message", want, have, 400); diff != "" {
					t.Fatal(diff)
				}
			})
		}
	}
}

func isResume(args []string) bool {
	for _, a := range args {
		if a == "--resume" || a == "--continue" {
			return true
		}
	}
	return false
}

// sentHistory is a request's messages less the system prompt, the startup
// context's parts at the head of the first user message, and the new
// turn's message (the last).
func sentHistory(msgs []map[string]any) []any {
	if len(msgs) > 0 && msgs[0]["role"] == "system" {
		msgs = msgs[1:]
	}
	// A new turn's message holds the parts of a user Content the history
	// ends with (a turn whose request failed) before what Qwen Code adds
	// to it (the date's reminder): Qwen Code sends them as one message. A
	// compression's request ends with its instructions, no reminder.
	var tail []any
	if len(msgs) > 0 {
		parts, _ := msgs[len(msgs)-1]["content"].([]any)
		turn := false
		for _, p := range parts {
			if text, _ := p.(map[string]any)["text"].(string); strings.HasPrefix(text, "<system-reminder>") {
				turn = true
				break
			}
			tail = append(tail, p)
		}
		if !turn {
			tail = nil
		}
		msgs = msgs[:len(msgs)-1]
	}
	if len(tail) > 0 {
		msgs = append(msgs, map[string]any{"role": "user", "content": tail})
	}
	var out []map[string]any
	first := true
	for _, m := range msgs {
		if first && m["role"] == "user" {
			first = false
			parts, _ := m["content"].([]any)
			for len(parts) > 0 {
				p, _ := parts[0].(map[string]any)
				if text, _ := p["text"].(string); !strings.HasPrefix(text, "<system-reminder>") {
					break
				}
				parts = parts[1:]
			}
			if len(parts) == 0 {
				continue
			}
			m = map[string]any{"role": "user", "content": parts}
		}
		out = append(out, m)
	}
	return normalize(out)
}

// normalize decodes each tool call's arguments, so that two JSON texts of
// one object compare equal whatever their key order (Qwen Code's
// JSON.stringify keeps the args' order; Go's decoding does not).
func normalize(msgs []map[string]any) []any {
	var out []any
	for _, m := range msgs {
		calls, _ := m["tool_calls"].([]any)
		for _, c := range calls {
			f, _ := c.(map[string]any)["function"].(map[string]any)
			if a, ok := f["arguments"].(string); ok {
				var v any
				_ = json.Unmarshal([]byte(a), &v)
				f["arguments"] = v
			}
		}
		out = append(out, m)
	}
	return out
}

// openaiMessages turns Contents into OpenAI Chat messages as Qwen Code
// 0.24.4's converter does (openaiContentGenerator/converter.ts
// processContent), for the parts the fixtures hold: a model Content is an
// assistant message (its texts joined as content, "" when it has only
// thoughts, null when only calls; tool_calls with their args as JSON;
// reasoning_content its thoughts joined); a user Content gives a tool
// message per functionResponse (content its output, else its error, as a
// text part), then a user message of its text parts.
func openaiMessages(contents []map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range contents {
		parts, _ := c["parts"].([]any)
		if c["role"] == "model" {
			var text, reasoning string
			var calls []any
			for _, p := range parts {
				p := p.(map[string]any)
				t, isText := p["text"].(string)
				switch {
				case isText && p["thought"] == true:
					reasoning += t
				case isText:
					text += t
				case p["functionCall"] != nil:
					fc := p["functionCall"].(map[string]any)
					args, _ := json.Marshal(fc["args"])
					if fc["args"] == nil {
						args = []byte("{}")
					}
					calls = append(calls, map[string]any{"id": fc["id"], "type": "function", "function": map[string]any{"name": fc["name"], "arguments": string(args)}})
				}
			}
			if text == "" && reasoning == "" && len(calls) == 0 {
				continue
			}
			m := map[string]any{"role": "assistant", "content": text}
			if text == "" && reasoning == "" {
				m["content"] = nil
			}
			if len(calls) > 0 {
				m["tool_calls"] = calls
			}
			if reasoning != "" {
				m["reasoning_content"] = reasoning
			}
			out = append(out, m)
			continue
		}
		var texts []any
		for _, p := range parts {
			p := p.(map[string]any)
			if t, ok := p["text"].(string); ok && t != "" && p["thought"] != true {
				texts = append(texts, map[string]any{"type": "text", "text": t})
			}
			if fr, ok := p["functionResponse"].(map[string]any); ok {
				resp, _ := fr["response"].(map[string]any)
				text, ok := resp["output"].(string)
				if !ok {
					text, _ = resp["error"].(string)
				}
				var content any = ""
				if text != "" {
					content = []any{map[string]any{"type": "text", "text": text}}
				}
				out = append(out, map[string]any{"role": "tool", "tool_call_id": fr["id"], "content": content})
			}
		}
		if len(texts) > 0 {
			out = append(out, map[string]any{"role": "user", "content": texts})
		}
	}
	return out
}
