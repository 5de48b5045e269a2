package export

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"skein/model"
	"skein/store"
	"skein/store/convert"
)

// The page's message count is the session's, as its stats and the screens
// count it: not the number of blocks drawn (a compaction's summary, each
// branch's copy of a shared message).
func TestHTMLCountsMessagesAsTheStats(t *testing.T) {
	files, _ := filepath.Glob("../tui/demo/*/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no demo sessions")
	}
	for _, f := range files {
		s, err := store.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := pageFact(t, s, "Messages"), s.Stats().Messages; got != strconv.Itoa(want) {
			t.Errorf("%s: the page says %q messages, the stats %d", filepath.Base(f), got, want)
		}
	}
}

// pageFact is the figure the HTML page of s gives for its fact name, ""
// when it gives none.
func pageFact(t *testing.T, s *model.Session, name string) string {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, s, Options{}); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(name + `</[^>]*>\s*<[^>]*>(\d+)<`).FindSubmatch(b.Bytes())
	if m == nil {
		m = regexp.MustCompile(name + `\D{0,80}?(\d+)`).FindSubmatch(b.Bytes())
	}
	if m == nil {
		return ""
	}
	return string(m[1])
}

// One number per thing, for a session of every format: the list's message
// and branch counts are its stats', and the page shows as many branches as
// the session has. A Claude Code session's sub-agents are in its counts
// (its tree shows them); the progress lines that hang off its chain are no
// branches; a Codex rollout and its Dhara import count the same messages
// (the results skein adds because Dhara wants one per call are no
// messages of the conversation).
func TestOneNumberPerSession(t *testing.T) {
	var files []string
	for _, root := range []string{"../testdata/claude", "../testdata/codex", "../testdata/pi", "../testdata/dhara05", "../testdata/dhara", "../tui/demo"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil || d.IsDir() && d.Name() == "subagents":
				return filepath.SkipDir
			case d.Name() == "meta.json":
				files = append(files, filepath.Dir(p))
			case !d.IsDir() && filepath.Ext(p) == ".jsonl" && filepath.Base(filepath.Dir(p)) != "broken":
				if _, err := os.Stat(filepath.Join(filepath.Dir(p), "meta.json")); err != nil {
					files = append(files, p)
				}
			}
			return nil
		})
	}
	if len(files) < 30 {
		t.Fatalf("only %d sessions", len(files))
	}
	infos, _ := store.List(files, nil)
	byPath := map[string]store.Info{}
	for _, in := range infos {
		byPath[in.Path] = in
	}
	checked := 0
	for _, f := range files {
		in, ok := byPath[f]
		if !ok {
			continue // not a session (a damaged fixture): doctor's business
		}
		s, err := store.Open(f)
		if err != nil || len(s.Problems()) > 0 || strings.Contains(f, "damaged") {
			continue // a damaged file's record is read from its lines
		}
		checked++
		st := s.Stats()
		if in.MessageCount != st.Messages {
			t.Errorf("%s: the list says %d messages, the stats %d", f, in.MessageCount, st.Messages)
		}
		if in.Branches != st.Leaves {
			t.Errorf("%s: the list says %d branches, the stats %d", f, in.Branches, st.Leaves)
		}
		n := 1 // the page names no branches when there is one
		if fact := pageFact(t, s, "Branches"); fact != "" {
			n, _ = strconv.Atoi(fact)
		}
		if n != max(st.Leaves, 1) {
			t.Errorf("%s: the page says %d branches, the stats %d", f, n, st.Leaves)
		}
	}
	if checked < 30 {
		t.Errorf("only %d sessions checked", checked)
	}
}

// An import counts the messages of its source: Codex's legacy rollout has
// a web search with no result, and Dhara's copy the result skein adds.
func TestImportCountsTheMessagesOfItsSource(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"../testdata/codex/legacy.jsonl", "../testdata/codex/compacted.jsonl"} {
		orig, err := store.Open(src)
		if err != nil {
			t.Fatal(err)
		}
		// pi's import counts as pi does: a result skein adds is a message.
		for _, to := range []string{"dhara"} {
			rs, err := convert.ImportFile(src, convert.Options{To: to, Out: filepath.Join(dir, to), Env: store.Env{Home: dir, WorkingDirPath: dir}})
			if err != nil || len(rs) != 1 {
				t.Fatalf("%s --to %s: %v", src, to, err)
			}
			s, err := store.Open(rs[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			infos, _ := store.List([]string{rs[0].Path}, nil)
			if got, want := s.Stats().Messages, orig.Stats().Messages; got != want || len(infos) != 1 || infos[0].MessageCount != want {
				t.Errorf("%s --to %s: %d messages (list: %v), the source %d", filepath.Base(src), to, got, infos, want)
			}
		}
	}
}
