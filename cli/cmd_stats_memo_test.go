package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/stamp"
	"skein/tui/transcript"
)

// statsStore is a store of every format's fixtures (a Claude Code session
// with its sub-agents' logs, Dhara folders) in a folder of the test's,
// with a clock moved on so that the files count as settled.
func statsStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, src := range []string{"../testdata/pi/store", "../testdata/claude", "../testdata/codex", "../testdata/dhara/store"} {
		if err := os.CopyFS(filepath.Join(dir, filepath.Base(filepath.Dir(src))+"-"+filepath.Base(src)), os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	settledClock(t)
	return dir
}

// settledClock moves the clock on a minute, so that files written by the
// test count as settled (stamp.Slack).
func settledClock(tb testing.TB) {
	now := stamp.NowNs
	stamp.NowNs = func() int64 { return time.Now().Add(time.Minute).UnixNano() }
	tb.Cleanup(func() { stamp.NowNs = now })
}

// statsRuns is every stats output over dir: each grouping, text and JSON.
func statsRuns(t *testing.T, home, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, by := range []string{"session", "project", "model", "day"} {
		for _, json := range []bool{false, true} {
			args := []string{"stats", "--by", by, dir}
			if json {
				args = append(args, "--json")
			}
			out, stderr, code := skeinIn(t, home, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d %s", args, code, stderr)
			}
			fmt.Fprintf(&b, "%v\n%s\n", args, out)
		}
	}
	return b.String()
}

// A warm stats reads no session (the memo in the cache folder has them
// all) and prints byte for byte what a cold one printed, every grouping,
// text and JSON; a session that changed is read again, alone, and the
// figures are then those of a run without the memo.
func TestStatsWarmReadsNoSession(t *testing.T) {
	dir := statsStore(t)
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("SKEIN_INDEX", "")
	t.Setenv("TZ", "")
	before := statsReads.Load()
	cold := statsRuns(t, home, dir)
	if statsReads.Load() == before {
		t.Fatal("the cold runs read nothing")
	}
	if _, err := os.Stat(filepath.Join(home, ".cache", "skein", "stats.memo")); err != nil {
		t.Fatalf("no memo: %v", err)
	}
	before = statsReads.Load()
	warm := statsRuns(t, home, dir)
	if n := statsReads.Load() - before; n != 0 {
		t.Errorf("the warm runs read %d sessions", n)
	}
	if warm != cold {
		t.Errorf("warm runs differ from cold ones:\n%s\n---\n%s", warm, cold)
	}

	// A pi session with a message more, and a Claude Code sub-agent's log
	// that grew while its session's own log did not.
	pi := filepath.Join(dir, "pi-store", "--home-dev-webapp--", "2026-03-02T09-00-00-000Z_019cadc6-9a80-7550-a789-649ae3e60458.jsonl")
	agent := filepath.Join(dir, "testdata-claude", "7d1c0e2f-5a6b-4c7d-8e9f-a0b1c2d3e4f5", "subagents", "agent-jobs2.jsonl")
	for _, f := range []string{pi, agent} {
		appendLastLine(t, f)
	}
	before = statsReads.Load()
	changed := statsRuns(t, home, dir)
	if n := statsReads.Load() - before; n != 2 {
		t.Errorf("after two sessions changed, the runs read %d sessions, want 2 (the first run)", n)
	}
	t.Setenv("SKEIN_INDEX", "off")
	if fresh := statsRuns(t, t.TempDir(), dir); changed != fresh {
		t.Errorf("after a change, the memo's figures are not a cold run's:\n%s\n---\n%s", changed, fresh)
	}
	if changed == cold {
		t.Error("the changes changed no figure")
	}
}

// appendLastLine appends a copy of the file's last line, with a new id
// where it has one.
func appendLastLine(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	last := lines[len(lines)-1]
	var rec map[string]any
	if err := json.Unmarshal([]byte(last), &rec); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "uuid"} {
		if id, ok := rec[k].(string); ok {
			rec["parentId"], rec["parentUuid"] = id, id
			rec[k] = id[:len(id)-4] + "beef"
		}
	}
	if rec["parentId"] != nil && rec["uuid"] != nil {
		delete(rec, "parentId")
	} else if rec["parentUuid"] != nil && rec["id"] != nil {
		delete(rec, "parentUuid")
	}
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
}

// stats --json has the total the text table ends with: the same sessions,
// messages, tool calls, tokens and cost, in every grouping.
func TestStatsJSONTotalIsTheTables(t *testing.T) {
	dir := statsStore(t)
	for _, by := range []string{"session", "project", "model", "day"} {
		out, stderr, code := skein(t, "stats", "--json", "--by", by, dir)
		if code != 0 {
			t.Fatalf("--by %s: exit %d %s", by, code, stderr)
		}
		var doc struct {
			Rows  []json.RawMessage
			Total *struct {
				Sessions, TotalMessages, ToolCalls   int
				Input, Output, CacheRead, CacheWrite float64
				Tokens                               json.RawMessage
				Cost                                 float64
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Total == nil || len(doc.Rows) == 0 {
			t.Fatalf("--by %s: %v\n%s", by, err, out)
		}
		tot := doc.Total
		if by != "model" {
			var tok struct{ Input, Output, CacheRead, CacheWrite float64 }
			json.Unmarshal(tot.Tokens, &tok)
			tot.Input, tot.Output, tot.CacheRead, tot.CacheWrite = tok.Input, tok.Output, tok.CacheRead, tok.CacheWrite
		}
		text, _, _ := skein(t, "stats", "--by", by, dir)
		lines := strings.Split(strings.TrimSpace(text), "\n")
		var foot []string
		for _, l := range lines {
			if strings.HasPrefix(l, "total ") {
				foot = strings.Fields(l)
			}
		}
		want := []string{"total", fmt.Sprint(tot.Sessions)}
		if by == "session" {
			want = append(want, "sessions")
		}
		if by != "model" {
			want = append(want, fmt.Sprint(tot.TotalMessages), fmt.Sprint(tot.ToolCalls))
		}
		want = append(want, transcript.Tokens(tot.Input), transcript.Tokens(tot.Output), transcript.Tokens(tot.CacheRead),
			transcript.Tokens(tot.CacheWrite), transcript.Cost(tot.Cost))
		if len(foot) < len(want) || strings.Join(foot[:len(want)], " ") != strings.Join(want, " ") {
			t.Errorf("--by %s: the table's total\n%q\nthe JSON's\n%q", by, foot, want)
		}
	}
}
