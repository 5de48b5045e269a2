package codex

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/internal/jscan"
	"skein/model"
)

// The files of testdata/codex (README.md there): the two rollout-*.jsonl
// are real captures; the others were made by hand after the upstream
// shapes (UPSTREAM.md).
const (
	fixtures  = "../../testdata/codex"
	sample    = fixtures + "/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"
	bare      = fixtures + "/rollout-44444444-4444-4444-8444-444444444444.jsonl"
	compacted = fixtures + "/compacted.jsonl"
	rollbackF = fixtures + "/rollback.jsonl"
	legacy    = fixtures + "/legacy.jsonl"
	hostile   = fixtures + "/hostile.jsonl"
)

// open is Open's session of the file at path, or the test's end.
var open = formattest.Reader(Open)

func parse(t testing.TB, lines ...string) *Session {
	t.Helper()
	s, err := Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// at is the entry of line n.
func at(t testing.TB, s *Session, n int) int {
	t.Helper()
	i, ok := s.Index("L" + strconv.Itoa(n))
	if !ok {
		t.Fatalf("no entry at line %d", n)
	}
	return i
}

// ctxIDs names a context's messages: the entry's id, "/k" for the k-th
// item of its replacement history, "s" for a compaction's summary.
func ctxIDs(s *Session, msgs []model.ContextMessage) []string {
	out := []string{}
	for _, m := range msgs {
		id := s.Entries[m.Entry].ID()
		if m.Content < 0 {
			id += "/" + strconv.Itoa(int(-m.Content))
		}
		if m.Kind == model.KindCompactionSummary {
			id += "s"
		}
		out = append(out, id)
	}
	return out
}

func ids(s *Session, idx []int) []string {
	return formattest.IDs(len(idx), func(k int) string { return s.Entries[idx[k]].ID() })
}

func diagLines(s *Session) []string { return formattest.DiagLines(s.Diagnostics) }

func lines(from, to int, skip ...int) []string {
	var out []string
	for n := from; n <= to; n++ {
		if !slices.Contains(skip, n) {
			out = append(out, "L"+strconv.Itoa(n))
		}
	}
	return out
}

// The list record, the leaf, the context, the roots and the diagnostics
// of each file, as worked out by hand from what Codex's resume does with
// it.
func TestFixtures(t *testing.T) {
	formattest.Fixtures(t, "codex", []formattest.Fixture{
		{Name: "codex 0.77", Path: sample,
			List: formattest.Record{ID: "019b7f94-51b4-7593-922e-ba12b5b73b52", Cwd: "/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code",
				Created: "2026-01-02T16:39:45.332Z", Modified: "2026-01-02T16:39:58.808Z",
				FirstMessage: "what is current repository about? summarize purpuse and explain goals", Model: "gpt-5-1-codex-2025-11-13",
				MessageCount: 12, Entries: 26, Branches: 1},
			// The three user messages (the AGENTS.md and environment ones
			// are sent too), reasoning, calls and outputs; no event, turn
			// context or ghost snapshot.
			Leaf: "L26", Context: []string{"L2", "L3", "L4", "L9", "L10", "L12", "L15", "L16", "L18", "L22", "L23", "L25"},
			Roots: []string{"L1"}},
		{Name: "bare", Path: bare,
			List: formattest.Record{ID: "44444444-4444-4444-8444-444444444444", Created: "2026-01-04T05:06:07.000Z", Modified: "2026-01-04T05:06:07.000Z",
				FirstMessage: "Open the synthetic legacy session.", MessageCount: 2, Entries: 3, Branches: 1},
			Leaf: "L3", Context: []string{"L2", "L3"}, Roots: []string{"L1"}},
		{Name: "compacted", Path: compacted,
			List: formattest.Record{ID: "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", Cwd: "/home/ana/src/tool", Name: "Verbose flag", Created: "2026-02-03T10:00:00.500Z",
				Modified: "2026-02-03T10:00:28.196Z", FirstMessage: "Add a --verbose flag to the CLI.", Model: "gpt-5.1-codex",
				MessageCount: 12, Entries: 29, Branches: 1},
			// The second compaction's replacement history (its ghost
			// snapshot left out), then what follows it.
			Leaf: "L29", Context: []string{"L23/1", "L23/2", "L23/3s", "L26", "L28"}, Roots: []string{"L1"}},
		{Name: "rollback", Path: rollbackF,
			List: formattest.Record{ID: "0199b000-1111-7222-8333-944455566677", Cwd: "/srv/app", Created: "2026-02-04T08:00:00.000Z", Modified: "2026-02-04T08:00:09.063Z",
				FirstMessage: "What is 2+2?", Model: "gpt-5", MessageCount: 6, Entries: 9, Branches: 2},
			Leaf: "L9", Context: []string{"L3", "L4", "L8", "L9"}, Roots: []string{"L1"}},
		{Name: "legacy", Path: legacy,
			List: formattest.Record{ID: "5973b6c0-94b8-487b-a530-2aeb6098ae0e", Created: "2025-05-07T17:24:21.123Z", Modified: "2025-05-07T17:24:21.123Z",
				FirstMessage: "List the files.", MessageCount: 9, Entries: 12, Branches: 1},
			Leaf: "L12", Context: lines(3, 12, 8), Roots: []string{"L1"}},
		{Name: "hostile", Path: hostile,
			List: formattest.Record{ID: "0199cccc-0000-7000-8000-000000000001", Cwd: "/tmp/\x1b]52;c;cHduZWQ=\ax", Name: "\x1b]0;pwned\a title",
				Created: "2026-03-01T00:00:00.000Z", Modified: "2026-03-01T00:00:22.000Z",
				FirstMessage: "a string content \x1b[2J\x1b[H </script><script>alert(1)</script> \u2028\u2029 \ufffd lone",
				MessageCount: 11, Entries: 24, Branches: 1},
			// The last compaction's one message item, then the messages
			// after it; line 23's type is not an item Codex records.
			Leaf: "L29", Context: []string{"L21/4", "L24", "L26", "L27", "L28", "L29"}, Roots: []string{"L1"},
			// 2-4: not JSON, or not objects; 15: an output of no call; 30:
			// the partial last line.
			Diags: []string{"15w", "2", "3", "30", "4"}},
	}, func(t *testing.T, path string) formattest.Found {
		s := open(t, path)
		ctx := s.BuildContext(s.Leaf())
		// The projected entries cover the messages, in order.
		n := 0
		for _, pe := range ctx.Entries {
			if pe.First != n {
				t.Errorf("projected %+v starts at %d", pe, n)
			}
			n += pe.N
		}
		if n != len(ctx.Messages) {
			t.Errorf("projected entries give %d of %d messages", n, len(ctx.Messages))
		}
		var buf bytes.Buffer
		if err := s.WriteContextJSON(&buf, ctx); err != nil || !jscan.Valid(buf.Bytes()) {
			t.Fatalf("context JSON: %v %s", err, buf.Bytes())
		}
		var out struct{ Messages []json.RawMessage }
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil || len(out.Messages) != len(ctx.Messages) {
			t.Errorf("context JSON has %d messages of %d: %v", len(out.Messages), len(ctx.Messages), err)
		}
		buf.Reset()
		if err := s.WriteTreeJSON(&buf); err != nil || !jscan.Valid(buf.Bytes()) {
			t.Fatalf("tree JSON: %v %s", err, buf.Bytes())
		}
		if dom(s).PlanCompaction(s.Leaf(), 0) != nil || !strings.Contains(dom(s).NothingToCompact(s.Leaf(), 0), "read-only") ||
			!strings.Contains(dom(s).NothingToCompact(s.Leaf(), 0), "import it first") {
			t.Error("a Codex rollout must not be compacted")
		}
		for i := range s.Entries {
			if s.TreeText(i, "/home") == nil {
				t.Errorf("entry %d has no tree text", i)
			}
		}
		return formattest.Found{Info: s.Info(path, 1), Leaf: s.Entries[s.Leaf()].ID(), Context: ctxIDs(s, ctx.Messages),
			Roots: ids(s, s.Roots()), Diags: diagLines(s), Diagnostics: s.Diagnostics}
	})
}

// The same conversation with and without the envelope reads the same.
func TestEnvelope(t *testing.T) {
	items := []string{
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`,
		`{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}`,
		`{"type":"function_call_output","call_id":"c1","output":"a\nb"}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"two files"}]}`,
	}
	bareLines := []string{`{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-05-07T17:24:21.123Z","instructions":null}`}
	wrapped := []string{`{"timestamp":"2025-05-07T17:24:21.123Z","type":"session_meta","payload":{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-05-07T17:24:21.123Z","cwd":"/w"}}`}
	for k, it := range items {
		bareLines = append(bareLines, it)
		wrapped = append(wrapped, `{"timestamp":"2025-05-07T17:24:2`+strconv.Itoa(2+k)+`.000Z","type":"response_item","payload":`+it+`}`)
	}
	var texts [2][]string
	for n, src := range [][]string{bareLines, wrapped} {
		s := parse(t, src...)
		if s.Meta.ID != "5973b6c0-94b8-487b-a530-2aeb6098ae0e" || s.Entries[1].Bare == (n == 1) {
			t.Errorf("%d: meta %+v, bare %v", n, s.Meta, s.Entries[1].Bare)
		}
		ctx := s.BuildContext(s.Leaf())
		if c := ctxIDs(s, ctx.Messages); !slices.Equal(c, lines(2, 5)) {
			t.Errorf("%d: context %q", n, c)
		}
		for _, m := range ctx.Messages {
			msg := s.Message(m)
			texts[n] = append(texts[n], msg.Role+":"+msg.Text("|")+":"+msg.ToolName)
			for _, c := range msg.ToolCalls() {
				texts[n] = append(texts[n], c.ID+" "+c.Name+" "+string(c.Input))
			}
		}
		var buf bytes.Buffer
		s.WriteContextJSON(&buf, ctx)
		if want := `{"messages":[` + strings.Join(items, ",") + "]}\n"; buf.String() != want {
			t.Errorf("%d: context JSON\n%s\nwant\n%s", n, buf.String(), want)
		}
	}
	want := []string{"user:hi:", "assistant::", `c1 shell {"command":["ls"]}`, "toolResult:a\nb:shell", "assistant:two files:"}
	for n := range texts {
		if !slices.Equal(texts[n], want) {
			t.Errorf("%d: messages %q\nwant %q", n, texts[n], want)
		}
	}
}

func TestCalls(t *testing.T) {
	s := open(t, compacted)
	msg := func(n int) *model.Message { m := s.Message(model.ContextMessage{Entry: at(t, s, n)}); return &m }
	// A function call's arguments string is its input; its output names it.
	if c := msg(7).ToolCalls(); len(c) != 1 || c[0].ID != "call_A1" || c[0].Name != "shell" ||
		string(c[0].Input) != `{"command":["bash","-lc","grep -n flag main.go"],"workdir":"/home/ana/src/tool"}` {
		t.Errorf("function call: %+v", c)
	}
	if r := msg(9); r.Role != model.RoleToolResult || r.ToolCallID != "call_A1" || r.ToolName != "shell" || r.IsError ||
		!strings.Contains(r.Text(""), `flag.Parse()`) {
		t.Errorf("function call output: %+v", r)
	}
	// A custom tool's input string is {"input": ...}.
	if c := msg(10).ToolCalls(); len(c) != 1 || c[0].ID != "call_B2" || c[0].Name != "apply_patch" ||
		!strings.HasPrefix(string(c[0].Input), `{"input":"*** Begin Patch\n*** Update File: main.go`) || !json.Valid(c[0].Input) {
		t.Errorf("custom tool call: %+v %s", c, c[0].Input)
	}
	if r := msg(12); r.ToolCallID != "call_B2" || r.ToolName != "apply_patch" || !strings.HasPrefix(r.Text(""), "Success.") {
		t.Errorf("custom tool call output: %+v", r)
	}
	// Pairing by call id over the history.
	ctx := s.BuildHistory(s.Leaf())
	msgs := formattest.Messages(s, ctx)
	pairs := model.PairTools(msgs)
	if k, ok := pairs["call_A1"]; !ok || msgs[k].ToolCallID != "call_A1" {
		t.Errorf("call_A1 paired with %d", k)
	}
	if k, ok := pairs["call_B2"]; !ok || msgs[k].ToolName != "apply_patch" {
		t.Errorf("call_B2 paired with %d", k)
	}

	// The older items: a local shell call (its action the input), a web
	// search (its id), arguments that are not JSON, an output object.
	l := open(t, legacy)
	lm := func(n int) *model.Message { m := l.Message(model.ContextMessage{Entry: at(t, l, n)}); return &m }
	if c := lm(6).ToolCalls(); len(c) != 1 || c[0].ID != "call_L1" || c[0].Name != "local_shell" || model.KeyArgument(c[0].Input) != "ls" {
		t.Errorf("local shell call: %+v", c)
	}
	if r := lm(7); r.ToolName != "local_shell" || r.ToolCallID != "call_L1" {
		t.Errorf("local shell output: %+v", r)
	}
	if c := lm(9).ToolCalls(); len(c) != 1 || c[0].ID != "ws_1" || c[0].Name != "web_search" || model.KeyArgument(c[0].Input) != "golang flag package" {
		t.Errorf("web search: %+v", c)
	}
	if c := lm(10).ToolCalls(); len(c) != 1 || string(c[0].Input) != `{"arguments":"not json"}` {
		t.Errorf("arguments not JSON: %+v", c)
	}
	if r := lm(11); !r.IsError || r.Text("") != "failed to parse function arguments" || r.ToolName != "shell" {
		t.Errorf("failed output: %+v", r)
	}
	if h := l.MessageHead(model.ContextMessage{Entry: at(t, l, 11)}); !h.IsError || h.Blocks != nil {
		t.Errorf("head: %+v", h)
	}
	// Reasoning: the summary as thinking.
	if b := lm(5).Blocks; len(b) != 1 || b[0].Type != model.BlockThinking || b[0].Text != "I'll run ls." {
		t.Errorf("reasoning: %+v", b)
	}

	h := open(t, hostile)
	hm := func(n int) *model.Message { m := h.Message(model.ContextMessage{Entry: at(t, h, n)}); return &m }
	for n, want := range map[int]string{
		12: `{"arguments":12}`,
		13: `{"arguments":"{\"command\":\"rm -rf /\"} trailing"}`,
		26: `{"already":"an object"}`,
	} {
		if c := hm(n).ToolCalls(); len(c) != 1 || string(c[0].Input) != want {
			t.Errorf("line %d: %+v, want input %s", n, c, want)
		}
	}
	if r := hm(29); len(r.Blocks) != 3 || r.Blocks[0].Text != "out" || r.Blocks[1].Type != model.BlockImage ||
		r.Blocks[1].Text != "https://example.com/x.png" || r.Blocks[2].Type != model.BlockOther {
		t.Errorf("output items: %+v", r.Blocks)
	}
}

func TestReasoning(t *testing.T) {
	s := open(t, sample)
	// Encrypted only: noted, nothing shown.
	b := s.Message(model.ContextMessage{Entry: at(t, s, 9)}).Blocks
	if len(b) != 1 || b[0].Type != model.BlockOther || b[0].Name != "encrypted_content" || b[0].DataLen < 1000 || b[0].Text != "" {
		t.Errorf("encrypted reasoning: %+v", b)
	}
	// A summary, then the encrypted content.
	b = s.Message(model.ContextMessage{Entry: at(t, s, 22)}).Blocks
	if len(b) != 2 || b[0].Type != model.BlockThinking || !strings.HasPrefix(b[0].Text, "**Clarifying documentation instructions**") ||
		b[1].Name != "encrypted_content" {
		t.Errorf("reasoning with a summary: %+v", b)
	}
	// Raw content too.
	r := parse(t, `{"type":"reasoning","summary":[{"type":"summary_text","text":"A"}],"content":[{"type":"reasoning_text","text":"B"},{"type":"text","text":"C"}]}`)
	if b := r.Message(model.ContextMessage{Entry: 0}).Blocks; len(b) != 3 || b[1].Text != "B" || b[2].Text != "C" || b[2].Type != model.BlockThinking {
		t.Errorf("raw reasoning: %+v", b)
	}
}

func TestTurnContext(t *testing.T) {
	s := open(t, compacted)
	first, same, changed := at(t, s, 5), at(t, s, 18), at(t, s, 24)
	if s.Entry(first).Kind != model.EntryModelChange || s.Entry(same).Kind != model.EntryCustom || s.Entry(changed).Kind != model.EntryModelChange {
		t.Errorf("kinds %v %v %v", s.Entry(first).Kind, s.Entry(same).Kind, s.Entry(changed).Kind)
	}
	if d := s.Detail(changed); d.Model != "gpt-5.1-codex" || d.Provider != "openai" || d.ThinkingLevel != "high" {
		t.Errorf("detail %+v", d)
	}
	ctx := s.BuildContext(s.Leaf())
	if ctx.Model == nil || ctx.Model.Name() != "openai/gpt-5.1-codex" || ctx.Thinking() != "high" {
		t.Errorf("context model %+v %q", ctx.Model, ctx.Thinking())
	}
	if ctx := s.BuildContext(at(t, s, 13)); ctx.Model.Name() != "openai/gpt-5-codex" || ctx.Thinking() != "medium" {
		t.Errorf("earlier model %s", ctx.Model.Name())
	}
	for n, want := range map[int]string{13: "gpt-5-codex", 28: "gpt-5.1-codex"} {
		if m := s.MessageHead(model.ContextMessage{Entry: at(t, s, n)}); m.Model != want || m.Provider != "openai" {
			t.Errorf("line %d: model %q/%q, want %q", n, m.Provider, m.Model, want)
		}
	}
	// The token count after a reply is its usage; a repeated one is not.
	u := s.MessageHead(model.ContextMessage{Entry: at(t, s, 7)}).Usage
	if u == nil || u.Input != 5000 || u.Output != 80 || u.Reasoning != 40 {
		t.Errorf("usage %+v", u)
	}
	if u := s.MessageHead(model.ContextMessage{Entry: at(t, s, 10)}).Usage; u == nil || u.Input != 208 || u.CacheRead != 4992 {
		t.Errorf("usage with cache reads %+v", u)
	}
	// The sample's cwd, model and no effort.
	o := open(t, sample)
	if ctx := o.BuildContext(o.Leaf()); ctx.Model.Name() != "preview-codex/gpt-5-1-codex-2025-11-13" || ctx.ThinkingLevel != nil {
		t.Errorf("sample model %s %s", ctx.Model.Name(), ctx.ThinkingLevel)
	}
	if o.Meta.Originator != "codex_exec" || o.Meta.CLIVersion != "0.77.0" || !strings.HasPrefix(o.Meta.Instructions, "## Skills") || o.Meta.Source != "exec" {
		t.Errorf("meta %+v", o.Meta)
	}
}

func TestCompaction(t *testing.T) {
	s := open(t, compacted)
	// Before the second compaction: the first kept the one real user
	// message before it (not the environment context) and its summary.
	leaf := at(t, s, 22)
	ctx := s.BuildContext(leaf)
	if c := ctxIDs(s, ctx.Messages); !slices.Equal(c, []string{"L3", "L16s", "L19", "L21"}) {
		t.Errorf("context %q", c)
	}
	if ctx.Compaction != at(t, s, 16) || s.Summarized(leaf, ctx) != 7 {
		t.Errorf("compaction %d, summarized %d", ctx.Compaction, s.Summarized(leaf, ctx))
	}
	sum := s.Message(ctx.Messages[1])
	if sum.Role != model.RoleCompactionSummary || sum.Summary != "The user asked for a --verbose flag; it was added to main.go with apply_patch." ||
		sum.TokensBefore != 5430 {
		t.Errorf("summary %+v", sum)
	}
	var buf bytes.Buffer
	s.WriteContextJSON(&buf, ctx)
	var out struct {
		Messages []struct {
			Type, Role string
			Content    []struct{ Type, Text string }
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil || len(out.Messages) != 4 {
		t.Fatalf("%v %s", err, buf.Bytes())
	}
	if m := out.Messages[1]; m.Type != "message" || m.Role != "user" || !strings.HasPrefix(m.Content[0].Text, summaryPrefix+"\nThe user asked") {
		t.Errorf("summary as Codex sends it: %+v", m)
	}
	// The second: its replacement history; the summary is the item that
	// starts with Codex's prefix.
	final := s.BuildContext(s.Leaf())
	if m := s.Message(final.Messages[2]); m.Role != model.RoleCompactionSummary || m.Summary != "A --verbose flag was added and documented in README.md." {
		t.Errorf("replacement summary %+v", m)
	}
	if m := s.Message(final.Messages[0]); m.Role != model.RoleUser || m.Text("") != "Add a --verbose flag to the CLI." {
		t.Errorf("replacement item %+v", m)
	}
	if m := s.Domain(model.SessionInfo{}).EntryMessage(at(t, s, 23)); m.Role != model.RoleCompactionSummary || !strings.HasPrefix(m.Summary, "A --verbose") {
		t.Errorf("entry message %+v", m)
	}
	// The history keeps everything, the compactions in place.
	h := s.BuildHistory(s.Leaf())
	if c := ctxIDs(s, h.Messages); !slices.Equal(c, []string{"L2", "L3", "L6", "L7", "L9", "L10", "L12", "L13", "L16s", "L19", "L21", "L23s", "L26", "L28"}) {
		t.Errorf("history %q", c)
	}

	// A compaction whose message is empty: the summary is the replacement's.
	r := parse(t,
		`{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"x"}}`,
		`{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Q"}]}}`,
		`{"timestamp":"2026-01-01T00:00:02.000Z","type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"perm"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"Q"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":`+strconv.Quote(summaryPrefix+"\nthe summary")+`}]},{"type":"compaction","encrypted_content":"enc"}]}}`,
	)
	rc := r.BuildContext(r.Leaf())
	if c := ctxIDs(r, rc.Messages); !slices.Equal(c, []string{"L3/1", "L3/2", "L3/3s", "L3/4"}) {
		t.Errorf("remote compaction context %q", c)
	}
	if m := r.Message(rc.Messages[2]); m.Summary != "the summary" {
		t.Errorf("summary from the replacement: %+v", m)
	}
	if m := r.Message(rc.Messages[0]); m.Role != model.RoleSystem || m.Text("") != "perm" {
		t.Errorf("developer item: %+v", m)
	}
	if m := r.Message(rc.Messages[3]); m.Role != model.RoleAssistant || len(m.Blocks) != 1 || m.Blocks[0].Name != "compaction" || m.Blocks[0].DataLen != 3 {
		t.Errorf("encrypted compaction item: %+v", m)
	}
	if tt := r.TreeText(r.Leaf(), ""); !strings.Contains(tt[0].Text, "the summary") {
		t.Errorf("tree text %+v", tt)
	}
}

// Events repeat response items (user_message, agent_message,
// agent_reasoning): they are entries, never messages (only a failed
// turn's error is one: TestErrorEvent).
func TestEventsNotDuplicated(t *testing.T) {
	for _, p := range []string{sample, compacted} {
		s := open(t, p)
		for i := range s.Entries {
			e := s.Entry(i)
			if strings.HasPrefix(e.Type, "event_msg.") && (e.Kind == model.EntryMessage || e.Role != "") {
				t.Errorf("%s %s: event as a message %+v", p, e.ID, e)
			}
			if e.Type == "event_msg.token_count" && e.Kind != model.EntryUsage {
				t.Errorf("token count kind %v", e.Kind)
			}
		}
		for _, ctx := range []model.Context{s.BuildContext(s.Leaf()), s.BuildHistory(s.Leaf())} {
			seen := map[string]int{}
			for _, m := range ctx.Messages {
				if s.Entries[m.Entry].Type == TypeEventMsg {
					t.Errorf("%s: an event in the context: %s", p, s.Entries[m.Entry].ID())
				}
				if msg := s.Message(m); msg.Text("") != "" {
					seen[msg.Role+msg.Text("")]++
				}
			}
			for k, n := range seen {
				if n > 1 {
					t.Errorf("%s: %q %d times", p, k, n)
				}
			}
		}
	}
	s := open(t, compacted)
	if st := s.Stats(); st.UserMessages != 3 || st.AssistantMessages != 6 { // and an environment context
		t.Errorf("counts %+v", st.Totals)
	}
}

func TestRollback(t *testing.T) {
	s := open(t, rollbackF)
	rb, tip := at(t, s, 7), at(t, s, 6)
	if p := s.Parent(rb); p != at(t, s, 4) {
		t.Errorf("rollback's parent %s, want L4", s.Entries[p].ID())
	}
	if c := ids(s, s.Children(at(t, s, 4))); !slices.Equal(c, []string{"L5", "L7"}) {
		t.Errorf("branch point's children %q", c)
	}
	if h := ctxIDs(s, s.BuildHistory(s.Leaf()).Messages); !slices.Equal(h, []string{"L3", "L4", "L8", "L9"}) {
		t.Errorf("history %q", h)
	}
	if c := ctxIDs(s, s.BuildContext(tip).Messages); !slices.Equal(c, []string{"L3", "L4", "L5", "L6"}) {
		t.Errorf("the abandoned tip's context %q", c)
	}
	if st := s.Stats(); st.Leaves != 2 || st.Messages != 6 {
		t.Errorf("stats %+v", st)
	}
	if e := s.Entry(at(t, s, 8)); e.ParentID != "L7" {
		t.Errorf("after the rollback: parent %q", e.ParentID)
	}

	meta := `{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"x"}}`
	user := func(text string) string {
		return `{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + text + `"}]}}`
	}
	asst := func(text string) string {
		return `{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + text + `"}]}}`
	}
	env := user("<environment_context><cwd>/w</cwd></environment_context>")
	back := func(n int) string {
		return `{"timestamp":"2026-01-01T00:00:02.000Z","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":` + strconv.Itoa(n) + `}}`
	}
	for _, tc := range []struct {
		name    string
		lines   []string
		parent  string // of the rollback (line 2 + len(lines before it))
		context []string
	}{
		// More turns than there are: every turn goes, what came before the
		// first user message stays (the environment context is no turn).
		{"all", []string{meta, env, user("A"), asst("a"), user("B"), back(5), user("C")}, "L2", []string{"L2", "L7"}},
		// A cut inside a compaction's replacement history: the rollback
		// hangs off the compaction and keeps its first two messages (the
		// summary is a user turn, as in drop_last_n_user_turns).
		{"into a compaction", []string{meta, user("A"), asst("a"),
			`{"timestamp":"2026-01-01T00:00:02.000Z","type":"compacted","payload":{"message":"S","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"A"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"B"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"` + summaryPrefix + `\nS"}]}]}}`,
			user("C"), asst("c"), back(2), user("D")}, "L4", []string{"L4/1", "L4/2", "L8"}},
		// A kept user message of a compaction without a replacement history.
		{"into kept messages", []string{meta, user("A"), asst("a"), user("B"),
			`{"timestamp":"2026-01-01T00:00:02.000Z","type":"compacted","payload":{"message":"S"}}`,
			user("C"), back(3), user("D")}, "L5", []string{"L2", "L8"}},
		{"zero turns", []string{meta, user("A"), back(0), user("B")}, "L2", []string{"L2", "L4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := parse(t, tc.lines...)
			var r int
			for i := range s.Entries {
				if s.Entries[i].ItemType == "thread_rolled_back" {
					r = i
				}
			}
			if p := s.Parent(r); p < 0 || s.Entries[p].ID() != tc.parent {
				t.Errorf("parent %d, want %s", p, tc.parent)
			}
			if c := ctxIDs(s, s.BuildContext(s.Leaf()).Messages); !slices.Equal(c, tc.context) {
				t.Errorf("context %q, want %q", c, tc.context)
			}
		})
	}
}

func TestStats(t *testing.T) {
	s := open(t, sample)
	st := s.Stats()
	// One user message: the other two are the AGENTS.md instructions and
	// the environment context Codex injected (counted as messages only).
	if st.Messages != 12 || st.UserMessages != 1 || st.AssistantMessages != 6 || st.ToolResults != 3 || st.ToolCalls != 3 {
		t.Errorf("totals %+v", st.Totals)
	}
	// Three counts that grew (one repeated after each output): 22,474
	// input of which 14,848 cached, 300 output.
	if st.TokensIn != 7626 || st.CacheRead != 14848 || st.TokensOut != 300 || st.Incomplete != 0 {
		t.Errorf("usage %+v", st.UsageTotals)
	}
	if len(st.ByModel) != 1 || st.ByModel[0].Key != "preview-codex/gpt-5-1-codex-2025-11-13" || st.ByModel[0].Tokens() != st.Tokens() {
		t.Errorf("by model %+v", st.ByModel)
	}
	if !slices.Equal(st.Models, []string{"preview-codex/gpt-5-1-codex-2025-11-13"}) || len(st.Tools) != 1 || st.Tools[0] != (model.ToolCount{Name: "shell", Calls: 3}) {
		t.Errorf("models %q tools %+v", st.Models, st.Tools)
	}
	var pts []float64
	for _, p := range st.Context {
		pts = append(pts, p.Tokens)
	}
	if !slices.Equal(pts, []float64{7381, 7606, 7787}) || st.Leaves != 1 || len(st.Days) != 1 {
		t.Errorf("context %v leaves %d days %+v", pts, st.Leaves, st.Days)
	}
	// Two models: each count's growth goes to the model in force.
	c := open(t, compacted).Stats()
	want := []model.ModelUsage{
		{Key: "openai/gpt-5-codex", UsageTotals: model.UsageTotals{TokensIn: 6324, CacheRead: 10176, TokensOut: 255}},
		{Key: "openai/gpt-5.1-codex", UsageTotals: model.UsageTotals{TokensIn: 188, CacheRead: 512, TokensOut: 10}},
	}
	// Each model's usage is priced at its own price (the table's figures
	// are agentgen_cost_test.go's to check).
	for i := range want {
		want[i].UsageTotals = model.PriceUsage(strings.TrimPrefix(want[i].Key, "openai/"), want[i].UsageTotals)
	}
	if !slices.Equal(c.ByModel, want) || c.Compactions != 2 || len(c.Models) != 2 {
		t.Errorf("by model %+v, compactions %d", c.ByModel, c.Compactions)
	}
	if tools := c.Tools; len(tools) != 2 {
		t.Errorf("tools %+v", tools)
	}
	if h := open(t, hostile).Stats(); h.Incomplete != 1 {
		t.Errorf("incomplete %d", h.Incomplete)
	}
}

func TestParseErrors(t *testing.T) {
	pi := `{"type":"session","version":3,"id":"a","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n" +
		`{"type":"message","id":"b","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}`
	claude := `{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}`
	formattest.NotSession(t, Parse, ErrNotSession, "", "\n\n  \r\n", "\xef\xbb\xbf", "not json\n[1]", `{"record_type":"state"}`, pi, claude,
		`{"timestamp":"x","type":"future_type","payload":{}}`)
	formattest.OpenRefuses(t, Open, fixtures)
	// An event alone is a session with no meta, and says so.
	formattest.OneRecord(t, Parse, `{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"agent_message","message":"hi"}}`)
}

func TestSniff(t *testing.T) {
	full, _ := os.ReadFile(sample)
	old, _ := os.ReadFile(bare)
	leg, _ := os.ReadFile(legacy)
	formattest.Sniffs(t, "Sniff", Sniff, []string{
		string(full),
		string(full[:100]), // the session_meta line cut off by the head's end
		string(old),
		string(leg[:40]),
		"\n\r\n  " + string(full),
		`{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count"}}`,
		`{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"mess`,
	}, []string{
		`{"type":"message","role":"user","content":[]}`,
		`{"timestamp":"x","type":"future","payload":{}}`,
		`{"timestamp":"2026-01-01T00:00:00.000Z","type":"sess`,
		`{"type":"session","version":3,"id":"a","timestamp":"2026"}`,
		`{"type":"user","uuid":"u"}`,
		"",
		"\n\n",
		"[1,2]",
		"garbage",
	})
}

func TestIndexAndNames(t *testing.T) {
	s := open(t, hostile)
	for id, want := range map[string]int{"L1": 0, "L7": 1, "L29": 23} {
		if i, ok := s.Index(id); !ok || i != want {
			t.Errorf("Index(%q) = %d %v, want %d", id, i, ok, want)
		}
	}
	for _, id := range []string{"L2", "L0", "L", "", "7", "L07", "L+7", "L-1", "l7", "L30", "L99999999999999999999"} {
		if i, ok := s.Index(id); ok {
			t.Errorf("Index(%q) = %d", id, i)
		}
	}
	formattest.Answers(t, IsRolloutFileName, map[string]bool{
		"rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl": true,
		"rollout-x.jsonl": true, "history.jsonl": false, "rollout-x.json": false,
	})
	if id := idFromName("rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"); id != "019b7f94-51b4-7593-922e-ba12b5b73b52" {
		t.Errorf("id from name %q", id)
	}
	if idFromName("x.jsonl") != "x" {
		t.Error("short name")
	}
	env := map[string]string{"CODEX_HOME": "/opt/codex"}
	if d := SessionsDir(func(k string) string { return env[k] }, "/home/a"); d != "/opt/codex/sessions" {
		t.Errorf("CODEX_HOME: %s", d)
	}
	if d := SessionsDir(func(string) string { return "" }, "/home/a"); d != filepath.Join("/home/a", ".codex", "sessions") {
		t.Errorf("default: %s", d)
	}
	// The list record of a session with no meta: the id is the file's.
	n := parse(t, `{"timestamp":"2026-01-01T00:00:00.000Z","type":"turn_context","payload":{"cwd":"/w","model":"m"}}`)
	if info := n.Info("/s/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl", 5); info.ID != "019b7f94-51b4-7593-922e-ba12b5b73b52" ||
		info.Cwd != "/w" || info.Model != "m" || info.FirstMessage != "(no messages)" {
		t.Errorf("info %+v", info)
	}
	d := open(t, sample).Domain(model.SessionInfo{Path: "p"})
	if d.Info.ID != "019b7f94-51b4-7593-922e-ba12b5b73b52" || d.Info.Format != Format || !strings.HasSuffix(d.Info.Cwd, "codemie-code") || Of(d) == nil {
		t.Errorf("domain %+v", d.Info)
	}
}

// A huge line, escapes and lines of every wrong type: read, never an error.
func TestHugeLine(t *testing.T) {
	big := strings.Repeat(`line \"quoted\" \\ \u001b[31m red \u2028 `, 300_000) // ~12 MB escaped
	data := strings.Join([]string{
		`{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"x"}}`,
		`{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"cat\"]}","call_id":"c"}}`,
		`{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"` + big + `"}}`,
		`{"timestamp":"2026-01-01T00:00:03.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}`,
	}, "\n")
	s, err := Parse([]byte(data))
	if err != nil || s.Len() != 4 || len(s.Diagnostics) != 0 {
		t.Fatalf("%v %d %v", err, s.Len(), s.Diagnostics)
	}
	out := s.Message(model.ContextMessage{Entry: 2})
	if out.ToolName != "shell" || !strings.Contains(out.Text(""), "\x1b[31m") || len(out.Text("")) < 8_000_000 {
		t.Errorf("huge output: %d bytes, tool %q", len(out.Text("")), out.ToolName)
	}
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, s.BuildContext(s.Leaf())); err != nil || !json.Valid(buf.Bytes()) {
		t.Fatal("context JSON invalid")
	}
	if tt := s.TreeText(2, ""); len(tt[0].Text) > 1000 {
		t.Errorf("tree text %d bytes", len(tt[0].Text))
	}
}

// A fork's file goes on with its parent's lines, session_meta too: the
// first is the session's, and that is no problem.
func TestFork(t *testing.T) {
	s := parse(t,
		`{"timestamp":"2026-01-02T00:00:00.000Z","type":"session_meta","payload":{"id":"child","forked_from_id":"parent","cwd":"/c","model_provider":"openai"}}`,
		`{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"parent","cwd":"/p"}}`,
		`{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`,
	)
	if s.Meta.ID != "child" || s.Meta.ForkedFromID != "parent" || s.Meta.Cwd != "/c" || len(s.Diagnostics) != 0 {
		t.Errorf("meta %+v, diagnostics %v", s.Meta, s.Diagnostics)
	}
	if info := s.Info("x.jsonl", 0); info.ID != "child" || info.Cwd != "/c" || info.FirstMessage != "hi" {
		t.Errorf("info %+v", info)
	}
}

// A shell output that Codex wrote as JSON in the string is its text (and
// its exit code when it failed).
func TestShellOutputJSON(t *testing.T) {
	blocks, failed := outputBlocks([]byte(`"{\"output\":\"a\\nb\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"`))
	if failed || len(blocks) != 1 || blocks[0].Text != "a\nb\n" {
		t.Errorf("%v %+v", failed, blocks)
	}
	blocks, failed = outputBlocks([]byte(`"{\"output\":\"boom\",\"metadata\":{\"exit_code\":2}}"`))
	if !failed || len(blocks) != 1 || blocks[0].Text != "boom\n(exit code 2)" {
		t.Errorf("%v %+v", failed, blocks)
	}
	if blocks, _ := outputBlocks([]byte(`"{\"output\": not json"`)); blocks[0].Text != `{"output": not json` {
		t.Errorf("%+v", blocks)
	}
}

// dom is the session as the domain sees it: what answers the methods a
// format leaves to model.Session's defaults.
func dom(s *Session) *model.Session { return s.Domain(model.SessionInfo{}) }
