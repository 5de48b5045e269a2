package store

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/jscan"
	"skein/model"
	"skein/store/dhara"
	"skein/store/pi"
)

// hostileText is session text that must stay text everywhere: escape
// sequences, markup, links with active schemes, a closing fence and
// details, path climbing, a lone surrogate's bytes, a huge line.
var hostileText = []string{
	"\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
	"</script><script>alert(1)</script><img src=x onerror=alert(2)>",
	"[click](javascript:alert(1)) <a href=\"javascript:alert(3)\">x</a> data:text/html,<b>",
	"```\n</details>\n~~~\n<details open><summary>x</summary>",
	"../../../../etc/passwd /etc/shadow ..\\..\\windows",
	"\u2028\u2029\x00\x7f\xed\xa0\x80 \xff\xfe",
	strings.Repeat("huge line ", 200000),
}

// hostileFiles are files of every import format carrying hostileText in
// each place text goes, with ids that climb paths and values of the wrong
// type.
func hostileFiles() map[string]string {
	h := hostileText
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	out := map[string]string{}
	var chat []string
	for k, t := range h {
		chat = append(chat, `{"role":"user","content":`+q(t)+`}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":`+q("../"+t[:min(len(t), 40)])+`,"type":"function","function":{"name":`+q(t[:min(len(t), 60)])+`,"arguments":`+q(`{"p":`+q(t)+`}`)+`}}]}`,
			`{"role":"tool","tool_call_id":`+q("../"+t[:min(len(t), 40)])+`,"content":`+q(t)+`}`)
		if k == 0 {
			chat = append(chat, `{"role":42,"content":{"x":[1,2]}}`, `{"role":"assistant","tool_calls":"nope"}`)
		}
	}
	out["chat.json"] = "[" + strings.Join(chat, ",") + "]"
	var mapping []string
	parent := `null`
	for k, t := range h {
		id := q("../n" + string(rune('a'+k)))
		mapping = append(mapping, id+`:{"id":`+id+`,"parent":`+parent+`,"children":[],"message":{"id":`+id+`,"author":{"role":"user"},"create_time":"soon","content":{"content_type":"text","parts":[`+q(t)+`,{"x":1}]}}}`)
		parent = id
	}
	out["conversations.json"] = `[{"title":` + q(h[1]) + `,"id":"../../x","current_node":` + parent + `,"mapping":{` + strings.Join(mapping, ",") + `}}]`
	var msgs []string
	for k, t := range h {
		sender := "human"
		if k%2 == 1 {
			sender = "assistant"
		}
		msgs = append(msgs, `{"uuid":`+q("../u"+string(rune('a'+k)))+`,"sender":"`+sender+`","created_at":7,"text":`+q(t)+`,"content":[{"type":"text","text":`+q(t)+`},{"type":"tool_use","id":"../t","name":`+q(t[:min(len(t), 30)])+`,"input":{"p":`+q(t)+`}},{"type":"tool_result","tool_use_id":"../t","content":`+q(t)+`}]}`)
	}
	out["claude-ai.json"] = `[{"uuid":"../../c","name":` + q(h[0]) + `,"chat_messages":[` + strings.Join(msgs, ",") + `]}]`
	var cc []string
	prev := "null"
	for k, t := range h {
		u := q("../cc" + string(rune('a'+k)))
		cc = append(cc, `{"type":"user","uuid":`+u+`,"parentUuid":`+prev+`,"sessionId":"../s","cwd":"/w","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":`+q(t)+`}}`)
		prev = u
		a := q("../ca" + string(rune('a'+k)))
		cc = append(cc, `{"type":"assistant","uuid":`+a+`,"parentUuid":`+prev+`,"sessionId":"../s","cwd":"/w","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m","role":"assistant","content":[{"type":"text","text":`+q(t)+`},{"type":"tool_use","id":"../x","name":"Bash","input":{"command":`+q(t)+`}}]}}`)
		prev = a
		r := q("../cr" + string(rune('a'+k)))
		cc = append(cc, `{"type":"user","uuid":`+r+`,"parentUuid":`+prev+`,"sessionId":"../s","cwd":"/w","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"../x","content":`+q(t)+`}]}}`)
		prev = r
	}
	cc = append(cc, `{"type":"user","uuid":7,"parentUuid":[],"message":"nope"}`, `{"type":`+q(h[0])+`}`)
	out["claude.jsonl"] = strings.Join(cc, "\n") + "\n"
	var cx []string
	cx = append(cx, `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"../../r","cwd":`+q(h[4])+`}}`)
	for _, t := range h {
		cx = append(cx, `{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":`+q(t)+`}]}}`,
			`{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"function_call","name":`+q(t[:min(len(t), 30)])+`,"arguments":`+q(t)+`,"call_id":"../c"}}`,
			`{"timestamp":"2026-01-01T00:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"../c","output":`+q(t)+`}}`)
	}
	cx = append(cx, `{"timestamp":5,"type":"response_item","payload":"nope"}`)
	out["rollout-2026-01-01T00-00-00-00000000-0000-0000-0000-000000000000.jsonl"] = strings.Join(cx, "\n") + "\n"
	var p []string
	p = append(p, `{"type":"session","version":3,"id":"../../p","timestamp":"2026-01-01T00:00:00.000Z","cwd":`+q(h[4])+`}`)
	parent = "null"
	for k, t := range h {
		id := q("../e" + string(rune('a'+k)))
		p = append(p, `{"type":"message","id":`+id+`,"parentId":`+parent+`,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":`+q(t)+`,"timestamp":1}}`)
		parent = id
		id2 := q("../f" + string(rune('a'+k)))
		p = append(p, `{"type":"message","id":`+id2+`,"parentId":`+parent+`,"timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":`+q(t)+`},{"type":"toolCall","id":"../k","name":`+q(t[:min(len(t), 20)])+`,"arguments":{"x":`+q(t)+`}}],"timestamp":2}}`)
		parent = id2
	}
	p = append(p, `{"type":"label","id":"l","parentId":`+parent+`,"timestamp":"x","targetId":"../ea","label":`+q(h[0])+`}`, `{"type":"message","id":9,"message":"nope"}`)
	out["pi.jsonl"] = strings.Join(p, "\n") + "\n"
	return out
}

// Every importer takes the hostile files without a panic and writes, into
// Dhara's store and pi's, sessions whose files are valid JSON lines, that
// doctor finds no error in, that keep the hostile text, and whose folders
// and files are named by skein, never by the file: nothing is written
// outside the folder given.
func TestImportHostile(t *testing.T) {
	dir := t.TempDir()
	files := hostileFiles()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, to := range ImportTargets {
		out := filepath.Join(t.TempDir(), "store", "inner")
		for name := range files {
			rs, err := ImportFile(filepath.Join(dir, name), ImportOptions{To: to, Out: out, Env: Env{Home: t.TempDir(), WorkingDirPath: dir}})
			if err != nil {
				t.Errorf("%s --to %s: %v", name, to, err)
				continue
			}
			for _, r := range rs {
				if filepath.Dir(r.Path) != out {
					t.Errorf("%s --to %s: written to %s", name, to, r.Path)
				}
				checkWritten(t, name, r.Path)
			}
		}
		// Nothing beside the folder given.
		if des, _ := os.ReadDir(filepath.Dir(out)); len(des) != 1 {
			t.Errorf("--to %s: %d entries beside the store", to, len(des))
		}
	}
}

// checkWritten checks what an import wrote at path: every line of its
// session files a JSON object, no error doctor would report, and the
// hostile texts kept.
func checkWritten(t *testing.T, name, path string) {
	t.Helper()
	var lines []byte
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		for _, f := range []string{dhara.MetaFile, dhara.TreeFile} {
			data, _ := os.ReadFile(filepath.Join(path, f))
			if !jscan.Valid(data) {
				t.Errorf("%s: %s is not JSON", name, f)
			}
		}
		lines, _ = os.ReadFile(filepath.Join(path, dhara.EntriesFile))
	} else {
		lines, _ = os.ReadFile(path)
	}
	for n, l := range bytes.Split(bytes.TrimSuffix(lines, []byte("\n")), []byte("\n")) {
		if len(l) == 0 || l[0] != '{' || !jscan.Valid(l) {
			t.Errorf("%s: %s line %d is not a JSON object: %.80q", name, path, n+1, l)
		}
	}
	diags, _, err := Check(path)
	if err != nil {
		t.Errorf("%s: doctor: %v", name, err)
	}
	for _, d := range diags {
		if !d.Warning {
			t.Errorf("%s: doctor: %s", name, d.Where(path)+": "+d.Msg)
		}
	}
	if !bytes.Contains(lines, []byte(`javascript:alert(1)`)) {
		t.Errorf("%s: %s lost the hostile text", name, path)
	}
}

// FuzzImport feeds any bytes to every importer, and what they read to both
// writers: no panic; every line either writes is a JSON object; pi's
// reader takes the pi file with every call answered on every branch.
func FuzzImport(f *testing.F) {
	for name, data := range hostileFiles() {
		if len(data) < 4096 {
			f.Add(name, []byte(data))
		}
	}
	f.Add("chat.json", []byte(`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}]}`))
	f.Add("conversations.json", []byte(`[{"mapping":{"a":{"id":"a","parent":null,"children":["b"],"message":null},"b":{"id":"b","parent":"a","children":[],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["q"]}}}},"current_node":"b"}]`))
	f.Add("claude-ai.json", []byte(`{"uuid":"u","chat_messages":[{"uuid":"m","sender":"human","text":"q"}]}`))
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		path := filepath.Join(t.TempDir(), "f.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, format := range ImportFormats {
			items, err := openItems(path, format)
			if err != nil {
				continue
			}
			for _, it := range items {
				b := DharaModel(it.s, now, map[string][]byte{"importedFrom": []byte(`{"path":"f"}`)})
				for _, doc := range append([][]byte{b.Meta, b.Tree}, b.Entries...) {
					if !jscan.Valid(doc) {
						t.Fatalf("%s: Dhara: not JSON: %.200q", format, doc)
					}
				}
				p, err := pi.FromSession(it.s, now, "/w", nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range bytes.Split(bytes.TrimSuffix(p.Lines, []byte("\n")), []byte("\n")) {
					if !jscan.Valid(l) || l[0] != '{' {
						t.Fatalf("%s: pi: not a JSON object: %.200q", format, l)
					}
				}
				back, err := pi.Parse(p.Lines)
				if err != nil {
					t.Fatalf("%s: pi: %v", format, err)
				}
				d := back.Domain(model.SessionInfo{})
				for _, leaf := range leaves(d) {
					if open := unanswered(pathMessages(d, leaf)); len(open) > 0 {
						t.Fatalf("%s: pi: unanswered %q", format, open)
					}
				}
			}
		}
	})
}
