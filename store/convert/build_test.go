package convert

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/jscan"
	"skein/model"
	"skein/store"
	"skein/store/dhara"
)

// Every pi fixture in Dhara's model: a folder doctor finds nothing wrong
// in, whose context at the leaf has the pi context's messages, in order.
func TestPiToDhara(t *testing.T) {
	files, _ := store.Discover([]string{filepath.Join("..", "..", "testdata", "pi", "store")})
	if len(files) < 5 {
		t.Fatalf("%d fixtures", len(files))
	}
	root := t.TempDir()
	for _, f := range files {
		s, err := store.Open(f)
		if err != nil {
			continue
		}
		b := dhara.FromSession(s, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), nil)
		dir, err := dhara.WriteNew(root, b)
		if err != nil {
			t.Fatal(err)
		}
		diags, err := dhara.Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if !d.Warning {
				t.Errorf("%s from %s: %s: %s", dir, filepath.Base(f), d.Where(dir), d.Msg)
			}
		}
		d, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		edits := false // pi's context edits have no home in Dhara's model: custom entries
		for i := range s.Len() {
			edits = edits || s.Entry(i).Kind == model.EntryContextEdit
		}
		if got, want := texts(d, d.BuildContext(d.Leaf())), texts(s, s.BuildContext(s.Leaf())); got != want && !edits {
			t.Errorf("%s: the context\n got %s\nwant %s", filepath.Base(f), got, want)
		}
	}
}

// texts are a context's messages as role: text lines, tool calls named.
func texts(s *model.Session, ctx model.Context) string {
	var b strings.Builder
	for _, m := range ctx.Messages {
		msg := s.Message(m)
		switch msg.Role {
		case model.RoleUser, model.RoleAssistant, model.RoleToolResult, model.RoleCompactionSummary:
		default:
			continue // pi's own kinds are custom entries in Dhara's model
		}
		b.WriteString(msg.Role + ": " + msg.Text(" ") + msg.Summary)
		for _, c := range msg.ToolCalls() {
			b.WriteString(" →" + c.Name)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A fork before a compaction, then compactions on both branches: each
// import compaction names only what no compaction before it on its path
// names (so ranges stay linear in the session's length, whichever branch
// hid an entry first), and every leaf's context is the source's.
func TestImportRangesAlongEachPath(t *testing.T) {
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	ts := func(k int) string {
		return "2026-01-01T00:00:" + string(rune('0'+k/10)) + string(rune('0'+k%10)) + ".000Z"
	}
	add(`{"type":"session","version":3,"id":"0190a000-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`)
	k := 0
	msg := func(id, parent, role, text string) {
		k++
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		content := `[{"type":"text","text":"` + text + `"}]`
		extra := ``
		if role == "assistant" {
			extra = `,"api":"x","provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop"`
		}
		add(`{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"` + ts(k) + `","message":{"role":"` + role + `","content":` + content + extra + `,"timestamp":1}}`)
	}
	comp := func(id, parent, kept, summary string) {
		k++
		add(`{"type":"compaction","id":"` + id + `","parentId":"` + parent + `","timestamp":"` + ts(k) + `","summary":"` + summary + `","firstKeptEntryId":"` + kept + `","tokensBefore":10}`)
	}
	msg("u1", "", "user", "U1")
	msg("a1", "u1", "assistant", "A1")
	msg("u2", "a1", "user", "U2")
	msg("a2", "u2", "assistant", "A2")
	// branch one: compactions c1, c3
	comp("c1", "a2", "u2", "S1")
	msg("u3", "c1", "user", "U3")
	msg("a3", "u3", "assistant", "A3")
	comp("c3", "a3", "u3", "S3")
	msg("u4", "c3", "user", "U4")
	// branch two, forked at a1: compactions c2, c4
	msg("v2", "a1", "user", "V2")
	msg("b2", "v2", "assistant", "B2")
	comp("c2", "b2", "v2", "S2")
	msg("v3", "c2", "user", "V3")
	msg("b3", "v3", "assistant", "B3")
	comp("c4", "b3", "v3", "S4")
	msg("v4", "c4", "user", "V4")
	path := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_0190a000-0000-7000-8000-000000000001.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := dhara.WriteFromSession(t.TempDir(), s, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := dhara.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Along each branch, no id in two compactions' ranges.
	for _, br := range raw.Tree.Branches {
		seen := map[string]string{}
		for _, id := range br.EntryIDs {
			i, ok := d.Index(id)
			if !ok || raw.Entries[i].Type != dhara.TypeCompaction {
				continue
			}
			var ids []string
			json.Unmarshal(jscan.Member(raw.Entries[i].Raw, "entryIds"), &ids)
			for _, h := range ids {
				if c, twice := seen[h]; twice && len(ids) > 1 {
					t.Errorf("branch %s: %s is in the ranges of %s and %s", br.ID, h, c, id)
				}
				seen[h] = id
			}
		}
	}
	for _, leaf := range []string{"u4", "v4"} {
		sl, _ := s.Index(leaf)
		var dl int = -1
		for i := range d.Len() {
			if strings.Contains(string(d.Raw(i)), `"`+strings.ToUpper(leaf)+`"`) {
				dl = i
			}
		}
		if got, want := texts(d, d.BuildContext(dl)), texts(s, s.BuildContext(sl)); got != want {
			t.Errorf("leaf %s: the context\n got %s\nwant %s", leaf, got, want)
		}
	}
}
