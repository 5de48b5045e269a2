package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// The files of testdata/claude (README.md there says where each comes
// from: two real logs, the rest made by hand after real ones).
const (
	fixtures  = "../../testdata/claude"
	initRun   = fixtures + "/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl" // real, Claude Code 1.0.98
	agentHash = fixtures + "/agent-test-hash-123.jsonl"                  // real, 2.0.28
	rewind    = fixtures + "/rewind-compact.jsonl"
	subagents = fixtures + "/7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5.jsonl"
	beside    = fixtures + "/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"
	sidechain = fixtures + "/9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a.jsonl"
)

// open is Open's session of the file at path, or the test's end.
var open = formattest.Reader(Open)

func idOf(s *Session, i int) string {
	if i < 0 {
		return ""
	}
	return s.Entries[i].ID
}

func ids(s *Session, idx []int) []string {
	return formattest.IDs(len(idx), func(k int) string { return idOf(s, idx[k]) })
}

func contextIDs(s *Session, ctx model.Context) []string {
	return formattest.IDs(len(ctx.Messages), func(k int) string { return idOf(s, ctx.Messages[k].Entry) })
}

// TestIndexRoundTrip: every entry is found by its id, and the entry its
// id finds is itself.
func TestIndexRoundTrip(t *testing.T) {
	for _, p := range []string{initRun, agentHash, rewind, subagents, beside, sidechain} {
		s := open(t, p)
		for i := range s.Entries {
			if j, ok := s.Index(s.Entries[i].ID); !ok || j != i {
				t.Errorf("%s: entry %d %q: Index gives %d %v", filepath.Base(p), i, s.Entries[i].ID, j, ok)
			}
		}
		if _, ok := s.Index("no-such-id"); ok {
			t.Errorf("%s: an id that is not there was found", p)
		}
	}
}

// TestMergeReply: the lines of one reply (sharing message.id) are one
// assistant message, their blocks in line order, the last line's usage.
func TestMergeReply(t *testing.T) {
	s := open(t, initRun)
	tests := []struct {
		id     string // the reply's first line's uuid
		lines  int
		blocks []string // the blocks' types, in order
		calls  []string
		output float64 // the last line's usage.output_tokens
	}{
		{"b96a37ed-bbf2-4ac3-b4ab-e286f7facb3a", 2, []string{"text", "tool_use"}, []string{"TodoWrite"}, 322},
		{"a1bdced2-6cf5-4c3a-b700-d5e13eb64d9d", 5, []string{"tool_use", "tool_use", "tool_use", "tool_use", "tool_use"},
			[]string{"Bash", "Glob", "Glob", "Glob", "Glob"}, 285},
		{"2e5c522c-27bf-4ea5-94d6-5e1c45a8de6f", 3, []string{"tool_use", "tool_use", "tool_use"}, []string{"Bash", "Glob", "Glob"}, 146},
		{"938cdc9a-55b5-4bc6-89f6-28f372826b5a", 2, []string{"text", "tool_use"}, []string{"Write"}, 1}, // 1.0.98 wrote 1 on both lines
		{"549b3502-6e30-4fa5-869f-c998df26c3f0", 1, []string{"text"}, nil, 72},
	}
	for _, tt := range tests {
		i := formattest.Index(t, s, tt.id)
		if got := len(s.Lines(i)); got != tt.lines {
			t.Errorf("%s: %d lines, want %d", tt.id, got, tt.lines)
		}
		if got := bytes.Count(s.Raw(i), []byte("\n")) + 1; got != tt.lines {
			t.Errorf("%s: Raw holds %d lines, want %d", tt.id, got, tt.lines)
		}
		msg := s.Message(model.ContextMessage{Entry: i})
		var types, calls []string
		for _, b := range msg.Blocks {
			types = append(types, b.Name)
		}
		for _, c := range msg.ToolCalls() {
			calls = append(calls, c.Name)
		}
		if !slices.Equal(types, tt.blocks) || !slices.Equal(calls, tt.calls) {
			t.Errorf("%s: blocks %v calls %v, want %v %v", tt.id, types, calls, tt.blocks, tt.calls)
		}
		if msg.Usage == nil || msg.Usage.Output != tt.output {
			t.Errorf("%s: usage %+v, want output %v", tt.id, msg.Usage, tt.output)
		}
		if msg.Model != "claude-sonnet-4-20250514" || msg.Provider != Provider {
			t.Errorf("%s: model %q/%q", tt.id, msg.Provider, msg.Model)
		}
	}
	// Every line of a reply finds the reply.
	for _, l := range []string{"e33587e2-82e8-4236-bbf1-1323115ed283", "4116c4de-0415-4ea2-96cf-696615975fd8"} {
		i := formattest.Index(t, s, l)
		if s.Entries[i].role != model.RoleAssistant || s.Entries[i].ID == l {
			t.Errorf("line %s: entry %d %q", l, i, s.Entries[i].ID)
		}
	}
	if got := len(s.Entries); got != 21 {
		t.Errorf("%d entries, want 21 (29 lines, 8 of them merged)", got)
	}
}

// TestToolPairing: each tool_result is a toolResult message answering its
// call, named after it; every call of the sample has its result.
func TestToolPairing(t *testing.T) {
	s := open(t, initRun)
	ctx := s.BuildContext(s.Leaf())
	msgs := formattest.Messages(s, ctx)
	pairs := model.PairTools(msgs)
	calls := 0
	for k, m := range msgs {
		for _, c := range m.ToolCalls() {
			calls++
			r, ok := pairs[c.ID]
			if !ok {
				t.Errorf("call %s %s has no result", c.Name, c.ID)
				continue
			}
			if r <= k || msgs[r].ToolName != c.Name || msgs[r].ToolCallID != c.ID || msgs[r].Role != model.RoleToolResult {
				t.Errorf("call %s %s: result %d %+v", c.Name, c.ID, r, msgs[r])
			}
		}
	}
	if calls != 12 || len(pairs) != 12 {
		t.Errorf("%d calls, %d paired; want 12", calls, len(pairs))
	}
	w := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "8ff31a72-b64e-4565-9a76-79888ac46a15")})
	if !w.IsError || w.ToolName != "Write" || !strings.Contains(w.Text(""), "requested permissions") {
		t.Errorf("the refused Write: %+v", w)
	}
	// A line holding several results (and text beside them) is an entry
	// for each, chained in order.
	r := open(t, rewind)
	var got []string
	for _, id := range []string{"r3#1", "r3#2", "r3"} {
		i := formattest.Index(t, r, id)
		m := r.Message(model.ContextMessage{Entry: i})
		got = append(got, m.Role+" "+m.ToolCallID+" "+m.ToolName+" "+m.Text("")+" "+idOf(r, r.Parent(i)))
	}
	want := []string{"toolResult toolu_b1 Bash --- FAIL: TestTable a4", "toolResult toolu_b2 Bash  r3#1", "user   also check gofmt r3#2"}
	if !slices.Equal(got, want) {
		t.Errorf("pieces:\n%q\nwant\n%q", got, want)
	}
	if m := r.Message(model.ContextMessage{Entry: formattest.Index(t, r, "r3#1")}); !m.IsError {
		t.Error("toolu_b1's is_error was lost")
	}
}

// TestTree: the rewind file's tree, leaf, branches, contexts and records.
func TestTree(t *testing.T) {
	s := open(t, rewind)
	parents := map[string]string{
		"line:1": "u1", "line:2": "u1", "u1": "",
		"a1": "u1",                         // four lines: thinking, text, Glob, then Read after the Glob's result
		"r1": "a1", "p1": "r1", "r2": "r1", // the Read's line came after r1: the chain goes on from r1
		"a2": "r2", "sd1": "a2",
		"u2": "a2", "a3": "u2", // the first attempt
		"u3": "a2", "line:15": "u3", "at1": "u3", "a4": "at1", // the rewind: a second child of a2
		"r3#1": "a4", "r3#2": "r3#1", "r3": "r3#2", "a5": "r3", "line:21": "a5",
		"cb": "a5", "u4": "cb", "u5": "u4", "a6": "u5", // the boundary hangs under its logicalParentUuid
		"line:27": "a6", "line:28": "a6", "line:29": "a6", "line:30": "a6", "line:31": "a6", "line:32": "a6", "x1": "a6",
	}
	if len(s.Entries) != len(parents) {
		t.Errorf("%d entries, want %d", len(s.Entries), len(parents))
	}
	for id, p := range parents {
		if got := idOf(s, s.Parent(formattest.Index(t, s, id))); got != p {
			t.Errorf("parent of %s: %q, want %q", id, got, p)
		}
	}
	if got := len(s.Lines(formattest.Index(t, s, "a1"))); got != 4 {
		t.Errorf("a1 holds %d lines, want 4", got)
	}
	if got := len(s.Lines(formattest.Index(t, s, "cb"))); got != 2 {
		t.Errorf("the compaction holds %d lines, want the boundary and its summary", got)
	}
	if idOf(s, s.Leaf()) != "a6" {
		t.Errorf("leaf %q, want a6", idOf(s, s.Leaf()))
	}
	if got := s.Info(rewind, 0).Branches; got != 2 {
		t.Errorf("%d branches, want 2 (the rewind)", got)
	}
	if len(s.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", s.Diagnostics)
	}
	tests := []struct {
		name    string
		ctx     model.Context
		want    []string
		compact string
	}{
		{"context at the leaf", s.BuildContext(s.Leaf()), []string{"cb", "u5", "a6"}, "cb"},
		{"history at the leaf", s.BuildHistory(s.Leaf()),
			[]string{"u1", "a1", "r1", "r2", "a2", "u3", "a4", "r3#1", "r3#2", "r3", "a5", "cb", "u4", "u5", "a6"}, ""},
		{"context of the first attempt", s.BuildContext(formattest.Index(t, s, "a3")), []string{"u1", "a1", "r1", "r2", "a2", "u2", "a3"}, ""},
		{"no leaf", s.BuildContext(-1), []string{}, ""},
	}
	for _, tt := range tests {
		if got := contextIDs(s, tt.ctx); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
		if got := idOf(s, tt.ctx.Compaction); got != tt.compact {
			t.Errorf("%s: compaction %q, want %q", tt.name, got, tt.compact)
		}
	}
	ctx := s.BuildContext(s.Leaf())
	sum := s.Message(ctx.Messages[0])
	if sum.Role != model.RoleCompactionSummary || !strings.HasPrefix(sum.Summary, "This session is being continued") || sum.TokensBefore != 48213 {
		t.Errorf("the summary: %+v", sum)
	}
	if got := s.Summarized(s.Leaf(), ctx); got != 11 {
		t.Errorf("summarized %d, want the 11 messages before the boundary", got)
	}
	if ctx.Model == nil || ctx.Model.Name() != "anthropic/claude-opus-4-5-20251101" {
		t.Errorf("model %+v", ctx.Model)
	}
	if s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "u4")}).Excluded != true {
		t.Error("u4 (isVisibleInTranscriptOnly) is not marked excluded")
	}
	img := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "u5")}).Blocks
	if len(img) != 2 || img[1].Type != model.BlockImage || img[1].MimeType != "image/png" || img[1].DataLen != 12 {
		t.Errorf("u5's blocks: %+v", img)
	}
	think := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "a1")}).Blocks
	if len(think) != 4 || think[0].Type != model.BlockThinking || !strings.HasPrefix(think[0].Text, "The user wants") {
		t.Errorf("a1's blocks: %+v", think)
	}
	if e := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "a5")}); e.StopReason != "error" || e.Error == "" {
		t.Errorf("the API error: %+v", e)
	}
	if s.Name() != "Table tests for main" {
		t.Errorf("name %q", s.Name())
	}
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, ctx); err != nil {
		t.Fatal(err)
	}
	// The API's shape: the summary and the prompt after it are one user
	// message, as Claude Code merges the user messages in a row (the
	// summary's text ending in a line end where it meets the prompt's).
	var sum0 string
	if err := json.Unmarshal(jsonMember(t, s.Lines(formattest.Index(t, s, "cb"))[1], "message", "content"), &sum0); err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": sum0 + "\n"},
			map[string]any{"type": "text", "text": "Run the tests again; here is the failure."},
			map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
		}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "All tests pass now."}}},
	}})
	var got any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if g, _ := json.Marshal(got); !bytes.Equal(g, wantJSON) {
		t.Errorf("context JSON:\n%s\nwant\n%s", g, wantJSON)
	}
}

// jsonMember is the member at path of a JSON object.
func jsonMember(t *testing.T, raw []byte, path ...string) []byte {
	t.Helper()
	for _, k := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		raw = m[k]
	}
	return raw
}

// TestRecords: records skein does not model are kept, each an entry with
// its raw line; none is an error.
func TestRecords(t *testing.T) {
	s := open(t, rewind)
	tests := []struct {
		id, typ    string
		kind       model.EntryKind
		customType string
		title      string
	}{
		{"line:1", "summary", model.EntryTitle, "", "Old summary copied from the session this one resumed"},
		{"line:2", "file-history-snapshot", model.EntryCustom, "file-history-snapshot", ""},
		{"p1", "progress", model.EntryCustom, "progress", ""},
		{"sd1", "system", model.EntryCustom, "system:turn_duration", ""},
		{"at1", "attachment", model.EntryCustom, "attachment", ""},
		{"line:21", "custom-title", model.EntryTitle, "", "Table tests for main"},
		{"line:27", "ai-title", model.EntryTitle, "", "Adding table tests"},
		{"line:28", "pr-link", model.EntryCustom, "pr-link", ""},
		{"line:29", "mode", model.EntryCustom, "mode", ""},
		{"line:30", "queue-operation", model.EntryCustom, "queue-operation", ""},
		{"line:31", "last-prompt", model.EntryCustom, "last-prompt", ""},
		{"line:32", "some-future-record", model.EntryCustom, "some-future-record", ""},
		{"x1", "some-future-chain-record", model.EntryCustom, "some-future-chain-record", ""},
		{"cb", "system", model.EntryCompaction, "", ""},
	}
	data, err := os.ReadFile(rewind)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for _, tt := range tests {
		i := formattest.Index(t, s, tt.id)
		e, d := s.Entry(i), s.Detail(i)
		if e.Type != tt.typ || e.Kind != tt.kind || d.CustomType != tt.customType || d.Title != tt.title {
			t.Errorf("%s: %+v %+v", tt.id, e, d)
		}
		if !bytes.Equal(s.Lines(i)[0], lines[e.Line-1]) {
			t.Errorf("%s: raw line is not line %d", tt.id, e.Line)
		}
	}
	// Every line is in some entry, verbatim (a line of several tool
	// results in each of its pieces).
	seen := map[int]bool{}
	for i := range s.Entries {
		for j := s.Entries[i].first; j >= 0; j = s.next[j] {
			seen[int(j)] = true
		}
	}
	if n := len(seen); n != len(lines) {
		t.Errorf("%d lines kept, the file has %d", n, len(lines))
	}
}

// TestSubagents: sub-agents are entries of the session, hung under the
// call that started them, out of the main path's context; found by the
// agent file's meta.json, by toolUseResult.agentId, by the result line's
// agentId (Claude Code 2.0), and by the prompt (1.0's in-file sidechains).
func TestSubagents(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		agents  map[string]string // agent id -> the id of the entry holding its call
		roots   map[string]string // agent root -> its parent
		leaf    string
		context []string
		count   int // Info's MessageCount: the main conversation's and the sub-agents', as the stats count
		files   []string
	}{
		{"2.1: subagents/ with meta.json, and toolUseResult.agentId", subagents,
			map[string]string{"web1": "m-a1", "jobs2": "m-a1"}, map[string]string{"w-u1": "m-a1", "j-u1": "m-a1"},
			"m-a2", []string{"m-u1", "m-a1", "m-r1", "m-r2", "m-a2"}, 11,
			[]string{"7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5/subagents/agent-jobs2.jsonl", "7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5/subagents/agent-web1.jsonl"}},
		{"2.0: agent-*.jsonl beside the session (the real sample), the result line's agentId", beside,
			map[string]string{"test-hash-123": "p-a1"}, map[string]string{"a1111111-1111-4111-a111-111111111111": "p-a1"},
			"p-a2", []string{"p-u1", "p-a1", "p-r1", "p-a2"}, 6, []string{"agent-test-hash-123.jsonl"}},
		{"1.0: a sidechain in the session's file, by its prompt", sidechain,
			map[string]string{"": "o-a1"}, map[string]string{"s-u1": "o-a1"},
			"o-a2", []string{"o-u1", "o-a1", "o-r1", "o-a2"}, 8, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t, tt.path)
			var files []string
			for _, f := range s.agentFiles {
				files = append(files, f.Name)
			}
			if !slices.Equal(files, tt.files) {
				t.Errorf("agent files %v, want %v", files, tt.files)
			}
			if len(s.Agents) != len(tt.agents) {
				t.Errorf("%d agents, want %d", len(s.Agents), len(tt.agents))
			}
			for _, a := range s.Agents {
				if want, ok := tt.agents[a.ID]; !ok || idOf(s, a.Call) != want {
					t.Errorf("agent %q: call in %q, want %q", a.ID, idOf(s, a.Call), want)
				}
			}
			for r, p := range tt.roots {
				i := formattest.Index(t, s, r)
				if got := idOf(s, s.Parent(i)); got != p || s.Entries[i].Agent < 0 {
					t.Errorf("agent root %s: parent %q agent %d, want %q", r, got, s.Entries[i].Agent, p)
				}
			}
			if idOf(s, s.Leaf()) != tt.leaf {
				t.Errorf("leaf %q, want %q", idOf(s, s.Leaf()), tt.leaf)
			}
			if got := contextIDs(s, s.BuildContext(s.Leaf())); !slices.Equal(got, tt.context) {
				t.Errorf("context %v, want %v", got, tt.context)
			}
			info := s.Info(tt.path, 0)
			if info.MessageCount != tt.count || info.Branches != 1 {
				t.Errorf("messages %d branches %d, want %d and 1", info.MessageCount, info.Branches, tt.count)
			}
			// An agent's own leaf: its context is its conversation only.
			for _, a := range s.Agents {
				last := a.Roots[0]
				for k := range s.Entries {
					if s.Entries[k].Agent == s.Entries[a.Roots[0]].Agent {
						last = k
					}
				}
				for _, m := range s.BuildContext(last).Messages {
					if s.Entries[m.Entry].Agent != s.Entries[last].Agent {
						t.Errorf("agent %q's context holds %s", a.ID, idOf(s, m.Entry))
					}
				}
			}
			st := s.Stats()
			if st.Messages != len(s.Entries) {
				t.Errorf("stats count %d messages of %d entries", st.Messages, len(s.Entries))
			}
		})
	}
}

// TestAgentFileAlone: a sub-agent's file opened by itself is a
// conversation of its own, named by its file: its sessionId is the
// session that started it, whose id a REF must still find alone.
func TestAgentFileAlone(t *testing.T) {
	s := open(t, agentHash)
	if len(s.Agents) != 0 || idOf(s, s.Leaf()) != "a2222222-2222-4222-a222-222222222222" {
		t.Fatalf("agents %d, leaf %q", len(s.Agents), idOf(s, s.Leaf()))
	}
	info := s.Info(agentHash, 0)
	if info.ID != "agent-test-hash-123" || info.FirstMessage != "Run the test suite" || info.MessageCount != 2 {
		t.Errorf("info %+v", info)
	}
}

// TestInfo: the list record of each fixture.
func TestInfo(t *testing.T) {
	tests := []struct {
		path string
		want formattest.Record
	}{
		{initRun, formattest.Record{ID: "1af7fc5e-8455-4414-9ccd-011d40f70b2a", Cwd: "/path/to/Demo", Created: "2025-09-03T00:47:19.293Z", Modified: "2025-09-03T00:47:52.264Z",
			FirstMessage: "/init", Model: "claude-sonnet-4-20250514", MessageCount: 21, Entries: 21, Branches: 1}},
		{rewind, formattest.Record{ID: "0b7c1d2e-3f40-4a51-8b62-7c83d94ea5f6", Cwd: "/home/ana/src/skein", Name: "Table tests for main", Created: "2026-03-02T10:00:01.000Z", Modified: "2026-03-02T10:07:02.000Z",
			FirstMessage: "List the Go files and explain main.go", Model: "claude-opus-4-5-20251101", MessageCount: 16, Entries: 31, Branches: 2}},
		{subagents, formattest.Record{ID: "7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5", Cwd: "/workspace/example-app", Created: "2026-06-15T10:00:01.000Z", Modified: "2026-06-15T10:00:11.000Z",
			FirstMessage: "Survey the repository with two agents, one per module.", Model: "claude-sonnet-4-5-20250929", MessageCount: 11, Entries: 11, Branches: 1}},
	}
	for _, tt := range tests {
		s := open(t, tt.path)
		info := s.Info(tt.path, 7)
		if got := formattest.RecordOf(info); got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", filepath.Base(tt.path), got, tt.want)
		}
		if info.Format != Format {
			t.Errorf("format %q", info.Format)
		}
		var js map[string]any
		if err := json.Unmarshal(info.AppendJSON(nil), &js); err != nil {
			t.Errorf("list JSON: %v", err)
		}
	}
}

// TestStats: usage per model from message.usage, tools, compactions.
func TestStats(t *testing.T) {
	s := open(t, rewind)
	st := s.Stats()
	if st.Compactions != 1 || st.Leaves != 2 || st.Errors != 1 || st.ToolCalls != 4 || st.AssistantMessages != 6 || st.ToolResults != 4 {
		t.Errorf("totals %+v compactions %d leaves %d", st.Totals, st.Compactions, st.Leaves)
	}
	want := []string{"anthropic/claude-sonnet-4-5-20250929", "anthropic/claude-opus-4-5-20251101"}
	if !slices.Equal(st.Models, want) {
		t.Errorf("models %v", st.Models)
	}
	for _, m := range st.ByModel {
		switch m.Key {
		case want[1]:
			if m.TokensIn != 5 || m.TokensOut != 40 || m.CacheRead != 9000 || m.CacheWrite != 300 {
				t.Errorf("%s: %+v", m.Key, m.UsageTotals)
			}
		case want[0]:
			// a1 (its last line's usage), a2, a3, a4.
			if m.TokensIn != 12+10+10+10 || m.TokensOut != 80+20+20+20 {
				t.Errorf("%s: %+v", m.Key, m.UsageTotals)
			}
		default:
			t.Errorf("usage of %q", m.Key)
		}
	}
	if len(st.Tools) != 3 || st.Tools[0] != (model.ToolCount{Name: "Bash", Calls: 2}) {
		t.Errorf("tools %v", st.Tools)
	}
	if len(st.Context) == 0 || !st.Context[len(st.Context)-2].Compaction {
		t.Errorf("context series %+v", st.Context)
	}
}

// TestTreeJSON: the tree as {id, type, role, label, children}, every
// entry once.
func TestTreeJSON(t *testing.T) {
	for _, p := range []string{initRun, rewind, subagents} {
		s := open(t, p)
		var buf bytes.Buffer
		if err := dom(s).WriteTreeJSON(&buf); err != nil {
			t.Fatal(err)
		}
		type node struct {
			ID       string  `json:"id"`
			Type     *string `json:"type"`
			Role     *string `json:"role"`
			Label    *string `json:"label"`
			Children []node  `json:"children"`
		}
		var roots []node
		if err := json.Unmarshal(buf.Bytes(), &roots); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		seen := map[string]bool{}
		var walk func(ns []node, parent string)
		walk = func(ns []node, parent string) {
			for _, n := range ns {
				i := formattest.Index(t, s, n.ID)
				if seen[n.ID] || idOf(s, s.Parent(i)) != parent {
					t.Errorf("%s: node %s under %q", p, n.ID, parent)
				}
				seen[n.ID] = true
				walk(n.Children, n.ID)
			}
		}
		walk(roots, "")
		if len(seen) != len(s.Entries) {
			t.Errorf("%s: %d nodes of %d entries", p, len(seen), len(s.Entries))
		}
	}
}

// TestTreeText: the tree's line for each kind of entry.
func TestTreeText(t *testing.T) {
	s := open(t, rewind)
	text := func(id string) string {
		var b strings.Builder
		for _, p := range s.TreeText(formattest.Index(t, s, id), "/home/ana") {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	tests := map[string]string{
		"u1":      "user: List the Go files and explain main.go",
		"a1":      "assistant: I'll look at the files. → Glob **/*.go, → Read ~/src/skein/main.go",
		"r3#1":    "← error: --- FAIL: TestTable",
		"u4":      "user: /compact",
		"cb":      "[compaction: manual, 48k tokens]",
		"line:21": "[custom-title: Table tests for main]",
		"sd1":     "[system:turn_duration]",
		"line:30": "[queue-operation] and update the README",
	}
	for id, want := range tests {
		if got := text(id); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	a := open(t, subagents)
	if got := a.TreeText(formattest.Index(t, a, "w-u1"), ""); got[0].Text != "[agent web1] " {
		t.Errorf("an agent's first entry: %v", got)
	}
}

// TestReadOnly: no compaction plan, and why.
func TestReadOnly(t *testing.T) {
	s := open(t, rewind)
	if dom(s).PlanCompaction(s.Leaf(), 1000) != nil {
		t.Error("a plan for a read-only session")
	}
	if why := dom(s).NothingToCompact(s.Leaf(), 1000); !strings.Contains(why, "read-only") || !strings.Contains(why, "import it first") {
		t.Errorf("NothingToCompact: %q", why)
	}
}

// TestNotSession: bytes with no JSON object line are not a session.
func TestNotSession(t *testing.T) {
	formattest.NotSession(t, Parse, ErrNotSession, "", "\n\n", "not json\n[1,2]\n\"x\"\n", "\xef\xbb\xbf")
}

// TestSniff tells Claude Code's logs from the other formats' first lines.
func TestSniff(t *testing.T) {
	var claude []string
	for _, p := range []string{initRun, agentHash, rewind, subagents, sidechain} {
		data := formattest.ReadFile(t, p)
		claude = append(claude, string(data), string(data[:60]))
	}
	formattest.Sniffs(t, "Sniff", Sniff, claude, []string{
		`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}`,
		`{"type":"meta","formatVersion":"0.1.0","sessionId":"x"}`,
		`{"timestamp":"2026-01-02T18:39:45.000Z","type":"session_meta","payload":{"id":"x"}}`,
		`{"id":"m1","type":"system","timestamp":"2026-01-01T00:00:00.000Z","content":"x"}`,
		`{"type":"message","role":"user","content":[]}`,
		`[{"role":"user","content":"hi"}]`,
		`not json`, ``,
	})
}

// TestAgentPaths: the sub-agent files of a session, found beside it (by
// the sessionId of their first line) and under <session>/subagents/.
func TestAgentPaths(t *testing.T) {
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(fixtures, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	tests := []struct {
		path string
		want []string
	}{
		{beside, []string{"agent-test-hash-123.jsonl"}},
		{subagents, []string{"7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5/subagents/agent-jobs2.jsonl", "7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5/subagents/agent-web1.jsonl"}},
		{initRun, nil},
	}
	for _, tt := range tests {
		if got := rel(AgentPaths(tt.path, "")); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", filepath.Base(tt.path), got, tt.want)
		}
	}
	// OpenFiles takes the caller's list; a file that cannot be read is
	// left out and reported.
	s, err := OpenFiles(beside, []string{filepath.Join(fixtures, "agent-test-hash-123.jsonl"), filepath.Join(fixtures, "agent-missing.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Agents) != 1 || s.Agents[0].Call < 0 || len(s.Diagnostics) != 1 || s.Diagnostics[0].File != "agent-missing.jsonl" {
		t.Errorf("agents %+v diagnostics %v", s.Agents, s.Diagnostics)
	}
	if !IsAgentFileName("agent-x.jsonl") || IsAgentFileName("agent-.jsonl") || IsAgentFileName("x.jsonl") {
		t.Error("IsAgentFileName")
	}
	data, _ := os.ReadFile(agentHash)
	for _, n := range []int{len(data), 200, 40} {
		want := "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
		if n == 40 {
			want = ""
		}
		if got := SessionIDOf(data[:n]); got != want {
			t.Errorf("SessionIDOf of %d bytes: %q", n, got)
		}
	}
}

// dom is the session as the domain sees it: what answers the methods a
// format leaves to model.Session's defaults.
func dom(s *Session) *model.Session { return s.Domain(model.SessionInfo{}) }
