package dhara05

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/internal/jsdate"
	"skein/model"
)

// The files of testdata/dhara05 (README.md there): sessions/ were written by
// Dhara 0.5.4's own SessionManager; damaged/ were made from them by hand.
const (
	fixtures   = "../../testdata/dhara05"
	linear     = fixtures + "/sessions/3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46.jsonl"
	branched   = fixtures + "/sessions/b7e0d5a2-1c3f-4d8e-9b6a-0f4e2c8d7a13.jsonl"
	forkedLast = fixtures + "/sessions/5a1e7c3b-2d9f-4b8a-a6e0-c4d3f2b1e097.jsonl"
	fresh      = fixtures + "/sessions/0c9d4e7f-6b2a-4f1e-8d3c-a5b6e9f0c2d8.jsonl"
	tmpFile    = fixtures + "/sessions/.tmp-3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46.jsonl"
	odd        = fixtures + "/damaged/odd.jsonl"
	structure  = fixtures + "/damaged/structure.jsonl"
	piFile     = fixtures + "/damaged/pi.jsonl"
)

// open is Open's session of the file at path, or the test's end.
var open = formattest.Reader(Open)

func ids(s *Session, idx []int) []string {
	return formattest.IDs(len(idx), func(k int) string { return s.Entries[idx[k]].ID })
}

func contextIDs(s *Session, ctx model.Context) []string {
	return formattest.IDs(len(ctx.Messages), func(k int) string { return s.Entries[ctx.Messages[k].Entry].ID })
}

func leafID(s *Session) string {
	if s.Leaf() < 0 {
		return ""
	}
	return s.Entries[s.Leaf()].ID
}

// diagLines are the lines of the diagnostics, sorted, warnings marked "w".
func diagLines(s *Session) []string { return formattest.DiagLines(s.Diagnostics) }

var itoa = strconv.Itoa

// The list record, the leaf, the context, the roots and the diagnostics of
// each file, as worked out by hand from what Dhara does with it (the
// context of the files Dhara can load is also what testdata/dhara05's
// oracle.mjs, Dhara's own import and buildMessages, prints).
func TestFixtures(t *testing.T) {
	formattest.Fixtures(t, "dhara-0.5", []formattest.Fixture{
		{Name: "linear", Path: linear,
			List: formattest.Record{ID: "3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46", Cwd: "/home/ana/src/skein", Created: "2026-05-17T09:12:03.120Z", Modified: "2026-05-17T09:13:19.650Z",
				FirstMessage: "What does main.go do? Keep it short.", Model: "claude-sonnet-4-20250514", MessageCount: 9, Entries: 9, Branches: 1},
			Leaf:    "mp9k57oi-0009",
			Context: []string{"mp9k3p1a-0001", "mp9k3qt6-0002", "mp9k3qua-0003", "mp9k3sm6-0004", "mp9k3sna-0005", "mp9k3soe-0006", "mp9k3uga-0007", "mp9k55wm-0008", "mp9k57oi-0009"},
			Roots:   []string{"mp9k3p1a-0001"}},
		{Name: "branched", Path: branched,
			List: formattest.Record{ID: "b7e0d5a2-1c3f-4d8e-9b6a-0f4e2c8d7a13", Cwd: "/home/ana/src/skein", Created: "2026-05-17T09:13:19.650Z", Modified: "2026-05-17T09:15:08.080Z",
				FirstMessage: "Write a Go function that reverses a slice.", Model: "deepseek-chat", MessageCount: 9, Entries: 11, Branches: 3},
			Leaf: "mp9k7jcg-000k", Context: []string{"mp9k58ga-000a", "mp9k7jcg-000k"},
			Roots: []string{"mp9k58ga-000a"}},
		{Name: "forked-last", Path: forkedLast,
			List: formattest.Record{ID: "5a1e7c3b-2d9f-4b8a-a6e0-c4d3f2b1e097", Cwd: "/srv/app", Created: "2026-05-18T14:02:00.500Z", Modified: "2026-05-18T14:02:11.700Z",
				FirstMessage: "Name a prime.", Model: "gpt-4o", MessageCount: 4, Entries: 5, Branches: 2},
			Leaf: "mpb9wmxg-0005", Context: []string{"mpb9wbw8-0001", "mpb9wbz0-0002", "mpb9wcwc-0003"},
			Roots: []string{"mpb9wbw8-0001"}},
		{Name: "fresh", Path: fresh,
			List: formattest.Record{ID: "0c9d4e7f-6b2a-4f1e-8d3c-a5b6e9f0c2d8", Cwd: "/tmp/empty", Created: "2026-05-17T10:15:08.080Z", Modified: "2026-05-17T10:15:08.080Z",
				FirstMessage: "(no messages)"},
			Leaf: "", Context: []string{}, Roots: []string{}},
		{Name: "odd", Path: odd,
			List: formattest.Record{ID: "3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46", Cwd: "/home/ana/src/skein", Created: "2026-05-17T09:12:03.120Z", Modified: "2026-05-17T09:12:13.510Z",
				FirstMessage: "What does main.go do? Keep it short.", Model: "claude-sonnet-4-20250514", MessageCount: 4, Entries: 4, Branches: 2},
			Leaf: "mp9k3sna-0005", Context: []string{"mp9k3sm6-0004", "mp9k3sna-0005"},
			Roots: []string{"mp9k3p1a-0001", "mp9k3sm6-0004"},
			// 0: the file is not named after its id; 6: cut short; 7, 8:
			// not objects; 9: its parent was on line 6; 11: partial.
			Diags: []string{"0w", "11", "6", "7", "8", "9"}},
		{Name: "structure", Path: structure,
			List: formattest.Record{ID: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a", Cwd: "/work/elsewhere", Created: "2026-05-19T08:00:00.000Z", Modified: "2026-05-19T08:00:15.000Z",
				FirstMessage: "First question", Model: "claude-opus-4-20250514", MessageCount: 10, Entries: 12, Branches: 6},
			Leaf:    "mpd1a00e-000f",
			Context: []string{"mpd1a000-0001", "mpd1a001-0002", "mpd1a005-0006", "mpd1a007-0008", "mpd1a008-0009", "mpd1a00e-000f"},
			Roots:   []string{"mpd1a000-0001", "mpd1a009-000a", "mpd1a00b-000c", "mpd1a00c-000d"},
			// 0: not named after its id; 4: no id; 8: a repeated id; 11: an
			// orphan; 13: the cycle cut; 14: a number for parentId; 15: a
			// second meta line.
			Diags: []string{"0w", "11", "13", "14", "15w", "4", "8w"}},
	}, func(t *testing.T, path string) formattest.Found {
		s := open(t, path)
		ctx := s.BuildContext(s.Leaf())
		context := contextIDs(s, ctx)
		if h := contextIDs(s, dom(s).BuildHistory(s.Leaf())); !slices.Equal(h, context) {
			t.Errorf("history %q, want the context %q", h, context)
		}
		// Every context is the path's messages, and its entries the path.
		if len(ctx.Entries) != len(ctx.Path) {
			t.Errorf("%d projected entries for a path of %d", len(ctx.Entries), len(ctx.Path))
		}
		if dom(s).PlanCompaction(s.Leaf(), 0) != nil || !strings.Contains(dom(s).NothingToCompact(s.Leaf(), 0), "read-only") {
			t.Error("a Dhara 0.5 session must not be compacted")
		}
		return formattest.Found{Info: s.Info(path, 1), Leaf: leafID(s), Context: context,
			Roots: ids(s, s.Roots()), Diags: diagLines(s), Diagnostics: s.Diagnostics}
	})
}

func TestParseErrors(t *testing.T) {
	formattest.NotSession(t, Parse, ErrNotSession, "", "\n\n  \r\n", "\xef\xbb\xbf", `{"type":"session","id":"x"}`, "not json\n[1]")
	pi, _ := os.ReadFile(piFile)
	if _, err := Parse(pi); !errors.Is(err, ErrNotSession) {
		t.Errorf("a pi file: %v", err)
	}
	if _, err := Open(piFile); !errors.Is(err, ErrNotSession) {
		t.Errorf("Open of a pi file: %v", err)
	}
	formattest.OpenRefuses(t, Open, fixtures)
	// An entry line alone is a session with no meta line, and says so.
	formattest.OneRecord(t, Parse, `{"type":"entry","id":"a","parentId":null,"role":"user","content":[{"type":"text","text":"hi"}]}`)
}

func TestSniff(t *testing.T) {
	lin, _ := os.ReadFile(linear)
	oddData, _ := os.ReadFile(odd)
	pi, _ := os.ReadFile(piFile)
	formattest.Sniffs(t, "Sniff", Sniff, []string{
		string(lin),
		string(lin[:40]), // the meta line cut off by the head's end
		string(oddData[:64]),
		"\n\r\n  " + string(lin),
		`{ "type" : "meta" }`,
	}, []string{
		`{"type":"metadata","x":1}`,
		`{"type":"metadata",`,
		`{"type":"entry","id":"a"}` + "\n" + string(lin),
		string(pi),
		"",
		"\n\n",
		`{"type":"met`,
		"[1,2]",
	})
}

func TestSessionFileNames(t *testing.T) {
	formattest.Answers(t, IsSessionFileName, map[string]bool{
		"3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46.jsonl":      true,
		".tmp-3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46.jsonl": false,
		"meta.json": false, ".jsonl": false, "x.jsonl.bak": false,
	})
	// The file a killed save left is not a session Dhara lists, but it
	// reads: the lines before the cut.
	s := open(t, tmpFile)
	if s.Len() == 0 || s.Meta.SessionID != "3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46" {
		t.Errorf("the .tmp file: %d entries, meta %+v", s.Len(), s.Meta)
	}
}

func TestMessages(t *testing.T) {
	s := open(t, linear)
	msg := func(id string) model.Message {
		i, ok := s.Index(id)
		if !ok {
			t.Fatalf("no entry %s", id)
		}
		return s.Message(model.ContextMessage{Entry: i})
	}
	// Two calls in one assistant entry, no content of its own.
	m := msg("mp9k3sm6-0004")
	calls := m.ToolCalls()
	if m.Role != model.RoleAssistant || len(m.Blocks) != 2 || len(calls) != 2 ||
		calls[0].ID != "toolu_01Bz7KmNq2Ts" || calls[0].Name != "bash" ||
		string(calls[0].Input) != `{"command":"go build ./... && echo ok"}` ||
		calls[1].ID != "toolu_01Wd4LcYp9Fe" || calls[1].Name != "read" || string(calls[1].Input) != `{"path":"run.go","offset":1,"limit":40}` {
		t.Errorf("calls: %+v", m)
	}
	if m.Model != "claude-sonnet-4-20250514" || m.Provider != "anthropic" || m.Usage == nil || m.Usage.Input != 2011 || m.Usage.Output != 97 {
		t.Errorf("model and usage: %q %q %+v", m.Model, m.Provider, m.Usage)
	}
	// A failed result: its call and tool.
	r := msg("mp9k3soe-0006")
	if r.Role != model.RoleToolResult || r.ToolCallID != "toolu_01Wd4LcYp9Fe" || r.ToolName != "read" || !r.IsError ||
		!strings.HasPrefix(r.Text(""), "File not found: run.go.") {
		t.Errorf("result: %+v", r)
	}
	if r := msg("mp9k3sna-0005"); r.IsError || r.ToolName != "bash" || r.Text("") != "ok" {
		t.Errorf("result: %+v", r)
	}
	pairs := model.PairTools([]model.Message{msg("mp9k3sm6-0004"), msg("mp9k3sna-0005"), msg("mp9k3soe-0006")})
	if pairs["toolu_01Bz7KmNq2Ts"] != 1 || pairs["toolu_01Wd4LcYp9Fe"] != 2 {
		t.Errorf("pairs %v", pairs)
	}
	// reasoningContent is a thinking block before the content.
	a := msg("mp9k3uga-0007")
	if len(a.Blocks) != 2 || a.Blocks[0].Type != model.BlockThinking || a.Blocks[0].Text != "The user wants brevity. run is defined elsewhere." ||
		a.Blocks[1].Type != model.BlockText {
		t.Errorf("reasoning: %+v", a.Blocks)
	}
	// A thinking block's text is in "text".
	if b := msg("mp9k57oi-0009").Blocks; len(b) != 2 || b[0].Type != model.BlockThinking || b[0].Text != "Probably cli.go." {
		t.Errorf("thinking: %+v", b)
	}
	if h := s.MessageHead(model.ContextMessage{Entry: 3}); h.Blocks != nil || h.Usage == nil || !h.HasTime {
		t.Errorf("head: %+v", h)
	}
	if got, want := msg("mp9k3p1a-0001").Time, jsdate.Parse("2026-05-17T09:12:08.830Z"); got != want {
		t.Errorf("time %v, want %v", got, want)
	}

	// An image and a file block; the meta's thinking level and model.
	f := open(t, forkedLast)
	u := f.Message(model.ContextMessage{Entry: 1})
	if len(u.Blocks) != 3 || u.Blocks[1].Type != model.BlockImage || u.Blocks[1].MimeType != "image/png" || u.Blocks[1].DataLen != 12 ||
		u.Blocks[2].Type != model.BlockOther || u.Blocks[2].Name != "file" || u.Blocks[2].Text != "/srv/app/notes.md" {
		t.Errorf("blocks: %+v", u.Blocks)
	}
	if sys := f.Message(model.ContextMessage{Entry: 0}); sys.Role != model.RoleSystem || sys.Text("") != "You are terse." {
		t.Errorf("system: %+v", sys)
	}
	ctx := f.BuildContext(f.Leaf())
	if ctx.Thinking() != "low" || ctx.Model == nil || ctx.Model.Name() != "openai/gpt-4o" || ctx.Compaction != -1 {
		t.Errorf("context model %+v, thinking %q", ctx.Model, ctx.Thinking())
	}
	if !slices.Equal(f.Meta.Tags, []string{"demo"}) {
		t.Errorf("tags %q", f.Meta.Tags)
	}

	// What a damaged file's lines still give.
	d := open(t, structure)
	dm := func(id string) model.Message {
		i, _ := d.Index(id)
		return d.Message(model.ContextMessage{Entry: i})
	}
	if m := dm("mpd1a001-0002"); m.Text("") != "A plain string, as the spec's example writes content" || m.Model != "claude-opus-4-20250514" {
		t.Errorf("string content: %+v", m)
	}
	m0008 := dm("mpd1a007-0008")
	calls = m0008.ToolCalls()
	if len(calls) != 2 || calls[0].ID != "call_9" || calls[0].Name != "grep" || string(calls[0].Input) != `{"pattern":"TODO"}` ||
		calls[1].ID != "call_10" || calls[1].Name != "ls" || string(calls[1].Input) != `{}` {
		t.Errorf("normalized calls: %+v", calls)
	}
	if m := dm("mpd1a008-0009"); m.ToolName != "grep" || m.ToolCallID != "call_9" {
		t.Errorf("a result's tool from its call: %+v", m)
	}
	// The repeated id: the later line, in the first one's place.
	edited := dm("mpd1a005-0006")
	if i, _ := d.Index("mpd1a005-0006"); i != 4 || d.Entries[i].Line != 8 || edited.Text("") != "Second question, edited" {
		t.Errorf("repeated id: index %d line %d", i, d.Entries[i].Line)
	}
	// The last meta line wins whole: no model.
	if d.Meta.Cwd != "/work/elsewhere" || d.Meta.ModelID != "" || d.BuildContext(d.Leaf()).Model != nil {
		t.Errorf("meta %+v", d.Meta)
	}
	for id, want := range map[string]model.Entry{
		"mpd1a003-0004": {Kind: model.EntryOther, Type: "entry", ID: "mpd1a003-0004", ParentID: "mpd1a001-0002"},
		"mpd1a004-0005": {Kind: model.EntryOther, Type: "note", ID: "mpd1a004-0005", ParentID: "mpd1a001-0002"},
		"mpd1a00b-000c": {Kind: model.EntryMessage, Type: "entry", Role: model.RoleAssistant, ID: "mpd1a00b-000c"},
		"mpd1a00a-000b": {Kind: model.EntryMessage, Type: "entry", Role: model.RoleUser, ID: "mpd1a00a-000b", ParentID: "mpd1a00b-000c"},
	} {
		i, _ := d.Index(id)
		got := d.Entry(i)
		got.Timestamp, got.Line = "", 0
		if got != want {
			t.Errorf("entry %s: %+v, want %+v", id, got, want)
		}
	}
}

func TestTree(t *testing.T) {
	s := open(t, branched)
	var buf bytes.Buffer
	if err := dom(s).WriteTreeJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want := `[{"id":"mp9k58ga-000a","type":"entry","role":"user","label":null,"children":[` +
		`{"id":"mp9k5aue-000b","type":"entry","role":"assistant","label":null,"children":[` +
		`{"id":"mp9k5q9y-000c","type":"entry","role":"user","label":null,"children":[{"id":"mp9k5s7e-000d","type":"entry","role":"assistant","label":null,"children":[]}]},` +
		`{"id":"mp9k6fcq-000e","type":"branch","role":null,"label":"generics","children":[` +
		`{"id":"mp9k6j7m-000f","type":"entry","role":"user","label":null,"children":[` +
		`{"id":"mp9k6kr6-000g","type":"entry","role":"assistant","label":null,"children":[` +
		`{"id":"mp9k6ks0-000h","type":"entry","role":"toolResult","label":null,"children":[` +
		`{"id":"mp9k6m60-000i","type":"entry","role":"assistant","label":null,"children":[]}]}]}]}]}]},` +
		`{"id":"mp9k7h14-000j","type":"branch","role":null,"label":null,"children":[{"id":"mp9k7jcg-000k","type":"entry","role":"assistant","label":null,"children":[]}]}]}]`
	if buf.String() != want {
		t.Errorf("tree JSON\n got %s\nwant %s", buf.String(), want)
	}
	// The context at the other tip: through the branch marker, which
	// gives no message.
	tip, _ := s.Index("mp9k6m60-000i")
	ctx := s.BuildContext(tip)
	if c := contextIDs(s, ctx); !slices.Equal(c, []string{"mp9k58ga-000a", "mp9k5aue-000b", "mp9k6j7m-000f", "mp9k6kr6-000g", "mp9k6ks0-000h", "mp9k6m60-000i"}) {
		t.Errorf("context at the generics tip: %q", c)
	}
	if len(ctx.Path) != 7 || ctx.Entries[2].N != 0 || s.Entries[ctx.Entries[2].Entry].Type != "branch" {
		t.Errorf("path %v entries %+v", ctx.Path, ctx.Entries)
	}
	if l, ok := s.Label(4); !ok || l != "generics" {
		t.Errorf("label %q %v", l, ok)
	}
	if _, ok := s.Label(9); ok {
		t.Error("an unlabeled branch has a label")
	}

	text := func(s *Session, id, home string) string {
		i, _ := s.Index(id)
		var b strings.Builder
		for _, p := range s.TreeText(i, home) {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	lin := open(t, linear)
	f := open(t, forkedLast)
	d := open(t, structure)
	for _, c := range []struct {
		s        *Session
		id, want string
	}{
		{lin, "mp9k3p1a-0001", "user: What does main.go do? Keep it short."},
		{lin, "mp9k3qt6-0002", "assistant: Let me read it. → read main.go"},
		{lin, "mp9k3sm6-0004", "assistant: → bash go build ./... && echo ok, → read run.go"},
		{lin, "mp9k3qua-0003", "← package main"},
		{lin, "mp9k3soe-0006", "← error: File not found: run.go. ENOENT: no such file or directory, open '~/src/skein/run.go'"},
		{s, "mp9k6fcq-000e", "⎇ branch (user_fork)"},
		{f, "mpb9wbw8-0001", "[system]: You are terse."},
		{d, "mpd1a003-0004", "[entry: role critic]"},
		{d, "mpd1a004-0005", "[note]"},
	} {
		if c.id == "mp9k3soe-0006" {
			// home shortens only a call's argument; a result is as written.
			c.want = "← error: File not found: run.go. ENOENT: no such file or directory, open '/home/ana/src/skein/run.go'"
		}
		if got := text(c.s, c.id, "/home/ana"); got != c.want {
			t.Errorf("tree text of %s: %q, want %q", c.id, got, c.want)
		}
	}
	// The tree view lays it out; the marker rows show.
	v := s.Domain(model.SessionInfo{}).NewTreeView(s.Leaf(), model.FilterDefault)
	if len(v.Rows) != 11 {
		t.Errorf("%d rows, want 11", len(v.Rows))
	}
}

func TestContextJSON(t *testing.T) {
	s := open(t, branched)
	var buf bytes.Buffer
	if err := dom(s).WriteContextJSON(&buf, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(formattest.ReadFile(t, branched)), "\n")
	want := `{"messages":[` + lines[1] + `,` + lines[11] + `]}` + "\n"
	if buf.String() != want {
		t.Errorf("context JSON\n got %s\nwant %s", buf.String(), want)
	}
	buf.Reset()
	if err := dom(s).WriteContextJSON(&buf, s.BuildContext(-1)); err != nil || buf.String() != `{"messages":[]}`+"\n" {
		t.Errorf("empty context: %q %v", buf.String(), err)
	}
	// The odd file's padded CRLF lines are written without their blanks.
	o := open(t, odd)
	buf.Reset()
	i, _ := o.Index("mp9k3qt6-0002")
	_ = dom(o).WriteContextJSON(&buf, o.BuildContext(i))
	if !strings.HasPrefix(buf.String(), `{"messages":[{"type":"entry","id":"mp9k3p1a-0001"`) || strings.ContainsAny(buf.String(), "\r\t\ufeff") {
		t.Errorf("odd context JSON %q", buf.String())
	}
}

func TestStats(t *testing.T) {
	type counts struct {
		Messages, User, Assistant, Results, Calls, Leaves, Labels int
		In, Out                                                   float64
		Models                                                    string
		Tools                                                     string
	}
	for _, c := range []struct {
		path   string
		want   counts
		active time.Duration
		points int
	}{
		{linear, counts{9, 2, 4, 3, 3, 1, 0, 6131, 190, "anthropic/claude-sonnet-4-20250514", "read:2 bash:1"}, 70820 * time.Millisecond, 4},
		{branched, counts{9, 3, 5, 1, 1, 3, 1, 780, 146, "deepseek/deepseek-chat", "write:1"}, 0, 1},
		{forkedLast, counts{4, 1, 2, 0, 0, 2, 1, 0, 0, "openai/gpt-4o", ""}, 0, 1},
		{fresh, counts{0, 0, 0, 0, 0, 0, 0, 0, 0, "", ""}, 0, 0},
		{structure, counts{10, 5, 4, 1, 2, 6, 0, 0, 0, "anthropic/claude-opus-4-20250514", "grep:1 ls:1"}, 0, 3},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			s := open(t, c.path)
			st := s.Stats()
			var tools []string
			for _, tc := range st.Tools {
				tools = append(tools, tc.Name+":"+itoa(tc.Calls))
			}
			got := counts{st.Messages, st.UserMessages, st.AssistantMessages, st.ToolResults, st.ToolCalls, st.Leaves, st.Labels,
				st.TokensIn, st.TokensOut, strings.Join(st.Models, " "), strings.Join(tools, " ")}
			if got != c.want {
				t.Errorf("stats\n got %+v\nwant %+v", got, c.want)
			}
			if c.active > 0 && st.Active != c.active {
				t.Errorf("active %v, want %v", st.Active, c.active)
			}
			if len(st.Context) != c.points {
				t.Errorf("%d context points, want %d: %+v", len(st.Context), c.points, st.Context)
			}
			if s.Len() == 0 != math.IsNaN(st.First) {
				t.Errorf("first %v for %d entries", st.First, s.Len())
			}
			if st.Compactions != 0 || st.Incomplete != 0 {
				t.Errorf("compactions %d incomplete %d", st.Compactions, st.Incomplete)
			}
		})
	}
	st := open(t, linear).Stats()
	if len(st.ByModel) != 1 || st.ByModel[0].Key != "anthropic/claude-sonnet-4-20250514" || st.ByModel[0].TokensIn != 6131 {
		t.Errorf("by model %+v", st.ByModel)
	}
	if last := st.Context[len(st.Context)-1]; !last.Estimated || st.Context[2].Tokens != 2290+41 || st.Context[2].Estimated {
		t.Errorf("context series %+v", st.Context)
	}
}

// A session with a long chain, a wide fan and a long cycle reads in linear
// time and does not recurse.
func TestLarge(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"meta","sessionId":"big"}` + "\n")
	const n = 50000
	for i := range n {
		parent := "null"
		if i > 0 {
			parent = `"e` + itoa(i-1) + `"`
		}
		if i == 0 {
			parent = `"e` + itoa(n-1) + `"` // the whole chain is one cycle
		}
		b.WriteString(`{"type":"entry","id":"e` + itoa(i) + `","parentId":` + parent + `,"role":"user","content":[]}` + "\n")
	}
	s, err := Parse(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// The walk from e0 closes the cycle at e1, which becomes the root.
	if s.Leaf() != n-1 || len(s.BuildContext(s.Leaf()).Messages) != n-1 || !slices.Equal(s.Roots(), []int{1}) || len(s.Diagnostics) != 1 {
		t.Errorf("leaf %d, roots %v, %v", s.Leaf(), s.Roots(), s.Diagnostics)
	}
	if err := dom(s).WriteTreeJSON(&bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
}

// dom is the session as the domain sees it: what answers the methods a
// format leaves to model.Session's defaults.
func dom(s *Session) *model.Session { return s.Domain(model.SessionInfo{}) }
