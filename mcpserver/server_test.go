package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"skein/internal/synth"
	"skein/model"
	"skein/store"
)

const webapp = "../testdata/pi/store/--home-dev-webapp--"

// copyStore copies the webapp fixtures into a temporary store, so that a
// label written lands in a copy.
func copyStore(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	if err := synth.CopyTree(webapp, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// connect starts a server over roots and a client on it, in memory.
func connect(t *testing.T, cfg Config) *mcp.ClientSession {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	if cfg.IndexDir == "" {
		cfg.IndexDir = filepath.Join(t.TempDir(), "text")
	}
	srv := New(cfg)
	t.Cleanup(srv.Close)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// size is the length of a result's text and of its structured output as
// JSON.
func size(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (text, structured int) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", tool, err, res)
	}
	for _, c := range res.Content {
		text += len(c.(*mcp.TextContent).Text)
	}
	data, _ := json.Marshal(res.StructuredContent)
	return text, len(data)
}

// call calls a tool; it returns the result's text, its structured output
// decoded into out, and whether it is an error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: %v in %s", tool, err, data)
		}
	}
	return text.String(), res.IsError
}

// Every tool is listed with its name, and every argument of each has a
// description.
func TestToolsAndTheirSchemas(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		data, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		json.Unmarshal(data, &schema)
		if len(schema.Properties) == 0 {
			t.Errorf("%s has no arguments in its schema: %s", tool.Name, data)
		}
		for name, p := range schema.Properties {
			if p.Description == "" {
				t.Errorf("%s's %s has no description", tool.Name, name)
			}
		}
		if tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s has no output schema or description", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"label_entry", "list_sessions", "read_session", "search_sessions", "session_stats"}; !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
}

func TestSearchSessions(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}})
	var out SearchOutput
	text, isErr := call(t, cs, "search_sessions", map[string]any{"query": "redis"}, &out)
	if isErr || len(out.Hits) < 2 {
		t.Fatalf("%v %q %+v", isErr, text, out)
	}
	h := out.Hits[0]
	if h.SessionID == "" || h.EntryID == "" || h.Agent != "pi" || h.Project != "/home/dev/webapp" || h.Time == "" || h.Title == "" || len(h.Matches) == 0 {
		t.Errorf("hit %+v", h)
	}
	for _, m := range h.Matches {
		if got := strings.ToLower(h.Snippet[m[0]:m[1]]); got != "redis" {
			t.Errorf("a match is %q", got)
		}
	}
	if !strings.Contains(text, h.EntryID) || !strings.Contains(text, h.SessionID) {
		t.Errorf("the text does not name the hit: %q", text)
	}
	// A page of one, then the next: the second hit, then on to the end.
	var seen []string
	cursor := ""
	for range 50 {
		var page SearchOutput
		args := map[string]any{"query": "redis", "limit": 1}
		if cursor != "" {
			args["cursor"] = cursor
		}
		if _, isErr := call(t, cs, "search_sessions", args, &page); isErr || len(page.Hits) != 1 {
			t.Fatalf("page %d: %+v", len(seen), page)
		}
		seen = append(seen, page.Hits[0].SessionID+"/"+page.Hits[0].EntryID)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	var all SearchOutput
	call(t, cs, "search_sessions", map[string]any{"query": "redis", "limit": 100}, &all)
	if len(seen) != len(all.Hits) || seen[1] != all.Hits[1].SessionID+"/"+all.Hits[1].EntryID {
		t.Errorf("paged one by one: %d hits, at once %d", len(seen), len(all.Hits))
	}
	// Filters: a project of none, a period of none.
	call(t, cs, "search_sessions", map[string]any{"query": "redis", "project": "/elsewhere"}, &out)
	if len(out.Hits) != 0 {
		t.Errorf("project /elsewhere: %d hits", len(out.Hits))
	}
	call(t, cs, "search_sessions", map[string]any{"query": "redis", "until": "2000-01-01"}, &out)
	if len(out.Hits) != 0 {
		t.Errorf("until 2000: %d hits", len(out.Hits))
	}
	call(t, cs, "search_sessions", map[string]any{"query": "redis", "since": "2026-03-03", "until": "2026-03-04"}, &out)
	if len(out.Hits) == 0 {
		t.Errorf("on 2026-03-03: no hits")
	}
}

func TestListSessions(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}})
	var out ListOutput
	text, _ := call(t, cs, "list_sessions", nil, &out)
	if out.Total != 3 || len(out.Sessions) != 3 || out.NextCursor != "" {
		t.Fatalf("%+v", out)
	}
	if out.Sessions[0].Modified < out.Sessions[1].Modified || !strings.Contains(text, out.Sessions[0].ID) {
		t.Errorf("not newest first, or the text lacks the id: %q", text)
	}
	var page ListOutput
	call(t, cs, "list_sessions", map[string]any{"limit": 2, "sort": "created"}, &page)
	if len(page.Sessions) != 2 || page.NextCursor == "" || page.Total != 3 {
		t.Fatalf("limit 2: %+v", page)
	}
	var second ListOutput
	call(t, cs, "list_sessions", map[string]any{"limit": 2, "sort": "created", "cursor": page.NextCursor}, &second)
	if len(second.Sessions) != 1 || second.NextCursor != "" || second.Sessions[0].ID == page.Sessions[1].ID {
		t.Errorf("the second page: %+v", second)
	}
	for _, f := range []map[string]any{{"agent": "codex"}, {"project": "/home/dev/other"}, {"since": "2030-01-01"}} {
		call(t, cs, "list_sessions", f, &out)
		if out.Total != 0 {
			t.Errorf("%v: %d sessions", f, out.Total)
		}
	}
	call(t, cs, "list_sessions", map[string]any{"agent": "PI", "project": "/home/dev"}, &out)
	if out.Total != 3 {
		t.Errorf("agent PI under /home/dev: %d sessions", out.Total)
	}
}

// A long session is read to its end a page at a time: every page within
// its budget, every message once and whole when its pieces are put back.
func TestReadSessionPagesToTheEnd(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "long.jsonl")
	if err := synth.Session(path, "/home/dev/long", 600<<10, time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), 3); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Config{Roots: []string{dir}})
	sess, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []MessageItem
	for _, i := range sess.Path(sess.Leaf()) {
		if isMessage(sess.Entry(i).Kind) {
			want = append(want, messageItem(sess, i, false))
		}
	}
	const budget = 3000 // characters of text, and of the structured output's JSON
	var got []MessageItem
	cursor, pages := "", 0
	for {
		args := map[string]any{"session": path, "max_chars": budget}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var page ReadOutput
		text, isErr := call(t, cs, "read_session", args, &page)
		if isErr {
			t.Fatalf("page %d: %s", pages, text)
		}
		pages++
		if tl, sl := size(t, cs, "read_session", args); tl > budget || sl > budget {
			t.Fatalf("page %d: %d characters of text, %d of JSON, over a budget of %d", pages, tl, sl, budget)
		}
		if len(page.Messages) == 0 || page.Total != len(want) {
			t.Fatalf("page %d: %d messages of %d", pages, len(page.Messages), page.Total)
		}
		for _, m := range page.Messages {
			if m.Continued {
				got[len(got)-1].Text += m.Text
				continue
			}
			got = append(got, m)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
		if pages > 10000 {
			t.Fatal("no end")
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d messages read, want %d", len(got), len(want))
	}
	for i := range want {
		g := got[i]
		g.Cut = false
		if g != want[i] {
			t.Fatalf("message %d: %+v, want %+v", i, g, want[i])
		}
	}
	if pages < 20 {
		t.Errorf("%d pages only", pages)
	}
}

func TestReadAroundAnEntry(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}})
	var all ReadOutput
	call(t, cs, "read_session", map[string]any{"session": "019cadc6"}, &all)
	if all.Total < 5 || all.SessionID != "019cadc6-9a80-7550-a789-649ae3e60458" || all.Agent != "pi" {
		t.Fatalf("%+v", all)
	}
	mid := all.Messages[3].EntryID
	var around ReadOutput
	call(t, cs, "read_session", map[string]any{"session": "019cadc6", "entry": mid, "before": 1, "after": 1}, &around)
	var ids []string
	for _, m := range around.Messages {
		ids = append(ids, m.EntryID)
	}
	if want := []string{all.Messages[2].EntryID, mid, all.Messages[4].EntryID}; !slices.Equal(ids, want) {
		t.Errorf("around %s: %q, want %q", mid, ids, want)
	}
	var upTo ReadOutput
	call(t, cs, "read_session", map[string]any{"session": "019cadc6", "entry": mid}, &upTo)
	if upTo.Total != 4 || upTo.Messages[3].EntryID != mid {
		t.Errorf("the path to %s: %+v", mid, upTo.Messages)
	}
}

// Every tool holds its budget, in its text and in its structured output,
// and goes on with a cursor.
func TestBudgetsHeld(t *testing.T) {
	cs := connect(t, Config{Roots: []string{"../testdata/pi/store"}})
	for _, c := range []struct {
		tool    string
		args    map[string]any
		budgets []int
	}{
		{"search_sessions", map[string]any{"query": "the", "limit": 100}, []int{500, 1200}},
		{"list_sessions", map[string]any{"limit": 500}, []int{500, 1200}},
		{"session_stats", nil, []int{2500, 3000}},
		{"read_session", map[string]any{"session": "019cadc6", "full": true}, []int{500, 1200}},
	} {
		for _, budget := range c.budgets {
			args := map[string]any{"max_chars": budget}
			for k, v := range c.args {
				args[k] = v
			}
			tl, sl := size(t, cs, c.tool, args)
			if tl > budget || sl > budget {
				t.Errorf("%s with max_chars %d: %d characters of text, %d of JSON", c.tool, budget, tl, sl)
			}
			var page struct {
				NextCursor string `json:"next_cursor"`
			}
			call(t, cs, c.tool, args, &page)
			if page.NextCursor == "" {
				t.Errorf("%s with max_chars %d: no next page", c.tool, budget)
			}
		}
	}
}

// A bad argument is a tool error whose sentence names it; the server
// answers the next call.
func TestBadArguments(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}})
	cases := []struct {
		tool string
		args map[string]any
		arg  string
	}{
		{"search_sessions", map[string]any{"query": ""}, "query"},
		{"search_sessions", map[string]any{"query": "re:("}, "query"},
		{"search_sessions", map[string]any{"query": "x", "since": "last tuesday"}, "since"},
		{"search_sessions", map[string]any{"query": "x", "limit": 1000}, "limit"},
		{"search_sessions", map[string]any{"query": "x", "max_chars": 5}, "max_chars"},
		{"read_session", map[string]any{"session": "019cb3ff", "max_chars": 499}, "max_chars"},
		{"search_sessions", map[string]any{"query": "x", "cursor": "garbage!"}, "cursor"},
		{"list_sessions", map[string]any{"sort": "size"}, "sort"},
		{"list_sessions", map[string]any{"agent": "nobody"}, "agent"},
		{"list_sessions", map[string]any{"since": "2026-02-01", "until": "2026-01-01"}, "until"},
		{"read_session", map[string]any{"session": "nope"}, "session"},
		{"read_session", map[string]any{"session": ""}, "session"},
		{"read_session", map[string]any{"session": "019cb3ff", "entry": "zzzz"}, "entry"},
		{"read_session", map[string]any{"session": "019cb3ff", "before": 2}, "before"},
		{"read_session", map[string]any{"session": "019cb3ff", "entry": "c5112f12", "after": -1}, "after"},
		{"session_stats", map[string]any{"by": "week"}, "by"},
		{"session_stats", map[string]any{"max_chars": 500}, "max_chars"},
		{"session_stats", map[string]any{"session": "nope"}, "session"},
		{"label_entry", map[string]any{"session": "019cb3ff", "entry": "zzzz", "label": "x"}, "entry"},
		{"label_entry", map[string]any{"session": "019cb3ff", "entry": "c5112f12", "label": "a\x1b[31mb"}, "label"},
	}
	for _, c := range cases {
		text, isErr := call(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.HasPrefix(text, c.arg+": ") || strings.Count(text, "\n") > 0 {
			t.Errorf("%s %v: %v %q, want an error naming %s", c.tool, c.args, isErr, text, c.arg)
		}
	}
	// A cursor of one call handed to another is refused.
	var page ListOutput
	call(t, cs, "list_sessions", map[string]any{"limit": 1}, &page)
	if text, isErr := call(t, cs, "list_sessions", map[string]any{"limit": 1, "sort": "messages", "cursor": page.NextCursor}, nil); !isErr || !strings.HasPrefix(text, "cursor: ") {
		t.Errorf("a cursor of another sort: %v %q", isErr, text)
	}
	if _, isErr := call(t, cs, "list_sessions", nil, nil); isErr {
		t.Error("the server did not answer after the errors")
	}
}

// A panic in a tool is that call's error, not the server's end.
func TestAPanicIsTheCallsError(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}, Stats: func([]string) []*model.SessionStats { panic("boom") }})
	text, isErr := call(t, cs, "session_stats", nil, nil)
	if !isErr || !strings.Contains(text, "boom") {
		t.Errorf("%v %q", isErr, text)
	}
	if _, isErr := call(t, cs, "list_sessions", nil, nil); isErr {
		t.Error("the server did not answer after the panic")
	}
}

func TestSessionStats(t *testing.T) {
	cs := connect(t, Config{Roots: []string{webapp}})
	var one StatsOutput
	text, isErr := call(t, cs, "session_stats", map[string]any{"session": "019cb3ff"}, &one)
	if isErr || one.RowCount != 1 || len(one.Rows) != 1 || one.Total == nil || one.By != "session" {
		t.Fatalf("%v %q %+v", isErr, text, one)
	}
	var all StatsOutput
	call(t, cs, "session_stats", map[string]any{"by": "model"}, &all)
	if all.RowCount == 0 || all.Total.(map[string]any)["sessions"].(float64) != 3 {
		t.Errorf("by model: %+v", all)
	}
	var none StatsOutput
	if text, _ := call(t, cs, "session_stats", map[string]any{"project": "/nowhere"}, &none); text != "no sessions found" {
		t.Errorf("no sessions: %q", text)
	}
}

func TestLabelEntry(t *testing.T) {
	dir := copyStore(t)
	cs := connect(t, Config{Roots: []string{dir}})
	var out LabelOutput
	if text, isErr := call(t, cs, "label_entry", map[string]any{"session": "019cb3ff", "entry": "c5112f12", "label": "redis start"}, &out); isErr {
		t.Fatal(text)
	}
	path, _ := filepath.Glob(filepath.Join(dir, "2026-03-03*"))
	s, err := store.Open(path[0])
	if err != nil {
		t.Fatal(err)
	}
	i, _ := s.Index("c5112f12")
	if l, ok := s.Label(i); !ok || l != "redis start" {
		t.Errorf("label %q %v", l, ok)
	}
	call(t, cs, "label_entry", map[string]any{"session": "019cb3ff", "entry": "c5112f12"}, &out)
	s, _ = store.Open(path[0])
	if l, ok := s.Label(i); ok && l != "" {
		t.Errorf("label %q after clearing", l)
	}
}

// A read-only format's session answers why it cannot be labelled.
func TestLabelReadOnly(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(firstFile(t, "../testdata/claude"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.jsonl")
	os.WriteFile(path, data, 0o644)
	cs := connect(t, Config{Roots: []string{dir}})
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	text, isErr := call(t, cs, "label_entry", map[string]any{"session": path, "entry": s.Entry(s.Leaf()).ID, "label": "x"}, nil)
	if !isErr || !strings.Contains(text, "label") {
		t.Errorf("%v %q", isErr, text)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(data) {
		t.Error("the read-only session changed")
	}
}

func firstFile(t *testing.T, dir string) string {
	t.Helper()
	var found string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if found == "" && err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "subagents") {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no .jsonl under %s", dir)
	}
	return found
}

// Session text reaches the client without control bytes or escapes.
func TestSanitized(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "2026-11-01T09-00-00-000Z_0194a3f0-0000-7000-8000-000000000001.jsonl")
	lines := `{"type":"session","version":3,"id":"0194a3f0-0000-7000-8000-000000000001","timestamp":"2026-11-01T09:00:00.000Z","cwd":"/home/dev/x\u001b]0;t\u0007"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-01T09:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hostile \u001b[31mred\u001b[0m \u009b2J text \u0007 bell"}],"timestamp":1761987601000}}
`
	os.WriteFile(path, []byte(lines), 0o644)
	cs := connect(t, Config{Roots: []string{dir}})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_session", map[string]any{"session": path}},
		{"search_sessions", map[string]any{"query": "hostile"}},
		{"list_sessions", nil},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c.tool, err, res)
		}
		data, _ := json.Marshal(res)
		var decoded any
		json.Unmarshal(data, &decoded)
		all, _ := json.Marshal(decoded)
		// What the client decodes holds no C0 or C1 control but newlines.
		var text strings.Builder
		for _, ct := range res.Content {
			text.WriteString(ct.(*mcp.TextContent).Text)
		}
		sc, _ := json.Marshal(res.StructuredContent)
		var strs []string
		collect(decodeAny(sc), &strs)
		for _, s := range append(strs, text.String()) {
			for _, r := range s {
				if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
					t.Errorf("%s: control %U in %q", c.tool, r, s)
					break
				}
			}
		}
		if !strings.Contains(string(all), "hostile") && c.tool != "list_sessions" {
			t.Errorf("%s: the text is gone: %s", c.tool, all)
		}
	}
}

func decodeAny(data []byte) any {
	var v any
	json.Unmarshal(data, &v)
	return v
}

func collect(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case []any:
		for _, e := range v {
			collect(e, out)
		}
	case map[string]any:
		for _, e := range v {
			collect(e, out)
		}
	}
}

// The index stays open between calls and follows the files: a message
// appended after a search, and a session added, are found by the next.
func TestSearchFollowsTheFiles(t *testing.T) {
	dir := copyStore(t)
	cs := connect(t, Config{Roots: []string{dir}})
	var out SearchOutput
	call(t, cs, "search_sessions", map[string]any{"query": "zanzibar"}, &out)
	if len(out.Hits) != 0 {
		t.Fatalf("%+v", out)
	}
	path, _ := filepath.Glob(filepath.Join(dir, "2026-03-03*"))
	s, _ := store.Open(path[0])
	leaf := s.Entry(s.Leaf()).ID
	line := `{"type":"message","id":"feed0001","parentId":"` + leaf + `","timestamp":"2026-03-03T15:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"what about zanzibar?"}],"timestamp":1772550000000}}`
	if err := synth.AppendLine(path[0], line); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "--home-dev-new--")
	os.Mkdir(sub, 0o755)
	if err := synth.Session(filepath.Join(sub, "2026-11-01T09-00-00-000Z_0194a3f0-0000-7000-8000-0000000000aa.jsonl"), "/home/dev/new", 20<<10, time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), 5); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		call(t, cs, "search_sessions", map[string]any{"query": "zanzibar"}, &out)
		var list ListOutput
		call(t, cs, "list_sessions", nil, &list)
		if len(out.Hits) == 1 && out.Hits[0].EntryID == "feed0001" && list.Total == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the appended message or the new session is not found: %+v, %d sessions", out, list.Total)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// No answer holds a secret of the session's: not its title, its folder,
// a snippet, a message or its stats' text (docs/sharing.md).
func TestAnswersHoldNoSecret(t *testing.T) {
	const key = "sk-ant-api03-Zq7hX2mK9pL4vB8nR3tY6wE1cF5gJ0aD_uI2oP7sQ9xV4bN8mK3lH6jG1fD5sA0zXcVbNmQwErTyUiOpAs-AB12CD34"
	dir := t.TempDir()
	path := filepath.Join(dir, "2026-11-01T09-00-00-000Z_0194a3f0-0000-7000-8000-000000000002.jsonl")
	lines := `{"type":"session","version":3,"id":"0194a3f0-0000-7000-8000-000000000002","timestamp":"2026-11-01T09:00:00.000Z","cwd":"/home/dev/x"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-01T09:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"deploy with ANTHROPIC_API_KEY=` + key + ` please"}],"timestamp":1761987601000}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-01T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"deploy done, the key ` + key + ` works"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1761987602000}}
`
	os.WriteFile(path, []byte(lines), 0o644)
	cs := connect(t, Config{Roots: []string{dir}})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_session", map[string]any{"session": path, "full": true}},
		{"search_sessions", map[string]any{"query": "deploy"}},
		{"list_sessions", nil},
		{"session_stats", map[string]any{"session": path}},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c.tool, err, res)
		}
		all, _ := json.Marshal(res)
		if strings.Contains(string(all), key[:20]) {
			t.Errorf("%s: the key is in the answer: %s", c.tool, all)
		}
		if c.tool != "session_stats" && c.tool != "list_sessions" && !strings.Contains(string(all), "deploy") {
			t.Errorf("%s: the text is gone: %s", c.tool, all)
		}
	}
}
