package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/internal/jscan"
	"skein/internal/synth"
	"skein/model"
	"skein/store"
	"skein/store/dhara"
	"skein/store/pi"
)

// Every importer takes the hostile files without a panic and writes, into
// Dhara's store and pi's, sessions whose files are valid JSON lines, that
// doctor finds no error in, that keep the hostile text, and whose folders
// and files are named by skein, never by the file: nothing is written
// outside the folder given.
func TestImportHostile(t *testing.T) {
	dir := t.TempDir()
	files := synth.HostileImports()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, to := range Targets {
		out := filepath.Join(t.TempDir(), "store", "inner")
		for name := range files {
			rs, err := ImportFile(filepath.Join(dir, name), Options{To: to, Out: out, Env: store.Env{Home: t.TempDir(), WorkingDirPath: dir}})
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
	diags, _, err := store.Check(path)
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
	for name, data := range synth.HostileImports() {
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
		// The converter's own readers; a format read through its backend
		// (Gemini CLI's, Cline's, OpenCode's...) is fuzzed by its own
		// package's FuzzParse.
		for _, format := range builtin {
			items, _, err := openItems(path, format)
			if err != nil {
				continue
			}
			for _, it := range items {
				b := dhara.FromSession(it.s, now, []dhara.Field{{Key: "importedFrom", Value: []byte(`{"path":"f"}`)}})
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
