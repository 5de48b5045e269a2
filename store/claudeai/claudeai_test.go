package claudeai

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/internal/jscan"
	"skein/model"
	"skein/store/pi"
)

var isoRe = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// checkLines parses lines with pi's parser and checks what every
// conversion must give: no line pi skips or complains of, parents before
// children, times in toISOString's form.
func checkLines(t testing.TB, lines []byte) *pi.Session {
	t.Helper()
	s, err := pi.Parse(lines)
	if err != nil {
		t.Fatalf("pi.Parse: %v\n%s", err, lines)
	}
	if d := s.Problems(); len(d) > 0 {
		t.Fatalf("pi reports %v\n%s", d, lines)
	}
	if s.Header.Version != 3 || !strings.HasPrefix(s.Header.ID, "claudeai-") || !isoRe.MatchString(s.Header.Timestamp) {
		t.Fatalf("header %+v", s.Header)
	}
	rows := bytes.Split(bytes.TrimSuffix(lines, []byte("\n")), []byte("\n"))
	if len(rows) != s.Len()+1 || !bytes.HasSuffix(lines, []byte("\n")) {
		t.Fatalf("%d lines, %d entries", len(rows), s.Len())
	}
	for i, row := range rows {
		if !jscan.Valid(row) { // no depth limit, unlike encoding/json
			t.Fatalf("line %d is not JSON: %s", i+1, row)
		}
	}
	for i := range s.Len() {
		e := s.Entry(i)
		if p := s.Parent(i); p >= i {
			t.Fatalf("entry %s comes before its parent", e.ID)
		}
		if e.ParentID != "" && s.Parent(i) < 0 {
			t.Fatalf("entry %s: parent %s not found", e.ID, e.ParentID)
		}
		if !isoRe.MatchString(e.Timestamp) {
			t.Fatalf("entry %s: timestamp %q", e.ID, e.Timestamp)
		}
	}
	return s
}

// contextOf is the messages pi gives the model at the leaf.
func contextOf(s *pi.Session) []model.Message {
	return formattest.Messages(s, s.BuildContext(s.Leaf()))
}

func roles(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Role))
	}
	return out
}

// allPaired checks that every tool call of msgs has its result, and
// returns the calls' ids.
func allPaired(t *testing.T, msgs []model.Message) []string {
	t.Helper()
	return formattest.CallsAnswered(t, msgs, model.PairTools(msgs))
}

// strings of a JSON value, and of JSON held in its strings, for finding
// what the export says in what the session says.
func stringLeaves(v any, skip func(key string, parent map[string]any) bool, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
		var inner any
		if t := strings.TrimSpace(v); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Unmarshal([]byte(t), &inner) == nil {
			stringLeaves(inner, skip, out)
		}
	case []any:
		for _, e := range v {
			stringLeaves(e, skip, out)
		}
	case map[string]any:
		for k, e := range v {
			if skip == nil || !skip(k, v) {
				stringLeaves(e, skip, out)
			}
		}
	}
}

// droppedKeys are the export's members whose strings the session does not
// keep: times (the entries' own times stand for them), links it turns into
// the tree, the sender it turns into a role, block types, file metadata.
var droppedKeys = map[string]bool{
	"created_at": true, "updated_at": true, "start_timestamp": true, "stop_timestamp": true,
	"parent_message_uuid": true, "sender": true, "type": true, "file_type": true, "file_uuid": true,
	"stop_reason": true, "uuid": true, "current_leaf_message_uuid": true,
}

// nothingLost checks that every string the conversation holds (but those
// of droppedKeys, and a message's flattened text next to its content) is
// in the session's lines.
func nothingLost(t *testing.T, conv []byte, lines []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(conv, &v); err != nil {
		t.Fatal(err)
	}
	var want []string
	stringLeaves(v, func(key string, parent map[string]any) bool {
		if droppedKeys[key] {
			return true
		}
		if key == "text" && parent["sender"] != nil { // a message's flattened text
			c, _ := parent["content"].([]any)
			return len(c) > 0
		}
		return false
	}, &want)
	var have []string
	for _, row := range bytes.Split(lines, []byte("\n")) {
		var e any
		if json.Unmarshal(row, &e) == nil {
			stringLeaves(e, nil, &have)
		}
	}
	all := strings.Join(have, "\x00")
	for _, s := range want {
		if !strings.Contains(all, s) {
			t.Errorf("lost: %q", s)
		}
	}
}

func rawConversations(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list []json.RawMessage
	if json.Unmarshal(data, &list) != nil {
		return [][]byte{data}
	}
	var out [][]byte
	for _, c := range list {
		out = append(out, c)
	}
	return out
}

const (
	h1  = "1d2c3b4a-0001-4e5f-8a6b-7c8d9e0f1a2b"
	a1  = "1d2c3b4a-0002-4e5f-8a6b-7c8d9e0f1a2b"
	h2  = "1d2c3b4a-0003-4e5f-8a6b-7c8d9e0f1a2b" // the prompt before its edit
	a2  = "1d2c3b4a-0004-4e5f-8a6b-7c8d9e0f1a2b"
	h2b = "1d2c3b4a-0005-4e5f-8a6b-7c8d9e0f1a2b" // the edited prompt
	a3  = "1d2c3b4a-0006-4e5f-8a6b-7c8d9e0f1a2b" // the answer retried
	a3b = "1d2c3b4a-0007-4e5f-8a6b-7c8d9e0f1a2b" // the retry: the current message
)

func TestExport(t *testing.T) {
	convs, err := Open(filepath.Join("testdata", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 2 {
		t.Fatalf("%d conversations, want 2", len(convs))
	}
	raws := rawConversations(t, filepath.Join("testdata", "conversations.json"))
	for i, c := range convs {
		checkLines(t, c.Lines)
		nothingLost(t, raws[i], c.Lines)
	}

	c := convs[0]
	if c.ID != "8f3a2b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b" || c.Title != "Parsing nginx access logs in Go" {
		t.Fatalf("ID %q, Title %q", c.ID, c.Title)
	}
	s := checkLines(t, c.Lines)
	if s.Header.ID != "claudeai-"+c.ID || s.Header.Timestamp != "2024-06-20T09:59:58.201Z" {
		t.Errorf("header %+v", s.Header)
	}
	leaf := s.Leaf()
	if e := s.Entry(leaf); e.Type != "session_info" || s.Detail(leaf).Title != c.Title {
		t.Fatalf("last line %+v, want the title", e)
	}
	if s.Name() != c.Title {
		t.Errorf("name %q", s.Name())
	}
	// The current message is the retried answer, the leaf created last.
	cur := s.Parent(leaf)
	if id := s.Entry(cur).ID; !strings.HasPrefix(id, a3b) {
		t.Fatalf("the title hangs from %s, want the last entry of %s", id, a3b)
	}
	path := s.Path(leaf)
	on := map[string]bool{}
	for _, i := range path {
		on[s.Entry(i).ID] = true
	}
	for _, id := range []string{h1, a1, h2b, a3b} {
		if !on[id] {
			t.Errorf("%s is not on the current path", id)
		}
	}
	for _, id := range []string{h2, a2, a3} {
		if on[id] {
			t.Errorf("%s, of another branch, is on the current path", id)
		}
	}
	// The edited prompt: two prompts after the first answer's last entry.
	fork := s.Parent(formattest.Index(t, s, h2))
	if s.Parent(formattest.Index(t, s, h2b)) != fork || len(s.Children(fork)) != 2 || !strings.HasPrefix(s.Entry(fork).ID, a1) {
		t.Errorf("edit: %s and %s should both follow %s", h2, h2b, s.Entry(fork).ID)
	}
	// The retry: two answers to the edited prompt.
	if p := formattest.Index(t, s, h2b); s.Parent(formattest.Index(t, s, a3)) != p || s.Parent(formattest.Index(t, s, a3b)) != p || len(s.Children(p)) != 2 {
		t.Errorf("retry: %s and %s should both answer %s", a3, a3b, h2b)
	}
	// Everything on the current path comes after the other branches.
	for _, id := range []string{h2, a2, a3} {
		if formattest.Index(t, s, id) > formattest.Index(t, s, a3b) {
			t.Errorf("%s comes after the current message", id)
		}
	}

	msgs := contextOf(s)
	want := []string{"user", "assistant", "toolResult", "assistant", "user", "assistant", "toolResult", "assistant"}
	if got := roles(msgs); !slices.Equal(got, want) {
		t.Fatalf("context roles %v, want %v", got, want)
	}
	calls := allPaired(t, msgs)
	if !slices.Equal(calls, []string{"toolu_01A9bQ7fZk2mXcW3pLr8sT4v", "toolu_01Qm3RtY8vWx2ZaB5cD7eF9g"}) {
		t.Errorf("calls %v", calls)
	}
	if m := msgs[1]; m.Blocks[0].Type != model.BlockThinking || m.Blocks[1].Type != model.BlockText || m.Blocks[2].Call.Name != "web_search" ||
		string(m.Blocks[2].Call.Input) != `{"query":"nginx log_format combined fields"}` || m.Model != "claude.ai" {
		t.Errorf("first answer's first part: %+v", m)
	}
	if m := msgs[2]; m.ToolName != "web_search" || !strings.Contains(m.Blocks[0].Text, "predefined combined format") {
		t.Errorf("web search result %+v", m)
	}
	prompt := msgs[0].Text("\n")
	for _, part := range []string{"How do I parse nginx access logs", "[attachment: access.log]\n203.0.113.7 - -", "[file: dashboard.png]"} {
		if !strings.Contains(prompt, part) {
			t.Errorf("prompt lacks %q: %q", part, prompt)
		}
	}
	if m := msgs[7]; m.StopReason != "stop" || m.Text("") != "I wrote `logparse.go` with an `Entry` struct and `Parse`." {
		t.Errorf("last part %+v", m)
	}
	// What pi has no place for is kept in custom entries where it was.
	customs := map[string]int{}
	for i := range s.Len() {
		if s.Entry(i).Type == "custom" {
			customs[s.Detail(i).CustomType]++
		}
	}
	for _, k := range []string{"claudeai.conversation", "claudeai.token_budget", "claudeai.voice_note", "claudeai.meta"} {
		if customs[k] == 0 {
			t.Errorf("no %s entry (have %v)", k, customs)
		}
	}
	if tb := formattest.Index(t, s, a1+"-4"); s.Detail(tb).CustomType != "claudeai.token_budget" || s.Entry(s.Parent(tb)).ID != a1+"-3" {
		t.Errorf("token_budget is not after the tool result: %+v", s.Entry(tb))
	}

	// The old export: text only, no content, no parent links: a chain.
	old := convs[1]
	s = checkLines(t, old.Lines)
	msgs = contextOf(s)
	if got := roles(msgs); !slices.Equal(got, []string{"user", "assistant", "user", "assistant"}) {
		t.Fatalf("old conversation roles %v", got)
	}
	if msgs[1].Text("") != "Maple leaves drifting\nacross the still temple pond\nKyoto holds its breath" {
		t.Errorf("old answer %q", msgs[1].Text(""))
	}
	if !strings.Contains(msgs[2].Text("\n"), "[attachment: basho.txt]\nAn old silent pond") {
		t.Errorf("old attachment %q", msgs[2].Text("\n"))
	}
	if s.Entry(s.Leaf()).Type != "session_info" || !strings.HasPrefix(s.Entry(s.Parent(s.Leaf())).ID, "5c4b3a29-0004") {
		t.Errorf("old leaf %+v", s.Entry(s.Leaf()))
	}
	if ts := s.Entry(formattest.Index(t, s, "5c4b3a29-0001-4a8b-9c7d-6e5f4a3b2c1d")).Timestamp; ts != "2023-09-14T08:12:33.581Z" {
		t.Errorf("time %s", ts)
	}
}

func TestSingleObject(t *testing.T) {
	path := filepath.Join("testdata", "single.json")
	convs, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 1 {
		t.Fatalf("%d conversations", len(convs))
	}
	c := convs[0]
	s := checkLines(t, c.Lines)
	nothingLost(t, rawConversations(t, path)[0], c.Lines)
	// current_leaf_message_uuid names the leaf shown, not the newest one.
	if id := s.Entry(s.Parent(s.Leaf())).ID; id != "0b1c2d3e-0004-4f5a-8b6c-7d8e9f0a1b2c" {
		t.Errorf("current message %s", id)
	}
	msgs := contextOf(s)
	want := []string{"user", "assistant", "toolResult", "toolResult", "assistant", "user", "assistant"}
	if got := roles(msgs); !slices.Equal(got, want) {
		t.Fatalf("roles %v, want %v", got, want)
	}
	// Parallel calls answered out of order pair by id; the call never
	// answered (the message was stopped) stays without a result.
	pairs := model.PairTools(msgs)
	if pairs["toolu_01Lis"] != 3 || pairs["toolu_01Por"] != 2 {
		t.Errorf("pairs %v", pairs)
	}
	if _, ok := pairs["toolu_01Map"]; ok || len(msgs[4].ToolCalls()) != 1 {
		t.Errorf("the unanswered call: pairs %v", pairs)
	}
	if msgs[4].StopReason != "aborted" || msgs[1].StopReason != "toolUse" {
		t.Errorf("stop reasons %q %q", msgs[1].StopReason, msgs[4].StopReason)
	}
	if msgs[3].Blocks[0].Text != "Lisbon: 22°C, sunny" {
		t.Errorf("a string result %+v", msgs[3])
	}
}

// exportOf wraps messages in a conversation.
func exportOf(msgs string) []byte {
	return []byte(`{"uuid":"c0","name":"t","created_at":"2024-01-01T00:00:00Z","chat_messages":[` + msgs + `]}`)
}

func TestHostile(t *testing.T) {
	huge := strings.Repeat("é∑ x", 1<<20)
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	cases := []struct {
		name  string
		data  []byte
		convs int // -1: Read fails
		check func(t *testing.T, s *pi.Session)
	}{
		{"empty", nil, -1, nil},
		{"empty array", []byte(`[]`), -1, nil},
		{"null", []byte(`null`), -1, nil},
		{"not JSON", []byte(`{"chat_messages": [`), -1, nil},
		{"no chat_messages", []byte(`[{"uuid":"a"},{"mapping":{}}]`), -1, nil},
		{"chat_messages a string", []byte(`{"chat_messages":"x"}`), -1, nil},
		{"chat_messages null", []byte(`{"chat_messages":null}`), 1, nil},
		{"no messages, a name", []byte(`{"uuid":"u","name":"just a title","chat_messages":[]}`), 1, func(t *testing.T, s *pi.Session) {
			if s.Len() != 1 || s.Name() != "just a title" {
				t.Errorf("%d entries, name %q", s.Len(), s.Name())
			}
		}},
		{"one bad of two", []byte(`[{"chat_messages":7},{"uuid":"b","chat_messages":[{"uuid":"m","sender":"human","text":"hi"}]}]`), 1, nil},
		{"cut short", append([]byte(`[{"uuid":"a","chat_messages":[{"sender":"human","text":"kept"}]},{"uuid":"b","chat_messages":[{"sender":`), huge[:100]...), 1, nil},
		{"BOM", []byte("\xef\xbb\xbf" + `{"chat_messages":[{"sender":"human","text":"x"}]}`), 1, nil},
		{"cycle", exportOf(`{"uuid":"a","parent_message_uuid":"b","sender":"human","text":"A"},{"uuid":"b","parent_message_uuid":"a","sender":"assistant","text":"B"}`), 1, func(t *testing.T, s *pi.Session) {
			if s.Parent(formattest.Index(t, s, "a")) != -1 || s.Parent(formattest.Index(t, s, "b")) != formattest.Index(t, s, "a") {
				t.Errorf("cycle not broken at the first message")
			}
		}},
		{"own parent", exportOf(`{"uuid":"a","parent_message_uuid":"a","sender":"human","text":"A"}`), 1, nil},
		{"missing parent", exportOf(`{"uuid":"a","sender":"human","text":"A","parent_message_uuid":"00000000-0000-4000-8000-000000000000"},{"uuid":"b","parent_message_uuid":"gone","sender":"assistant","text":"B"}`), 1, func(t *testing.T, s *pi.Session) {
			if s.Parent(formattest.Index(t, s, "b")) != -1 || s.Entry(s.Leaf()).Type != "session_info" || s.Parent(s.Leaf()) != formattest.Index(t, s, "b") {
				t.Errorf("b should be a root and the current message")
			}
		}},
		{"duplicate uuids", exportOf(`{"uuid":"a","sender":"human","text":"1"},{"uuid":"a","sender":"assistant","text":"2"},{"uuid":"a","parent_message_uuid":"a","sender":"human","text":"3"}`), 1, nil},
		{"content a string", exportOf(`{"uuid":"a","sender":"human","content":"hello"}`), 1, func(t *testing.T, s *pi.Session) {
			if m := contextOf(s); len(m) != 1 || m[0].Text("") != "hello" {
				t.Errorf("%+v", m)
			}
		}},
		{"content an object", exportOf(`{"uuid":"a","sender":"assistant","content":{"type":"text","text":"obj"}}`), 1, nil},
		{"wrong types", exportOf(`1,"s",true,[],{"uuid":5,"sender":["human"],"text":{},"created_at":12,"content":[1,null,"t",[2],{"type":7},{"type":"text","text":3}],"attachments":"x","files":{}},{"sender":"assistant","content":[{"type":"tool_use","id":9,"name":{},"input":"not an object"},{"type":"tool_result","tool_use_id":[],"content":{"a":1},"is_error":"yes"}],"attachments":[1,"a",null,{"file_name":2}],"files":[3,{"file_name":null}]}`), 1, nil},
		{"values of the wrong type are kept", exportOf(`{"uuid":"a","sender":"assistant","text":{"t":1},"content":[{"type":"text","text":3},{"type":"tool_use","id":9,"name":{"n":1},"input":"in"}],"truncated":true}`), 1, func(t *testing.T, s *pi.Session) {
			var all []byte
			for i := range s.Len() {
				all = append(all, s.Raw(i)...)
			}
			for _, want := range []string{`"text":3`, `"id":9`, `"name":{"n":1}`, `"input":"in"`, `"text":{"t":1}`, `"truncated":true`} {
				if !bytes.Contains(all, []byte(want)) {
					t.Errorf("lost %s", want)
				}
			}
		}},
		{"nulls", []byte(`{"uuid":null,"name":null,"created_at":null,"chat_messages":[null,{"uuid":null,"sender":"human","text":null,"content":null,"attachments":null,"files":null,"parent_message_uuid":null,"created_at":null},{"sender":"assistant","content":[null,{"type":null},{"type":"tool_use","input":null},{"type":"tool_result","content":null}]}]}`), 1, nil},
		{"unknown sender", exportOf(`{"uuid":"a","sender":"human","text":"q"},{"uuid":"s","sender":"system","text":"sys"},{"uuid":"b","sender":"assistant","text":"r"}`), 1, func(t *testing.T, s *pi.Session) {
			if i := formattest.Index(t, s, "s"); s.Detail(i).CustomType != "claudeai.message" {
				t.Errorf("unknown sender: %+v", s.Entry(i))
			}
		}},
		{"bad times", exportOf(`{"uuid":"a","sender":"human","text":"q","created_at":"yesterday"},{"uuid":"b","sender":"assistant","text":"r","created_at":"99999-01-01T00:00:00Z"},{"uuid":"c","sender":"human","text":"s","created_at":"2024-06-20T10:00:00.123456789+02:00"}`), 1, func(t *testing.T, s *pi.Session) {
			if ts := s.Entry(formattest.Index(t, s, "b")).Timestamp; ts != "2024-01-01T00:00:00.000Z" {
				t.Errorf("a bad time should be the entry before's: %s", ts)
			}
			if ts := s.Entry(formattest.Index(t, s, "c")).Timestamp; ts != "2024-06-20T08:00:00.123Z" {
				t.Errorf("offset time %s", ts)
			}
		}},
		{"huge string", exportOf(`{"uuid":"a","sender":"human","text":"` + huge + `"}`), 1, nil},
		{"deep input", exportOf(`{"uuid":"a","sender":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"x":` + deep + `}},{"type":"mystery","v":` + deep + `}]}`), 1, nil},
		{"invalid UTF-8", exportOf("{\"uuid\":\"a\xff\",\"sender\":\"human\",\"text\":\"bad \xc3\x28 \\ud800 bytes\"}"), 1, nil},
		{"results without ids", exportOf(`{"uuid":"a","sender":"assistant","content":[{"type":"tool_use","name":"x","input":{}},{"type":"tool_result","name":"x","content":"rx"},{"type":"tool_use","name":"y","input":{}},{"type":"tool_result","content":"ry"},{"type":"tool_result","content":"orphan"}]}`), 1, func(t *testing.T, s *pi.Session) {
			msgs := contextOf(s)
			pairs := model.PairTools(msgs)
			if len(pairs) != 2 {
				t.Errorf("pairs %v of %v", pairs, roles(msgs))
			}
		}},
		{"results of an earlier message", exportOf(`{"uuid":"a","sender":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"uuid":"b","sender":"human","content":[{"type":"tool_result","tool_use_id":"t1","content":"r"},{"type":"thinking","thinking":"odd"}]}`), 1, func(t *testing.T, s *pi.Session) {
			allPaired(t, contextOf(s))
		}},
		{"repeated call ids", exportOf(`{"uuid":"a","sender":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":{}},{"type":"tool_use","id":"t","name":"x","input":{}},{"type":"tool_result","tool_use_id":"t","content":"1"},{"type":"tool_result","tool_use_id":"t","content":"2"}]}`), 1, func(t *testing.T, s *pi.Session) {
			allPaired(t, contextOf(s))
		}},
		{"current leaf not a leaf", []byte(`{"uuid":"c","current_leaf_message_uuid":"a","chat_messages":[{"uuid":"a","sender":"human","text":"q"},{"uuid":"b","parent_message_uuid":"a","sender":"assistant","text":"r"}]}`), 1, func(t *testing.T, s *pi.Session) {
			if s.Entry(s.Leaf()).ID != "b" {
				t.Errorf("leaf %s", s.Entry(s.Leaf()).ID)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			convs, err := Read(tc.data)
			if tc.convs < 0 {
				if err == nil {
					t.Fatalf("Read gave %d conversations, want an error", len(convs))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(convs) != tc.convs {
				t.Fatalf("%d conversations, want %d", len(convs), tc.convs)
			}
			for _, c := range convs {
				s := checkLines(t, c.Lines)
				if tc.check != nil {
					tc.check(t, s)
				}
			}
		})
	}
}

func TestDetect(t *testing.T) {
	export, err := os.ReadFile(filepath.Join("testdata", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	single, err := os.ReadFile(filepath.Join("testdata", "single.json"))
	if err != nil {
		t.Fatal(err)
	}
	long := `[{"uuid":"u","name":"n","summary":"` + strings.Repeat("s", 5000) + `","created_at":"x","updated_at":"y","account":{"uuid":"a"},"chat_messages":[]}]`
	formattest.Sniffs(t, "Detect", Detect, []string{
		string(export),
		string(export[:bytes.Index(export, []byte(`"account"`))]), // cut before chat_messages, after what every export starts with
		string(single),
		long,
		`{"chat_messages":[]}`,
		"\xef\xbb\xbf [ {\"a\":{\"chat_messages\":1},\"chat_messages\":[]}]",
	}, []string{
		long[:300],                     // cut in the summary: created_at and updated_at not seen yet
		`[{"a":{"chat_messages":[]}}]`, // nested, not a member of the conversation
		`[{"a":1},{"chat_messages":[]}]`,
		`{"title":"x","mapping":{},"create_time":1}`,
		`[{"role":"user","content":"chat_messages"}]`,
		`{"type":"session","version":3,"id":"x"}`,
		`[]`,
		``,
		`"chat_messages"`,
		`{"chat_messages`,
	})
}

func TestZip(t *testing.T) {
	export, err := os.ReadFile(filepath.Join("testdata", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "data-2024-06-21-batch-0000.zip")
	writeZip(t, p, map[string][]byte{"users.json": []byte(`[]`), "conversations.json": export})
	convs, err := Open(p)
	if err != nil || len(convs) != 2 {
		t.Fatalf("%d conversations, %v", len(convs), err)
	}
}
