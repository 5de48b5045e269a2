package qwen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
)

func TestClaims(t *testing.T) {
	formattest.Answers(t, backend.Claims, map[string]bool{
		"/h/.qwen/projects/-p/chats/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl":                                          true,
		"/h/.qwen/projects/-p/chats/archive/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl":                                  true,
		"/h/.qwen/projects/-p/subagents/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076/agent-general-purpose-call_spawn.jsonl":     true,
		"/h/.qwen/projects/-p/chats/notes.jsonl":                                                                         false,
		"/h/.qwen/projects/-p/memory/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl":                                         false,
		"/h/.qwen/projects/-p/subagents/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076/agent-general-purpose-call_spawn.meta.json": false,
		"/h/.claude/projects/-p/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl":                                              false,
	})
}

func TestRoots(t *testing.T) {
	e := store.Env{Home: "/h", WorkingDirPath: "/w"}
	for env, want := range map[[2]string]string{
		{"", ""}:      "/h/.qwen/projects",
		{"", "/q"}:    "/q/projects",
		{"/r", "/q"}:  "/r/projects",
		{"", "~/alt"}: "/h/alt/projects",
		{"rel", ""}:   "/w/rel/projects",
	} {
		t.Setenv("QWEN_RUNTIME_DIR", env[0])
		t.Setenv("QWEN_HOME", env[1])
		if got := backend.Roots(e); len(got) != 1 || got[0] != want {
			t.Errorf("%v: %v, want %s", env, got, want)
		}
	}
}

// Detect knows a Qwen Code record by its own marks, and not another
// agent's uuid-linked line.
func TestDetect(t *testing.T) {
	lines := map[string]bool{
		`{"uuid":"a","parentUuid":null,"sessionId":"s","timestamp":"t","type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"hi"}]}}`: true,
		`{"uuid":"a","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`:                                          true,
		`{"uuid":"a","parentUuid":null,"sessionId":"s","type":"system","subtype":"ui_telemetry","systemPayload":{}}`:                                              true,
		`{"uuid":"a","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"}}`:                                                   false,
		`{"type":"summary","summary":"x","leafUuid":"a"}`:                                                                                                         false,
		`{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`:                                                                                            false,
	}
	formattest.Answers(t, formattest.FirstLine(backend.Detect), lines)
	formattest.Answers(t, func(line string) bool { return Sniff([]byte(line + "\n")) }, lines)
}

func TestResume(t *testing.T) {
	path := filepath.Join(agentgen.Dir, "plain", "qwen-home", "projects", "-sandbox-proj", "chats")
	files, _ := filepath.Glob(filepath.Join(path, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d chats", len(files))
	}
	prog, args := backend.Resume(files[0])
	if prog != "qwen" || len(args) != 2 || args[0] != "--resume" || args[1]+".jsonl" != filepath.Base(files[0]) {
		t.Errorf("%s %v", prog, args)
	}
}

// A sub-agent's transcript is a part of its chat when the chat is there,
// and a session of its own alone.
func TestPartOf(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "projects", "-p", "subagents", "8fd7a46f-ec9c-4cd0-8e62-d238d27ff076", "agent-x.jsonl")
	chat := filepath.Join(dir, "projects", "-p", "chats", "8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl")
	for _, p := range []string{agent, chat} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	line := `{"uuid":"a","parentUuid":null,"sessionId":"8fd7a46f-ec9c-4cd0-8e62-d238d27ff076","type":"user","isSidechain":true,"message":{"role":"user","parts":[{"text":"go"}]}}` + "\n"
	if err := os.WriteFile(agent, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	b := backend
	if !b.PartName("agent-x.jsonl") || b.PartName("8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl") {
		t.Error("PartName")
	}
	if b.PartOf(agent) != nil {
		t.Error("a part without its chat")
	}
	if err := os.WriteFile(chat, []byte(strings.Replace(line, `"isSidechain":true,`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b.PartOf(agent) == nil || b.PartOf(chat) != nil {
		t.Error("PartOf")
	}
	s, err := Open(chat)
	if err != nil || len(s.Agents) != 1 || s.Len() != 2 || s.Agents[0].Call != -1 {
		t.Fatalf("%v %+v", err, s)
	}
}

// Records Qwen Code's reader treats apart: a fragment adds its parts to
// its uuid's first record, a parent that is not there makes a root (with a
// warning), a cycle is broken, a compression replaces the history before
// it, an API error is an assistant's error not sent, a tool result of two
// responses gives two messages.
func TestRecords(t *testing.T) {
	data := `{"uuid":"u1","parentUuid":null,"sessionId":"s","type":"user","provenance":"real_user","cwd":"/p","message":{"role":"user","parts":[{"text":"hi"}]}}
{"uuid":"a1","parentUuid":"u1","sessionId":"s","type":"assistant","model":"m","message":{"role":"model","parts":[{"text":"one"}]}}
{"uuid":"a1","parentUuid":"u1","sessionId":"s","type":"assistant","model":"m","message":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"x","args":{"k":1}}},{"functionCall":{"id":"c2","name":"y"}}]}}
{"uuid":"t1","parentUuid":"a1","sessionId":"s","type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"x","response":{"output":"ok"}}},{"functionResponse":{"id":"c2","name":"y","response":{"error":"no"}}}]}}
{"uuid":"k1","parentUuid":"t1","sessionId":"s","type":"system","subtype":"chat_compression","systemPayload":{"info":{"newTokenCount":5},"compressedHistory":[{"role":"user","parts":[{"text":"the summary"}]},{"role":"model","parts":[{"text":"Got it."}]}]}}
{"uuid":"u2","parentUuid":"k1","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"again"}]}}
{"uuid":"e1","parentUuid":"u2","sessionId":"s","type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_error","error_message":"400 bad","model":"m"}}}
{"uuid":"x1","parentUuid":"gone","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"orphan"}]}}
{"uuid":"y1","parentUuid":"y2","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"y1"}]}}
{"uuid":"y2","parentUuid":"y1","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"y2"}]}}
{"uuid":"z1","parentUuid":"e1","sessionId":"s","type":"system","subtype":"session_sources_snapshot","systemPayload":{}}
`
	s, err := Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if s.Leaf() != 9 {
		t.Errorf("leaf %d", s.Leaf())
	}
	if s.Parent(2) != 1 || s.Entry(2).ID != "a1#L3" || s.Entries[2].kind != model.EntryOther {
		t.Errorf("fragment: parent %d id %s", s.Parent(2), s.Entry(2).ID)
	}
	m1 := s.Message(model.ContextMessage{Entry: 1})
	if calls := m1.ToolCalls(); len(calls) != 2 || string(calls[0].Input) != `{"k":1}` || string(calls[1].Input) != "{}" {
		t.Errorf("calls %+v", calls)
	}
	if s.Parent(7) != -1 || s.Parent(8) != -1 && s.Parent(9) != -1 {
		t.Errorf("roots: %d %d %d", s.Parent(7), s.Parent(8), s.Parent(9))
	}
	ctx := s.BuildContext(6)
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, ctx); err != nil {
		t.Fatal(err)
	}
	if want := `{"messages":[{"role":"user","parts":[{"text":"the summary"}]},{"role":"model","parts":[{"text":"Got it."}]},{"role":"user","parts":[{"text":"again"}]}]}` + "\n"; buf.String() != want {
		t.Errorf("context %s", buf.String())
	}
	if ctx.Compaction != 4 || len(ctx.Messages) != 3 {
		t.Errorf("compaction %d, %d messages", ctx.Compaction, len(ctx.Messages))
	}
	full := s.BuildContext(3)
	if len(full.Messages) != 4 {
		t.Fatalf("%d messages", len(full.Messages))
	}
	r1, r2 := s.Message(full.Messages[2]), s.Message(full.Messages[3])
	if r1.ToolCallID != "c1" || r1.IsError || r1.Text("") != "ok" || r2.ToolCallID != "c2" || !r2.IsError || r2.Text("") != "no" || r2.ToolName != "y" {
		t.Errorf("results %+v %+v", r1, r2)
	}
	if m := s.Message(model.ContextMessage{Entry: 6}); m.Error != "400 bad" || !m.Excluded || m.Role != model.RoleAssistant {
		t.Errorf("error %+v", m)
	}
	if len(s.Diagnostics) != 2 {
		t.Errorf("diagnostics %v", s.Diagnostics)
	}
	info := s.Info("/x/s.jsonl", 0)
	if info.ID != "s" || info.Cwd != "/p" || info.FirstMessage != "hi" || info.Model != "m" {
		t.Errorf("%+v", info)
	}
}

func TestNotSession(t *testing.T) {
	for _, data := range []string{"", "\n\n", "not json\n[1]", `{"uuid":"a","sessionId":"s","type":"summary","parentUuid":null}`, `{"type":"user","message":{}}`} {
		if _, err := Parse([]byte(data)); err != ErrNotSession {
			t.Errorf("%q: %v", data, err)
		}
	}
}

// A line that is not a record is skipped with a diagnostic at its line.
func TestBadLine(t *testing.T) {
	s, err := Parse([]byte(`{"uuid":"a","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}
{"uuid":"b","parentUuid":"a","sessionId":"s","type":"assistant","message":{"role":"model","parts":[{"te
{"uuid":"c","sessionId":"s","type":"user"}
{"uuid":"d","parentUuid":"a","sessionId":"s","type":"assistant","message":{"role":"model","parts":[{"text":"ok"}]}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || len(s.Diagnostics) != 2 || s.Diagnostics[0].Line != 2 || s.Diagnostics[1].Line != 3 || s.Leaf() != 1 {
		t.Errorf("%d entries, %v, leaf %d", s.Len(), s.Diagnostics, s.Leaf())
	}
}
