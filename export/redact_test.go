package export

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/redact"
	"skein/internal/synth"
	"skein/model"
	"skein/store"
	"skein/store/convert"
)

// needles are the bytes of a planted secret an output must not hold: the
// secret, its JSON string's inside, and each of its lines (a private
// key's body) of 16 characters or more.
func needles(secrets []synth.Secret) []string {
	var out []string
	for _, s := range secrets {
		q, _ := json.Marshal(s.Value)
		out = append(out, s.Value, string(q[1:len(q)-1]))
		for _, l := range strings.Split(s.Value, "\n") {
			if len(l) >= 16 && !strings.HasPrefix(l, "-----") {
				out = append(out, l)
			}
		}
	}
	return out
}

// leaks is the needles out holds.
func leaks(out []byte, needles []string) []string {
	var found []string
	for _, n := range needles {
		if bytes.Contains(out, []byte(n)) {
			found = append(found, n)
		}
	}
	return found
}

// secretSessions writes the session of every secret in every place
// (synth.SecretSession) in a folder named after a secret, and imports it
// into Dhara's store and pi's: the sessions to export.
func secretSessions(t *testing.T) []*model.Session {
	t.Helper()
	secrets := synth.Secrets()
	var texts []string
	for _, s := range secrets {
		texts = append(texts, s.Text)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "proj-"+secrets[0].Value, "s.jsonl")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	data := synth.SecretSession("/srv/deploy/"+secrets[6].Text, texts)
	if err := os.WriteFile(src, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := len(leaks(data, needles(secrets))); n < len(secrets) {
		t.Fatalf("the session holds %d of its secrets", n)
	}
	s, err := store.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	out := []*model.Session{s}
	for _, to := range convert.Targets {
		rs, err := convert.ImportFile(src, convert.Options{To: to, Out: filepath.Join(dir, "out-"+to), Env: store.Env{Home: dir, WorkingDirPath: dir}})
		if err != nil {
			t.Fatalf("--to %s: %v", to, err)
		}
		for _, r := range rs {
			s, err := store.Open(r.Path)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
	}
	return out
}

// Every secret of every kind, in every place a session holds text, is gone
// from every export (markdown of the path and of every branch, html, json)
// of the session as pi wrote it and as imported into Dhara's folders and
// pi's files; the top of markdown and html says how many of each kind
// went, and json's count is given to say on stderr. Without Redact the
// secrets are there (the check can fail).
func TestExportsHoldNoSecret(t *testing.T) {
	ns := needles(synth.Secrets())
	for _, s := range secretSessions(t) {
		what := s.Info.Format + " " + filepath.Base(s.Info.Path)
		for _, c := range []struct {
			format string
			o      Options
		}{{"markdown", Options{}}, {"markdown", Options{AllBranches: true}}, {"html", Options{}}, {"json", Options{}}} {
			var kept bytes.Buffer
			if _, err := As(&kept, s, c.format, c.o, time.Now()); err != nil {
				t.Fatal(err)
			}
			if len(leaks(kept.Bytes(), ns)) == 0 {
				t.Errorf("%s %s: no secret in the export that keeps them", what, c.format)
			}
			c.o.Redact = true
			var out bytes.Buffer
			said, err := As(&out, s, c.format, c.o, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if l := leaks(out.Bytes(), ns); len(l) > 0 {
				t.Errorf("%s %s (all branches %v): %d secrets left, as %q", what, c.format, c.o.AllBranches, len(l), l[0])
			}
			top := out.String()
			if c.format == "json" {
				// Dhara's model still: the same entries and tree, only
				// their text redacted.
				top = said
				var doc, keptDoc struct {
					Meta    map[string]any
					Entries []map[string]any
					Tree    any
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Errorf("%s json: %v", what, err)
				}
				json.Unmarshal(kept.Bytes(), &keptDoc)
				tree, keptTree, _ := jsonPair(doc.Tree, keptDoc.Tree)
				if len(doc.Entries) != len(keptDoc.Entries) || tree != keptTree || doc.Meta["id"] == nil {
					t.Errorf("%s json: %d entries and a tree of %d bytes, kept %d and %d", what, len(doc.Entries), len(tree), len(keptDoc.Entries), len(keptTree))
				}
			}
			switch c.format {
			case "markdown":
				top = top[:strings.Index(top, "\n### ")]
				if !strings.Contains(top, "- Secrets: ") {
					t.Errorf("%s markdown: no count at the top:\n%s", what, top)
				}
			case "html":
				top = top[:strings.Index(top, "</header>")]
				if !strings.Contains(top, "<li>Secrets ") {
					t.Errorf("%s html: no count at the top:\n%s", what, top)
				}
			}
			for _, k := range redact.Kinds() {
				if !strings.Contains(top, k.String()) {
					t.Errorf("%s %s: the count does not name %s: %.300s", what, c.format, k, top)
				}
			}
		}
	}
}

// The counts at the top are the secrets the export replaced: every
// planted one, each once.
func TestExportCountsTheSecrets(t *testing.T) {
	s := secretSessions(t)[0]
	p := planPage(s)
	var msgs []model.ContextMessage
	for _, seg := range p.segs {
		msgs = append(msgs, seg...)
	}
	r := counted(s, msgs)
	// Each text is in nine places of the messages (a prompt, thinking, an
	// answer, a call's command and path, a result, a command and its
	// output, an extension's message), the first also in a compaction's
	// summary: nine of each secret at least.
	want := map[string]int{}
	for _, sec := range synth.Secrets() {
		want[sec.Kind] += 9
	}
	for _, k := range redact.Kinds() {
		if r.Count(k) < want[k.String()] {
			t.Errorf("%s: %d counted, want %d or more", k, r.Count(k), want[k.String()])
		}
	}
	t.Logf("counted: %s", r.Summary())
}

// Ordinary session text (code, hashes, UUIDs, base64 images, logs,
// paths, package locks: synth.Ordinary; and every message of the real
// and agent-written sessions in testdata) has at most one false redaction
// per 1,000 messages.
func TestOrdinaryTextIsNotRedacted(t *testing.T) {
	messages, found := 0, 0
	count := func(text string) {
		messages++
		for _, m := range redact.Find(text) {
			found++
			if found <= 10 {
				t.Logf("false %s: %q", m.Kind, text[max(0, m.Start-30):min(len(text), m.End+10)])
			}
		}
	}
	for _, m := range synth.Ordinary(20000, 1) {
		count(m)
	}
	synthetic := messages
	for _, root := range []string{"../testdata/real", "../testdata/agentgen", "../testdata/claude", "../testdata/pi"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
				return nil
			}
			s, err := store.Open(path)
			if err != nil {
				return nil
			}
			for i := range s.Len() {
				if s.Entry(i).Kind == model.EntryMessage {
					msg := s.EntryMessage(i)
					count(msg.SearchText())
				}
			}
			return nil
		})
	}
	t.Logf("%d false redactions in %d messages (%d synthetic, %d from testdata)", found, messages, synthetic, messages-synthetic)
	if found*1000 > messages {
		t.Errorf("%d false redactions in %d messages: more than one per 1,000", found, messages)
	}
}

func jsonPair(a, b any) (string, string, error) {
	x, err := json.Marshal(a)
	if err != nil {
		return "", "", err
	}
	y, err := json.Marshal(b)
	return string(x), string(y), err
}
