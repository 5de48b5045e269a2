package schema

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// The seed's examples (seeds/001_06b506edee08cd9c.txt), verbatim.
const (
	seedMeta = `{
  "id": "abc123",
  "title": "Refactor auth module",
  "createdAt": "2026-05-14T10:00:00Z",
  "updatedAt": "2026-05-14T11:30:00Z",
  "provider": "openai",
  "model": "gpt-4o",
  "formatVersion": "0.1.0",
  "cwd": "/home/user/my-project"
}`
	seedMessage = `{"id":"msg_001","type":"message","role":"user","content":[{"type":"text","text":"Refactor the auth module"}],"timestamp":"2026-05-14T10:00:00Z"}`
	seedCall    = `{"id":"call_001","type":"tool_call","toolName":"read","input":{"path":"src/auth.ts"},"parentMessageId":"msg_002","timestamp":"2026-05-14T10:00:01Z"}`
	seedResult  = `{"id":"result_001","type":"tool_result","callId":"call_001","content":[{"type":"text","text":"... file contents ..."}],"isError":false,"timestamp":"2026-05-14T10:00:01Z"}`
	seedTree    = `{
  "root": "branch_main",
  "branches": [
    {
      "id": "branch_main",
      "parentBranchId": null,
      "entryIds": ["msg_001", "call_001", "result_001", "msg_002"],
      "createdAt": "2026-05-14T10:00:00Z"
    }
  ]
}`
)

// typical is an assistant message as an agent writes it, for the benchmark.
const typical = `{"id":"msg_0004","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"The user wants the token check moved out of the handler; read the middleware first."},{"type":"text","text":"I'll start by reading the middleware and the handler, then move the token check into its own function with tests."}],"provider":"openai","model":"gpt-4o","usage":{"input":1834,"output":96},"timestamp":"2026-05-14T10:00:05.123Z"}`

func TestValid(t *testing.T) {
	cases := []struct {
		name  string
		check func([]byte) []Problem
		doc   string
	}{
		{"seed meta", Meta, seedMeta},
		{"seed message", Entry, seedMessage},
		{"seed tool_call", Entry, seedCall},
		{"seed tool_result", Entry, seedResult},
		{"seed tree", Tree, seedTree},

		{"meta required only", Meta, `{"id":"s","createdAt":"2026-05-14T10:00:00Z","updatedAt":"2026-05-14T10:00:00Z","formatVersion":"10.20.30"}`},
		{"meta unknown member", Meta, `{"id":"s","createdAt":"2026-05-14T10:00:00.5+02:00","updatedAt":"2026-05-14T10:00:00Z","formatVersion":"0.1.0","activeBranchId":"b","tags":["x"]}`},

		{"message text thinking image", Entry, `{"id":"m2","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"look"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}],"timestamp":"2026-05-14T10:00:02Z"}`},
		{"message empty content", Entry, `{"id":"m3","type":"message","role":"user","content":[],"timestamp":"2026-05-14T10:00:02Z"}`},
		{"message unknown block", Entry, `{"id":"m4","type":"message","role":"assistant","content":[{"type":"redacted_thinking","data":"opaque"},{"type":"audio","seconds":3}],"timestamp":"2026-05-14T10:00:02Z"}`},
		{"message unknown role and fields", Entry, `{"id":"m5","type":"message","role":"developer","content":[{"type":"text","text":"x","cache":true}],"timestamp":"2026-05-14T10:00:02Z","usage":{"input":1},"x-extra":null}`},
		{"tool_call", Entry, `{"id":"c2","type":"tool_call","toolName":"bash","input":{},"parentMessageId":"m2","timestamp":"2026-05-14T10:00:03Z"}`},
		{"tool_result error", Entry, `{"id":"r2","type":"tool_result","callId":"c2","content":[{"type":"text","text":"exit 1"},{"type":"image","mimeType":"image/jpeg","data":""}],"isError":true,"durationMs":12,"timestamp":"2026-05-14T10:00:04Z"}`},
		{"system string", Entry, `{"id":"s1","type":"system","content":"You are a coding agent.","timestamp":"2026-05-14T10:00:00Z"}`},
		{"system blocks", Entry, `{"id":"s2","type":"system","content":[{"type":"text","text":"You are a coding agent."}],"timestamp":"2026-05-14T10:00:00Z"}`},
		{"model_change", Entry, `{"id":"mc1","type":"model_change","provider":"anthropic","model":"claude-sonnet-4","timestamp":"2026-05-14T10:00:00Z"}`},
		{"label", Entry, `{"id":"label_0123456789abcdef","type":"label","targetId":"m2","label":"before refactor","timestamp":"2026-05-14T10:00:00Z"}`},
		{"label empty clears", Entry, `{"id":"l2","type":"label","targetId":"m2","label":"","timestamp":"2026-05-14T10:00:00Z"}`},
		{"label missing clears", Entry, `{"id":"l3","type":"label","targetId":"m2","timestamp":"2026-05-14T10:00:00Z"}`},
		{"custom", Entry, `{"id":"cu1","type":"custom","customType":"claude.summary","data":{"leafUuid":"x"},"timestamp":"2026-05-14T10:00:00Z"}`},
		{"custom null data", Entry, `{"id":"cu2","type":"custom","customType":"import.note","data":null,"timestamp":"2026-05-14T10:00:00Z"}`},
		{"compaction", Entry, `{"id":"cmp_1","type":"compaction","summary":"## Goal\n...","entryIds":["msg_001","call_001","result_001"],"preservedEntryIds":[],"branchId":"branch_main","timestamp":"2026-05-14T10:10:00Z"}`},
		{"compaction extras", Entry, `{"id":"cmp_0123456789abcdef","type":"compaction","summary":"s","entryIds":["msg_001","call_001","result_001"],"preservedEntryIds":["result_001"],"branchId":"branch_main","tokensBefore":12345,"readFiles":["src/auth.ts"],"modifiedFiles":[],"usage":{"input":900,"output":120,"cost":{"total":0.01}},"timestamp":"2026-05-14T10:10:00Z"}`},
		{"unknown kind", Entry, `{"id":"u1","type":"context_edit","targetId":"m2","replacement":null,"timestamp":"2026-05-14T10:00:00Z"}`},
		{"unknown kind named like a field", Entry, `{"id":"u2","type":"Message","timestamp":"2026-05-14T10:00:00Z"}`},
		{"crlf line", Entry, seedMessage + "\r\n"},

		{"tree fork", Tree, `{"root":"branch_main","branches":[{"id":"branch_main","parentBranchId":null,"entryIds":["a","b","c"],"createdAt":"2026-05-14T10:00:00Z"},{"id":"branch_1","parentBranchId":"branch_main","entryIds":["a","b","d"],"createdAt":"2026-05-14T10:05:00Z","note":"x"}],"x":1}`},
		{"tree empty branch", Tree, `{"root":"b","branches":[{"id":"b","parentBranchId":null,"entryIds":[],"createdAt":"2026-05-14T10:00:00Z"}]}`},
	}
	for _, c := range cases {
		if got := c.check([]byte(c.doc)); got != nil {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}

func TestInvalid(t *testing.T) {
	// want is every problem, in order: the exact pointer and a part of the message.
	cases := []struct {
		name  string
		check func([]byte) []Problem
		doc   string
		want  []Problem
	}{
		{"meta updatedAt number", Meta,
			strings.Replace(seedMeta, `"2026-05-14T11:30:00Z"`, `17`, 1),
			[]Problem{{"/updatedAt", "got number, want string"}}},
		{"meta without formatVersion", Meta,
			`{"id":"s","createdAt":"2026-05-14T10:00:00Z","updatedAt":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"", "missing property 'formatVersion'"}}},
		{"meta createdAt yesterday", Meta,
			strings.Replace(seedMeta, `"2026-05-14T10:00:00Z"`, `"yesterday"`, 1),
			[]Problem{{"/createdAt", "'yesterday' is not valid date-time"}}},
		{"meta formatVersion two parts", Meta,
			strings.Replace(seedMeta, `"0.1.0"`, `"0.1"`, 1),
			[]Problem{{"/formatVersion", "does not match pattern"}}},
		{"meta formatVersion with suffix", Meta,
			strings.Replace(seedMeta, `"0.1.0"`, `"0.1.0-beta"`, 1),
			[]Problem{{"/formatVersion", "does not match pattern"}}},
		{"meta title number", Meta,
			strings.Replace(seedMeta, `"Refactor auth module"`, `7`, 1),
			[]Problem{{"/title", "got number, want string"}}},
		{"meta several", Meta,
			`{"id":1,"createdAt":"2026-05-14","updatedAt":"2026-05-14T10:00:00Z","formatVersion":"1.0.0","cwd":null}`,
			[]Problem{{"/createdAt", "not valid date-time"}, {"/cwd", "got null, want string"}, {"/id", "got number, want string"}}},
		{"meta array", Meta, `[]`, []Problem{{"", "got array, want object"}}},

		{"entry without id", Entry,
			`{"type":"message","role":"user","content":[],"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"", "missing property 'id'"}}},
		{"entry empty id", Entry,
			`{"id":"","type":"custom","customType":"x","data":1,"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/id", "minLength"}}},
		{"entry without type and timestamp", Entry,
			`{"id":"x"}`,
			[]Problem{{"", "missing properties 'type', 'timestamp'"}}},
		{"entry timestamp in ms", Entry,
			`{"id":"x","type":"custom","customType":"x","data":1,"timestamp":1747216800000}`,
			[]Problem{{"/timestamp", "got number, want string"}}},
		{"entry timestamp without zone", Entry,
			`{"id":"x","type":"custom","customType":"x","data":1,"timestamp":"2026-05-14T10:00:00"}`,
			[]Problem{{"/timestamp", "not valid date-time"}}},
		{"entry type number", Entry,
			`{"id":"x","type":5,"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/type", "got number, want string"}}},
		{"tool_result without callId", Entry,
			strings.Replace(seedResult, `"callId":"call_001",`, ``, 1),
			[]Problem{{"", "missing property 'callId'"}}},
		{"tool_result isError string", Entry,
			strings.Replace(seedResult, `"isError":false`, `"isError":"no"`, 1),
			[]Problem{{"/isError", "got string, want boolean"}}},
		{"tool_result content string", Entry,
			strings.Replace(seedResult, `[{"type":"text","text":"... file contents ..."}]`, `"... file contents ..."`, 1),
			[]Problem{{"/content", "got string, want array"}}},
		{"tool_call input string", Entry,
			strings.Replace(seedCall, `{"path":"src/auth.ts"}`, `"src/auth.ts"`, 1),
			[]Problem{{"/input", "got string, want object"}}},
		{"tool_call without toolName", Entry,
			strings.Replace(seedCall, `"toolName":"read",`, ``, 1),
			[]Problem{{"", "missing property 'toolName'"}}},
		{"message without role", Entry,
			strings.Replace(seedMessage, `"role":"user",`, ``, 1),
			[]Problem{{"", "missing property 'role'"}}},
		{"message text block without text", Entry,
			strings.Replace(seedMessage, `"text":"Refactor the auth module"`, `"value":"x"`, 1),
			[]Problem{{"/content/0", "missing property 'text'"}}},
		{"thinking block without thinking", Entry,
			`{"id":"m","type":"message","role":"assistant","content":[{"type":"thinking","text":"hmm"}],"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/content/0", "missing property 'thinking'"}}},
		{"image block without mimeType", Entry,
			`{"id":"m","type":"message","role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":"iVBORw0KGgo="}],"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/content/1", "missing property 'mimeType'"}}},
		{"block without type", Entry,
			`{"id":"m","type":"message","role":"user","content":[{"text":"see"},"plain"],"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/content/0", "missing property 'type'"}, {"/content/1", "got string, want object"}}},
		{"system without content", Entry,
			`{"id":"s","type":"system","timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"", "missing property 'content'"}}},
		{"model_change model number", Entry,
			`{"id":"mc","type":"model_change","provider":"openai","model":4,"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/model", "got number, want string"}}},
		{"label number", Entry,
			`{"id":"l","type":"label","targetId":"m","label":1,"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/label", "got number, want string"}}},
		{"custom without data", Entry,
			`{"id":"c","type":"custom","customType":"x","timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"", "missing property 'data'"}}},
		{"compaction without entryIds", Entry,
			`{"id":"cmp","type":"compaction","summary":"s","preservedEntryIds":[],"branchId":"b","timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"", "missing property 'entryIds'"}}},
		{"compaction empty entryIds", Entry,
			`{"id":"cmp","type":"compaction","summary":"s","entryIds":[],"preservedEntryIds":[],"branchId":"b","timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/entryIds", "minItems: got 0, want 1"}}},
		{"compaction preserved twice and bad extras", Entry,
			`{"id":"cmp","type":"compaction","summary":"s","entryIds":["a","r"],"preservedEntryIds":["r","r"],"branchId":"b","tokensBefore":"12","readFiles":[3],"timestamp":"2026-05-14T10:00:00Z"}`,
			[]Problem{{"/preservedEntryIds", "items at 0 and 1 are equal"}, {"/readFiles/0", "got number, want string"}, {"/tokensBefore", "got string, want number"}}},
		// The entry schema and the compaction schema both check the
		// timestamp: one problem is reported.
		{"compaction bad timestamp", Entry,
			`{"id":"cmp","type":"compaction","summary":"s","entryIds":["a"],"preservedEntryIds":[],"branchId":"b","timestamp":"now"}`,
			[]Problem{{"/timestamp", "'now' is not valid date-time"}}},

		{"tree branches object", Tree,
			`{"root":"main","branches":{"main":{"parentId":null}}}`,
			[]Problem{{"/branches", "got object, want array"}}},
		{"tree no branches", Tree,
			`{"root":"main","branches":[]}`,
			[]Problem{{"/branches", "minItems: got 0, want 1"}}},
		{"tree without root", Tree,
			strings.Replace(seedTree, `"root": "branch_main",`, ``, 1),
			[]Problem{{"", "missing property 'root'"}}},
		{"branch without createdAt", Tree,
			strings.Replace(seedTree, `,
      "createdAt": "2026-05-14T10:00:00Z"`, ``, 1),
			[]Problem{{"/branches/0", "missing property 'createdAt'"}}},
		{"branch duplicate entryIds", Tree,
			strings.Replace(seedTree, `"result_001", "msg_002"`, `"msg_001", "msg_002"`, 1),
			[]Problem{{"/branches/0/entryIds", "items at 0 and 2 are equal"}}},
		{"branch parent missing and number", Tree,
			`{"root":"a","branches":[{"id":"a","parentBranchId":null,"entryIds":[],"createdAt":"2026-05-14T10:00:00Z"},{"id":"b","entryIds":[1],"createdAt":"2026-05-14T10:00:00Z"},{"id":"c","parentBranchId":0,"entryIds":[],"createdAt":"2026-05-14T10:00:00Z"}]}`,
			[]Problem{{"/branches/1", "missing property 'parentBranchId'"}, {"/branches/1/entryIds/0", "got number, want string"}, {"/branches/2/parentBranchId", "got number, want null or string"}}},

		{"not JSON", Entry, `not json {`, []Problem{{"", "not JSON: invalid character 'o' in literal null (expecting 'u') at byte 2"}}},
		{"truncated line", Entry, seedMessage[:40], []Problem{{"", "not JSON: unexpected end of input"}}},
		{"empty line", Entry, ``, []Problem{{"", "not JSON: empty"}}},
		{"two values", Entry, seedMessage + seedMessage, []Problem{{"", "not JSON: "}}},
		{"trailing garbage", Meta, seedMeta + " x", []Problem{{"", "not JSON: "}}},
		{"array line", Entry, `[` + seedMessage + `]`, []Problem{{"", "got array, want object"}}},
	}
	for _, c := range cases {
		got := c.check([]byte(c.doc))
		if !matches(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// matches reports whether got has want's pointers in order, each message
// containing want's.
func matches(got, want []Problem) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Pointer != want[i].Pointer || !strings.Contains(got[i].Msg, want[i].Msg) {
			return false
		}
	}
	return true
}

// Messages quote the user's values: they stay on one line, free of
// controls, and short.
func TestMessagesAreSafe(t *testing.T) {
	long := strings.Repeat("9", 10000)
	cases := []struct {
		name  string
		check func([]byte) []Problem
		doc   string
	}{
		{"escape in a date", Meta, `{"id":"s","createdAt":"\u001b]0;pwned\u0007\n","updatedAt":"2026-05-14T10:00:00Z","formatVersion":"1.0.0"}`},
		{"bidi in a version", Meta, `{"id":"s","createdAt":"2026-05-14T10:00:00Z","updatedAt":"2026-05-14T10:00:00Z","formatVersion":"1.0.0\u202e"}`},
		{"long version", Meta, `{"id":"s","createdAt":"2026-05-14T10:00:00Z","updatedAt":"2026-05-14T10:00:00Z","formatVersion":"` + long + `"}`},
		{"control bytes in the line", Entry, "{\"id\":\"x\x1b[2J\"\x00}"},
		{"not UTF-8", Entry, "{\"id\":\"x\",\"type\":\"message\",\"role\":\"user\",\"content\":[],\"timestamp\":\"\xff\xfe\"}"},
	}
	for _, c := range cases {
		got := c.check([]byte(c.doc))
		if len(got) == 0 {
			t.Errorf("%s: no problem reported", c.name)
		}
		for _, p := range got {
			if len([]rune(p.Msg)) > maxMsg+1 {
				t.Errorf("%s: message of %d runes", c.name, len([]rune(p.Msg)))
			}
			for _, r := range p.Msg {
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || r == '\uFFFD' && !strings.Contains(c.doc, "\xff") {
					t.Errorf("%s: %+q holds %U", c.name, p.Msg, r)
				}
			}
		}
	}
}

func TestPointer(t *testing.T) {
	cases := []struct {
		tokens []string
		want   string
	}{
		{nil, ""},
		{[]string{""}, "/"},
		{[]string{"branches", "0", "entryIds"}, "/branches/0/entryIds"},
		{[]string{"a/b", "m~n", "~/"}, "/a~1b/m~0n/~0~1"},
	}
	for _, c := range cases {
		if got := pointer(c.tokens); got != c.want {
			t.Errorf("pointer(%q) = %q, want %q", c.tokens, got, c.want)
		}
	}
}

func TestFiles(t *testing.T) {
	fs := Files()
	if len(fs) != 4 {
		t.Fatalf("Files() has %d schemas, want 4", len(fs))
	}
	for _, n := range []string{"entry.json", "meta.json", "tree.json", "compaction.json"} {
		var doc struct {
			Schema string `json:"$schema"`
			ID     string `json:"$id"`
			AP     any    `json:"additionalProperties"`
		}
		if err := json.Unmarshal(fs[n], &doc); err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if doc.Schema != "https://json-schema.org/draft/2020-12/schema" || doc.ID != base+n {
			t.Errorf("%s: $schema %q, $id %q", n, doc.Schema, doc.ID)
		}
		if doc.AP != nil || strings.Contains(string(fs[n]), "additionalProperties") {
			t.Errorf("%s: forbids unknown members", n)
		}
	}
	fs["meta.json"][0] = 'x' // the caller's copy
	if Files()["meta.json"][0] != '{' || Meta([]byte(seedMeta)) != nil {
		t.Error("Files() shares its bytes")
	}
}

// Doctor may check several sessions at once (run with -race).
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if p := Entry([]byte(typical)); p != nil {
					t.Error(p)
				}
				if p := Tree([]byte(`{"root":"a","branches":{}}`)); len(p) != 1 {
					t.Error(p)
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkEntry(b *testing.B) {
	line := []byte(typical)
	if p := Entry(line); p != nil {
		b.Fatal(p)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		Entry(line)
	}
}
