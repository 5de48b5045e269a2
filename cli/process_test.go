package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"skein/internal/synth"
)

// Tests here run skein as a process, as a person runs it: under a limit of
// address space and a timeout, so that a command that would grow without
// bound or never return fails the test cleanly instead of taking the
// machine down with it; or as another user.

// memLimit is the address space a process may use (prlimit --as): a command
// that needs more on these small inputs is not bounded in memory.
const memLimit = "2147483648"

// processTimeout is how long one command may take on the inputs here (they
// take milliseconds; the margin is for a busy machine).
const processTimeout = 20 * time.Second

var built struct {
	once      sync.Once
	dir, path string
	err       error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// skeinBinary builds skein once per test run into a folder anyone may read
// (the tests that run it as an unprivileged user need to).
func skeinBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "skein-bin-"); built.err != nil {
			return
		}
		if built.err = os.Chmod(built.dir, 0o755); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "skein")
		out, err := exec.Command("go", "build", "-o", built.path, "..").CombinedOutput()
		if err != nil {
			built.err = errors.New(string(out))
		}
	})
	if built.err != nil {
		t.Fatalf("go build: %v", built.err)
	}
	return built.path
}

type result struct {
	stdout, stderr string
	code           int
}

// runProcess runs the built skein with args under prlimit and a timeout,
// with an empty home, and fails the test when it times out or dies of a
// signal. setup, when not nil, adjusts the command (user, environment).
func runProcess(t *testing.T, setup func(*exec.Cmd), args ...string) result {
	t.Helper()
	bin := skeinBinary(t)
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), processTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, append([]string{"--as=" + memLimit, "--", bin}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "PI_CODING_AGENT_DIR=", "PI_CODING_AGENT_SESSION_DIR=", "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if setup != nil {
		setup(cmd)
	}
	err = cmd.Run()
	r := result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
	if ctx.Err() != nil {
		t.Fatalf("skein %s: still running after %v", strings.Join(args, " "), processTimeout)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("skein %s: killed by %v; stderr: %.300s", strings.Join(args, " "), ws.Signal(), r.stderr)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("skein %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// checkClean fails the test unless the process exited 0 or 1 with at most
// one line on stderr and no trace of a crash.
func checkClean(t *testing.T, r result, args ...string) {
	t.Helper()
	if r.code != 0 && r.code != 1 {
		t.Errorf("skein %s: exit %d; stderr: %.300s", strings.Join(args, " "), r.code, r.stderr)
	}
	if strings.Count(r.stderr, "\n") > 1 || strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "fatal error") || strings.Contains(r.stderr, "panic") {
		t.Errorf("skein %s: stderr is not one line: %.300q", strings.Join(args, " "), r.stderr)
	}
}

// A session read as the largest are (8 MB and more), compacted with the
// collector running all the time (GOGC=1): the leaf's id, read before the
// session was dropped, is compared after it was collected. When the memory
// went with the session, this faulted or refused with a garbled id.
func TestCompactLargeSessionProcess(t *testing.T) {
	skeinBinary(t) // (or skip before writing 9 MB)
	src := filepath.Join(t.TempDir(), "big.jsonl")
	if err := synth.Session(src, "/home/dev/big", 9<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 9); err != nil {
		t.Fatal(err)
	}
	env := func(cmd *exec.Cmd) { cmd.Env = append(cmd.Env, "GOGC=1", "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=") }
	for range 2 {
		f := copyInto(t, src)
		args := []string{"session", "compact", "--summarizer", "extractive", f}
		r := runProcess(t, env, args...)
		checkClean(t, r, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "compacted: ") {
			t.Errorf("exit %d: %s%.300s", r.code, r.stdout, r.stderr)
		}
	}
}

// deepSession writes a session whose tool call has args as its arguments.
func deepSession(t *testing.T, name, args string) string {
	t.Helper()
	lines := []string{
		`{"type":"session","version":3,"id":"019cadc6-0000-7000-8000-00000000d33f","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/home/dev/deep"}`,
		`{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":"go deep","timestamp":1772359201000}}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"mytool","arguments":` + args + `}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1772359202000}}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"mytool","content":[{"type":"text","text":"done"}],"isError":false,"timestamp":1772359203000}}`,
		`{"type":"message","id":"a0000004","parentId":"a0000003","timestamp":"2026-03-01T10:00:04.000Z","message":{"role":"user","content":"and again","timestamp":1772359204000}}`,
	}
	f := filepath.Join(t.TempDir(), name+".jsonl")
	if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// JSON nested 100,000 deep in a tool call's arguments (a 200 KB file): every
// command answers in time, within the memory limit. show --tools indented
// each level two spaces more (20 GB), and token estimates skipped each
// nested value once per level above it (minutes).
func TestDeepNestingProcess(t *testing.T) {
	const depth = 100_000
	arr := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	files := map[string]string{
		"member":  deepSession(t, "member", `{"x":`+arr+`}`),
		"array":   deepSession(t, "array", arr),
		"objects": deepSession(t, "objects", strings.Repeat(`{"a":`, depth)+"1"+strings.Repeat("}", depth)),
	}
	for name, f := range files {
		for _, args := range [][]string{
			{"session", "list", f}, {"session", "list", "--json", f},
			{"session", "context", f}, {"session", "context", "--json", f},
			{"session", "tree", f}, {"session", "tree", "--json", f},
			{"session", "show", f}, {"session", "show", "--tools", f},
			{"session", "plan", f}, {"session", "plan", "--json", "--keep-tokens", "1", f},
			{"session", "compact", "--dry-run", "--summarizer", "extractive", f},
			{"session", "compact", "--dry-run", "--summarizer", "extractive", "--keep-tokens", "1", f},
			{"session", "replay", "--no-delay", f},
			{"doctor", f},
		} {
			t.Run(name+" "+strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
				t.Parallel()
				r := runProcess(t, nil, args...)
				checkClean(t, r, args...)
				if r.code != 0 {
					t.Errorf("exit %d: %.300s", r.code, r.stderr)
				}
			})
		}
	}
}

// A named pipe, a device or a folder named where a session is wanted is
// refused at once with one line, exit status 1: reading a pipe waited for a
// writer forever, and /dev/zero was read until memory ran out. The commands
// that write (and delete, which moved /dev/zero to a trash when it was
// named) are given only the test's own pipe and folder.
func TestNotAFileProcess(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	reads := func(path string) [][]string {
		return [][]string{
			{"session", "context", "--json", path}, {"session", "context", path}, {"session", "tree", path},
			{"session", "show", path}, {"session", "plan", path}, {"session", "replay", "--no-delay", path},
			{"session", "compact", "--dry-run", "--summarizer", "extractive", path},
		}
	}
	writes := func(path string) [][]string {
		return [][]string{
			{"session", "compact", "--summarizer", "extractive", path}, {"session", "fork", "--at", "x", path},
			{"session", "label", path, "x", "y"}, {"session", "rename", path, "n"}, {"session", "delete", path},
		}
	}
	paths := func(path string) [][]string { return [][]string{{"session", "list", path}, {"doctor", path}} }
	cases := map[string][][]string{
		"named pipe": append(append(reads(fifo), writes(fifo)...), paths(fifo)...),
		"device":     append(reads("/dev/zero"), paths("/dev/zero")...),
		"folder":     append(reads(dir), writes(dir)...), // a folder is a PATH to search
	}
	for kind, cmds := range cases {
		for _, args := range cmds {
			name := kind
			for _, a := range args {
				if !strings.HasPrefix(a, "/") {
					name += " " + a
				}
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				r := runProcess(t, nil, args...)
				checkClean(t, r, args...)
				msg := r.stderr
				if args[0] == "doctor" {
					msg = r.stdout
				}
				if r.code != 1 || !strings.Contains(msg, kind) {
					t.Errorf("exit %d, stdout %.200q, stderr %.200q: want 1 and a word of the %s", r.code, r.stdout, r.stderr, kind)
				}
			})
		}
	}
	if st, err := os.Stat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe is gone: %v", err)
	}
}

// Run as an unprivileged user (the tests run as root in CI, and root reads
// anything), list names each folder and file it cannot read on stderr, one
// line each, lists the rest and exits 1; doctor reports them as problems.
// Both left them out without a word.
func TestUnreadableAsUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run skein as uid 65534")
	}
	root := t.TempDir()
	store := filepath.Join(root, "store")
	src, _ := os.ReadFile(fixture(t, webapp, "2026-03-02"))
	for _, f := range []string{"ok/a.jsonl", "ok/c.jsonl", "locked/b.jsonl"} {
		os.MkdirAll(filepath.Join(store, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(store, f), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(store, "ok/c.jsonl"), 0)
	os.Chmod(filepath.Join(store, "locked"), 0)
	t.Cleanup(func() { os.Chmod(filepath.Join(store, "locked"), 0o755) })
	// The temporary folders are root's alone: open the way down.
	for p := root; p != filepath.Dir(p) && p != os.TempDir(); p = filepath.Dir(p) {
		os.Chmod(p, 0o755)
	}
	nobody := func(cmd *exec.Cmd) {
		cmd.Dir = root
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	unreadable := []string{filepath.Join(store, "locked"), filepath.Join(store, "ok", "c.jsonl")}
	checkWarnings := func(t *testing.T, stderr string) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) != len(unreadable) {
			t.Fatalf("stderr has %d lines, want one for each of %v:\n%s", len(lines), unreadable, stderr)
		}
		for _, p := range unreadable {
			if !strings.Contains(stderr, "skein: "+p+": cannot read: permission denied\n") {
				t.Errorf("stderr does not name %s:\n%s", p, stderr)
			}
		}
	}
	r := runProcess(t, nobody, "session", "list", store)
	if r.code != 1 || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, "Health endpoint") {
		t.Errorf("list: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	checkWarnings(t, r.stderr)
	r = runProcess(t, nobody, "session", "list", "--json", store)
	var infos []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &infos); err != nil || len(infos) != 1 || r.code != 1 {
		t.Errorf("list --json: exit %d, %d records (%v)", r.code, len(infos), err)
	}
	checkWarnings(t, r.stderr)

	r = runProcess(t, nobody, "doctor", store)
	for _, p := range unreadable {
		if !strings.Contains(r.stdout, p+": cannot read: permission denied\n") {
			t.Errorf("doctor does not report %s:\n%s", p, r.stdout)
		}
	}
	if r.code != 1 || !strings.Contains(r.stdout, "2 sessions checked, 2 problems") {
		t.Errorf("doctor: exit %d:\n%s", r.code, r.stdout)
	}
	r = runProcess(t, nobody, "doctor", "--json", store)
	var report []struct {
		Path string
		OK   bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || len(report) != 3 || r.code != 1 {
		t.Errorf("doctor --json: exit %d, %d entries (%v):\n%s", r.code, len(report), err, r.stdout)
	}
}

// Several skein processes indexing the same store into the same cache
// folder at once (searches and lists, started together, several rounds)
// each print what reading every file prints, and leave indexes that do.
func TestIndexingProcessesAtOnce(t *testing.T) {
	bin := skeinBinary(t)
	store := t.TempDir()
	if err := synth.CopyTree("../testdata/pi/store", store); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	run := func(env []string, args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), append([]string{"HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + cache, "NO_COLOR=1"}, env...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("skein %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	queries := []string{"the", `"the file"`, `re:[Ee]rror`}
	want := map[string]string{}
	for _, q := range queries {
		want[q] = run([]string{"SKEIN_INDEX=off"}, "search", "--json", "--limit", "0", q, store)
	}
	wantList := run([]string{"SKEIN_INDEX=off"}, "session", "list", "--json", store)
	for round := range 3 {
		var wg sync.WaitGroup
		for k := range 6 {
			wg.Go(func() {
				if k%3 == 2 {
					if got := run(nil, "session", "list", "--json", store); got != wantList {
						t.Errorf("round %d: a list differs", round)
					}
					return
				}
				q := queries[(k+round)%len(queries)]
				if got := run(nil, "search", "--json", "--limit", "0", q, store); got != want[q] {
					t.Errorf("round %d: %s differs from reading every file", round, q)
				}
			})
		}
		wg.Wait()
	}
	if segs, _ := filepath.Glob(filepath.Join(cache, "skein", "text", "seg-*.ft")); len(segs) == 0 {
		t.Error("no text index was written")
	}
}
