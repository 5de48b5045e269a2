package opencode

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"skein/model"
	"skein/store"
)

// The older layout's files (testdata/opencode/legacy-home: hand-made by
// make-legacy.mjs from the sessions of the parallel and subagent fixtures
// OpenCode 1.18.33 wrote into its database, laid out as OpenCode's
// json-migration.ts reads them).
const legacyHome = "../../testdata/opencode/legacy-home"

// legacyCopy is a copy of the older layout's data folder in a home of the
// test's own, and that home.
func legacyCopy(t *testing.T) (home, data string) {
	t.Helper()
	home = t.TempDir()
	src, _ := filepath.Abs(filepath.Join(legacyHome, ".local", "share", "opencode"))
	data = filepath.Join(home, ".local", "share", "opencode")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(data, rel), 0o755)
		}
		return os.WriteFile(filepath.Join(data, rel), read(t, p), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return home, data
}

// TestLegacyLayout: OpenCode's older files, in its default folder, are
// listed (three sessions: parallel's, subagent's and its child, under its
// parent), and each opens as the same session does from the database
// OpenCode wrote: the same entries, messages, context (as OpenCode sends
// it) and stats, every call followed by its result; each resumes with
// opencode --session ID.
func TestLegacyLayout(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "")
	home, data := legacyCopy(t)
	if roots := (store.Env{Home: home}).DefaultRoots(); !slices.Contains(roots, data) {
		t.Fatalf("default roots %v lack %s", roots, data)
	}
	files, err := store.Discover([]string{data})
	if err != nil || len(files) != 3 {
		t.Fatalf("discovered %v, %v", files, err)
	}
	infos, problems := store.List(files, nil)
	if len(problems) > 0 || len(infos) != 3 {
		t.Fatalf("listed %+v %v", infos, problems)
	}
	dbs := map[string]string{}
	for name, db := range scenarios(t) {
		dbs[name] = db
	}
	children := 0
	for _, in := range infos {
		if in.Format != string(Format) || in.Cwd != "/sandbox/proj" || in.MessageCount == 0 || !strings.HasPrefix(in.ID, "ses_") {
			t.Errorf("record %+v", in)
		}
		if in.HasParent {
			children++
			if !slices.Contains(files, in.ParentSession) {
				t.Errorf("%s: its parent %s is no session listed", in.ID, in.ParentSession)
			}
		}
		b := store.Of(in)
		if prog, args := store.ResumeOf(b, in.Path); prog != "opencode" || !slices.Equal(args, []string{"--session", in.ID}) {
			t.Errorf("resume %s %q", prog, args)
		}
		s, err := store.Open(in.Path)
		if err != nil {
			t.Fatal(err)
		}
		toolsAnswered(t, s)
		// The same session, read from the database it was made from.
		var want *model.Session
		for _, db := range dbs {
			if d, err := Load(db); err == nil {
				if _, ok := d.Session(in.ID); ok {
					want, _ = Open(db + "#" + in.ID)
				}
			}
		}
		if want == nil {
			t.Fatalf("%s is in no fixture's database", in.ID)
		}
		if s.Len() != want.Len() || !reflect.DeepEqual(s.Stats(), want.Stats()) {
			t.Errorf("%s: %d entries, stats %+v; from the database %d, %+v", in.ID, s.Len(), s.Stats(), want.Len(), want.Stats())
		}
		var got, w bytes.Buffer
		if err := s.WriteContextJSON(&got, s.BuildContext(s.Leaf())); err != nil {
			t.Fatal(err)
		}
		_ = want.WriteContextJSON(&w, want.BuildContext(want.Leaf()))
		if got.String() != w.String() {
			t.Errorf("%s: context\n%s\nfrom the database\n%s", in.ID, got.String(), w.String())
		}
	}
	if children != 1 {
		t.Errorf("%d sub-agents' sessions, want 1", children)
	}
}

// TestLegacyMigratedLeftOut: once OpenCode has copied the files into the
// database beside them (its first run after 1.2 does, and leaves the files
// there), the list shows the database's session and leaves the file out;
// a file the database lacks is still listed.
func TestLegacyMigratedLeftOut(t *testing.T) {
	_, data := legacyCopy(t)
	db := filepath.Join(data, DBName)
	if err := os.WriteFile(db, read(t, filepath.Join(agentgen, "parallel", "opencode", DBName)), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := store.Discover([]string{data})
	if err != nil || len(files) != 4 {
		t.Fatalf("discovered %v, %v", files, err)
	}
	infos, problems := store.List(files, nil)
	if len(problems) > 0 || len(infos) != 3 {
		t.Fatalf("listed %+v %v", infos, problems)
	}
	ids := map[string]int{}
	for _, in := range infos {
		ids[in.ID]++
		if _, ok := LegacyDataDir(in.Path); ok && migrated(in.Path, in.ID) {
			t.Errorf("%s is listed from its file, though the database holds it", in.Path)
		}
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("%s listed %d times", id, n)
		}
	}
}

// TestLegacyDamaged: a session file that is no JSON is not a session (a
// diagnostic, no panic); a message or part file that is no JSON is a
// record of no data, and the rest of the session opens.
func TestLegacyDamaged(t *testing.T) {
	_, data := legacyCopy(t)
	sessions, _ := filepath.Glob(filepath.Join(data, "storage", "session", "*", "*.json"))
	parts, _ := filepath.Glob(filepath.Join(data, "storage", "part", "*", "*.json"))
	msgs, _ := filepath.Glob(filepath.Join(data, "storage", "message", "*", "*.json"))
	if len(sessions) != 3 || len(parts) == 0 || len(msgs) == 0 {
		t.Fatal(sessions, parts, msgs)
	}
	for _, f := range append(parts[:3], msgs[:2]...) {
		if err := os.WriteFile(f, []byte("{\"type\": tru"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(sessions[0], []byte("[1,"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(sessions[0])
	var ns *store.NotSession
	if !errors.As(err, &ns) {
		t.Errorf("a damaged session file: %v", err)
	}
	for _, p := range sessions[1:] {
		s, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for i := range s.Len() {
			_ = s.Entry(i)
			_ = s.EntryMessage(i)
		}
		_ = s.Stats()
		if err := s.WriteContextJSON(&bytes.Buffer{}, s.BuildContext(s.Leaf())); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLegacyDataDir(t *testing.T) {
	for p, want := range map[string]string{
		"/h/.local/share/opencode/storage/session/global/ses_1.json": "/h/.local/share/opencode",
		"/h/.local/share/kilo/storage/session/abc/ses_2.json":        "/h/.local/share/kilo",
		"/h/.local/share/opencode/storage/message/ses_1/msg_1.json":  "",
		"/h/.local/share/opencode/storage/session/ses_1.json":        "",
		"/h/.local/share/opencode/storage/session/global/.json":      "",
		"/h/.local/share/opencode/opencode.db#ses_1":                 "",
	} {
		if got, ok := LegacyDataDir(p); got != want || ok != (want != "") {
			t.Errorf("%s: %q %v", p, got, ok)
		}
	}
}

// TestLegacySessionFile: only a ses_ file of a storage/session/<project>/
// folder is a session by its name; the messages' and parts' files, and
// other JSON files in such a folder, are not.
func TestLegacySessionFile(t *testing.T) {
	for p, want := range map[string]bool{
		"/h/.local/share/opencode/storage/session/global/ses_1.json":  true,
		"/h/.local/share/kilo/storage/session/abc/ses_2.json":         true,
		"/h/.local/share/opencode/storage/message/ses_1/msg_1.json":   false,
		"/h/.local/share/opencode/storage/part/msg_1/prt_1.json":      false,
		"/work/app/storage/session/fixtures/user.json":                false,
		"/h/.local/share/opencode/storage/session_diff/ses_1.json":    false,
		"/h/.local/share/opencode/storage/session/global/ses_1.jsonl": false,
	} {
		if got := (backend{}).SessionFile(p); got != want {
			t.Errorf("%s: %v", p, got)
		}
	}
}
