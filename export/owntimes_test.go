package export

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/store"
)

// forkedPi is a pi session with two branches: the one pi resumes at (the
// file's last entry, b2) and an earlier one (a2) whose last entry is as
// late as the session's latest.
const forkedPi = `{"type":"session","version":3,"id":"0196a0c2-0000-7000-8000-000000000001","timestamp":"2026-11-20T09:12:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-20T09:12:01.000Z","message":{"role":"user","content":"first","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-20T09:15:00.000Z","message":{"role":"user","content":"abandoned","timestamp":2}}
{"type":"message","id":"b2","parentId":"a1","timestamp":"2026-11-20T09:15:00.000Z","message":{"role":"user","content":"resumed","timestamp":3}}
`

// An export of a pi session opened from its file says the session's own
// id and times, whatever the day of the export: the markdown's Created
// and the json's createdAt are the header's (they were 1970: an opened
// file had no creation time), the json's meta id is the session's (it was
// a new random one) and its updatedAt the latest entry's (it was the
// export's time). The json, read back as a Dhara session, resumes where
// pi does.
func TestExportSaysTheSessionsOwnTimes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "2026-11-20T09-12-00-000Z_s.jsonl")
	if err := os.WriteFile(path, []byte(forkedPi), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := Markdown(&page, s, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := `- Created: 2026-11-20T09:12:00.000Z`; !strings.Contains(page.String(), want) {
		t.Errorf("markdown without %q:\n%s", want, page.String())
	}
	var docs [2][]byte
	for k, now := range []time.Time{time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)} {
		var out bytes.Buffer
		if err := JSON(&out, s, now); err != nil {
			t.Fatal(err)
		}
		docs[k] = out.Bytes()
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Errorf("two exports of one session on two days differ:\n%s\n%s", docs[0], docs[1])
	}
	var doc struct {
		Meta    map[string]any    `json:"meta"`
		Entries []json.RawMessage `json:"entries"`
		Tree    json.RawMessage   `json:"tree"`
	}
	if err := json.Unmarshal(docs[0], &doc); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"id": "0196a0c2-0000-7000-8000-000000000001", "createdAt": "2026-11-20T09:12:00.000Z", "updatedAt": "2026-11-20T09:15:00.000Z"} {
		if doc.Meta[k] != want {
			t.Errorf("meta %s = %v, want %s", k, doc.Meta[k], want)
		}
	}
	// The document's three parts are a Dhara folder's three files.
	folder := filepath.Join(dir, "back")
	meta, _ := json.Marshal(doc.Meta)
	var lines []byte
	for _, e := range doc.Entries {
		lines = append(append(lines, e...), '\n')
	}
	for name, data := range map[string][]byte{"meta.json": meta, "entries.jsonl": lines, "tree.json": doc.Tree} {
		if err := os.MkdirAll(folder, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(folder, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	back, err := store.Open(folder)
	if err != nil {
		t.Fatal(err)
	}
	ctx := back.BuildContext(back.Leaf())
	last := back.Message(ctx.Messages[len(ctx.Messages)-1])
	if got := last.Text(""); got != "resumed" {
		t.Errorf("the export read back resumes after %q, not where pi resumes (\"resumed\")", got)
	}
}
