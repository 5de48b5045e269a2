package store_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"skein/internal/stamp"
	"skein/store"
	"strings"
	"testing"
)

// TestListAgainstReference compares List with pi's SessionManager.list, as
// testdata/pigen/oracle.mjs recorded it for every fixture folder.
func TestListAgainstReference(t *testing.T) {
	base := filepath.Join("..", "testdata", "pi")
	lists, _ := filepath.Glob(filepath.Join(base, "expected", "*", "list.json"))
	more, _ := filepath.Glob(filepath.Join(base, "expected", "*", "*", "list.json"))
	lists = append(lists, more...)
	if len(lists) < 5 {
		t.Fatalf("only %d expected lists", len(lists))
	}
	for _, exp := range lists {
		rel, _ := filepath.Rel(filepath.Join(base, "expected"), filepath.Dir(exp))
		t.Run(rel, func(t *testing.T) {
			dir := filepath.Join(base, rel)
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".jsonl") {
					files = append(files, filepath.Join(dir, e.Name()))
				}
			}
			infos, _ := store.List(files, nil)
			var got []map[string]any
			for _, info := range infos {
				// A deliberate difference: skein lists a file that starts with a
				// byte-order mark, pi 1.6.0 does not see it as a session.
				if data, _ := os.ReadFile(info.Path); bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
					if info.ID == "" {
						t.Errorf("%s: listed without its header", info.Path)
					}
					continue
				}
				info.Path, _ = filepath.Rel(base, info.Path)
				var m map[string]any
				if err := json.Unmarshal(info.AppendJSON(nil), &m); err != nil {
					t.Fatal(err)
				}
				if m["format"] != "pi" {
					t.Errorf("format %v", m["format"])
				}
				delete(m, "format")
				got = append(got, m)
			}
			data, _ := os.ReadFile(exp)
			var want []map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.MarshalIndent(got, "", " ")
				t.Errorf("list differs\n got %s\nwant %s", g, data)
			}
		})
	}
}

func TestDiscoverFollowsLinksOnce(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sub, "s.jsonl"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(sub, "notes.txt"), []byte("x"), 0o644)
	// A loop back to the root, and a second way into b.
	os.Symlink(root, filepath.Join(sub, "loop"))
	os.Symlink(sub, filepath.Join(root, "again"))
	os.Symlink(filepath.Join(root, "missing"), filepath.Join(root, "dangling"))
	files, err := store.Discover([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || !strings.HasSuffix(files[0], "s.jsonl") {
		t.Errorf("files = %v", files)
	}
}

func TestPiSessionRoot(t *testing.T) {
	home := t.TempDir()
	env := store.Env{Home: home, WorkingDirPath: "/work"}
	if got, want := env.PiSessionRoot(), filepath.Join(home, ".pi", "agent", "sessions"); got != want {
		t.Errorf("default = %s, want %s", got, want)
	}
	env.PiAgentDir = filepath.Join(home, "agent")
	if got, want := env.PiSessionRoot(), filepath.Join(home, "agent", "sessions"); got != want {
		t.Errorf("agent dir = %s, want %s", got, want)
	}
	os.MkdirAll(env.PiAgentDir, 0o755)
	os.WriteFile(filepath.Join(env.PiAgentDir, "settings.json"), []byte(`{"sessionDir":"~/elsewhere"}`), 0o644)
	if got, want := env.PiSessionRoot(), filepath.Join(home, "elsewhere"); got != want {
		t.Errorf("settings = %s, want %s", got, want)
	}
	os.WriteFile(filepath.Join(env.PiAgentDir, "settings.json"), []byte(`{"sessionDir":"rel/dir"}`), 0o644)
	if got, want := env.PiSessionRoot(), "/work/rel/dir"; got != want {
		t.Errorf("relative settings = %s, want %s", got, want)
	}
	env.PiSessionDir = "/explicit"
	if got := env.PiSessionRoot(); got != "/explicit" {
		t.Errorf("env = %s", got)
	}
}

func TestDetect(t *testing.T) {
	cases := map[string]store.Format{
		`{"type":"session","version":3,"id":"x","cwd":"/"}`:            store.FormatPi,
		"\ufeff\n  \n" + `{"type":"session","id":"x"}`:                 store.FormatPi,
		`{"type":"meta","id":"x"}`:                                     store.FormatDhara05,
		`{"timestamp":"t","type":"session_meta","payload":{}}`:         store.FormatCodex,
		`{"id":"x","timestamp":"t"}`:                                   store.FormatCodex,
		`{"parentUuid":null,"uuid":"u","sessionId":"s","type":"user"}`: store.FormatClaude,
		`{"hello":"world"}`:                                            store.FormatUnknown,
		"garbage\n" + `{"type":"session","id":"x"}`:                    store.FormatPi,
	}
	for in, want := range cases {
		if got := store.Detect([]byte(in)); got != want {
			t.Errorf("Detect(%.40q) = %q, want %q", in, got, want)
		}
	}
	for _, f := range []string{"claude/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", "codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "shared", "samples", f))
		if err != nil {
			t.Skip("shared samples not present")
		}
		if got := store.Detect(data); string(got) != strings.Split(f, "/")[0] {
			t.Errorf("%s detected as %q", f, got)
		}
	}
}

func TestListExtras(t *testing.T) {
	files, _ := store.Discover([]string{filepath.Join("..", "testdata", "pi", "store", "--home-dev-webapp--")})
	infos, _ := store.List(files, nil)
	byName := map[string]int{}
	for _, in := range infos {
		byName[in.Name+"|"+in.FirstMessage] = in.Branches
		if in.Model != "claude-sonnet-4-5" {
			t.Errorf("%s: model %q", in.Path, in.Model)
		}
	}
	// The branches fixture branches in place three times (one plain branch,
	// two with summaries), so it has four branches.
	if got := byName["Cache: Redis vs SQLite|Which database should we use for the cache: Redis or SQLite?"]; got != 4 {
		t.Errorf("branches = %d, want 4 (%v)", got, byName)
	}
}

// What a list record says of a session's content is read back as it was
// written, whatever follows it in a state, and a state cut short is bad.
func TestInfoContentRoundTrip(t *testing.T) {
	in := store.Info{Created: 1.5, Modified: 1e12, MessageCount: 7, FirstMessage: "hi \u2028", Entries: 9, Branches: 2, Model: "m"}
	e := stamp.Codec{}
	store.EncodeInfoContent(&e, &in)
	e.Str("after")
	var out store.Info
	d := stamp.Codec{B: e.B}
	store.DecodeInfoContent(&d, &out)
	if !reflect.DeepEqual(out, in) || d.ReadStr() != "after" || d.Bad || len(d.B) != 0 {
		t.Errorf("read back %+v, bad %v, %d bytes left", out, d.Bad, len(d.B))
	}
	d = stamp.Codec{B: e.B[:len(e.B)-len("after")-4]}
	if store.DecodeInfoContent(&d, &out); !d.Bad {
		t.Error("a state cut short reads as good")
	}
}

// A record's parent session (a Claude Code fork's source) is kept in the
// state listByStamp keeps: the list read again from it still has it.
func TestStampStateKeepsParent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "-sandbox-project")
	src := filepath.Join("..", "testdata", "agentgen", "claude", "fixtures", "fork", "home", ".claude", "projects", "-sandbox-project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"12c7b0d9-467e-47d7-9e9d-ac225bf4091c.jsonl", "1bc2d6f3-4f23-4caf-9a47-ab5bd35f9d92.jsonl"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := stamp.NowNs
	stamp.NowNs = func() int64 { return now() + 10*stamp.Slack } // every stamp settled
	t.Cleanup(func() { stamp.NowNs = now })
	fork := filepath.Join(dir, "1bc2d6f3-4f23-4caf-9a47-ab5bd35f9d92.jsonl")
	want := filepath.Join(dir, "12c7b0d9-467e-47d7-9e9d-ac225bf4091c.jsonl")
	b := store.FindBackend(fork)
	_, first, state, err := store.ListBy(b, fork, nil)
	if err != nil {
		t.Fatal(err)
	}
	if state == nil {
		t.Fatal("no state kept")
	}
	reads := store.FullReads.Load()
	_, again, _, err := store.ListBy(b, fork, state)
	if err != nil {
		t.Fatal(err)
	}
	if store.FullReads.Load() != reads {
		t.Error("the fork was read again")
	}
	for _, in := range []store.Info{first, again} {
		if in.ParentSession != want || !in.HasParent {
			t.Errorf("parent %q (%v), want %q", in.ParentSession, in.HasParent, want)
		}
	}
}
