package pi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"skein/internal/formattest"
)

func TestMain(m *testing.M) {
	switch {
	case os.Getenv("SKEIN_TEST_WRITER") != "":
		writerProcess(os.Getenv("SKEIN_TEST_WRITER"))
		return
	case os.Getenv("SKEIN_TEST_FORK") != "":
		forkProcess(os.Getenv("SKEIN_TEST_FORK"))
		return
	}
	os.Exit(m.Run())
}

// fakeClock stands in for the wait's clock: a sleep moves it on at once,
// then runs step (the other writer's move after n sleeps, if any).
type fakeClock struct {
	t      time.Time
	sleeps int
	step   func(n int)
}

func useFakeClock(t *testing.T, step func(n int)) *fakeClock {
	t.Helper()
	c := &fakeClock{t: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), step: step}
	old := waitRules
	waitRules.now = func() time.Time { return c.t }
	waitRules.sleep = func(d time.Duration) {
		c.t = c.t.Add(d)
		c.sleeps++
		if c.step != nil {
			c.step(c.sleeps)
		}
	}
	t.Cleanup(func() { waitRules = old })
	return c
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// agentLine is an entry an agent writes, cut in three: the start, the part
// that grows, the end.
func agentLine(id, parent string) (start, end string) {
	return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"`,
		`","timestamp":1772445600000}}` + "\n"
}

func leafID(t *testing.T, path string) string {
	t.Helper()
	s := parse(t, path)
	return s.Entries[s.Leaf()].ID
}

// checkAfterAgent checks that the file is before + the agent's whole line +
// skein's entry, a child of the agent's.
func checkAfterAgent(t *testing.T, path string, before []byte, agent, id string) {
	t.Helper()
	after := formattest.ReadFile(t, path)
	if !bytes.HasPrefix(after, before) {
		t.Fatal("earlier bytes changed")
	}
	rest := string(after[len(before):])
	if !strings.HasPrefix(rest, agent) {
		t.Fatalf("the agent's line was cut:\n%q", rest)
	}
	mine := strings.TrimPrefix(rest, agent)
	if !strings.HasPrefix(mine, `{"type":"session_info","id":"`+id+`"`) || strings.Count(mine, "\n") != 1 || !strings.HasSuffix(mine, "\n") {
		t.Fatalf("skein's line: %q", mine)
	}
	s := parse(t, path)
	if len(s.Diagnostics) != 0 {
		t.Errorf("diagnostics %v", s.Diagnostics)
	}
	if p := s.Parent(s.Leaf()); p < 0 || s.Entries[p].ID != "agent001" {
		t.Errorf("skein's entry is not a child of the agent's")
	}
}

// An agent is writing a line when skein appends: skein waits for the line
// to end and appends after it, without waiting for the still period.
func TestAppendWaitsForTheLineBeingWritten(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	before := formattest.ReadFile(t, path)
	start, end := agentLine("agent001", leafID(t, path))
	appendTo(t, path, start+"half")
	c := useFakeClock(t, func(n int) {
		switch {
		case n < 5:
			appendTo(t, path, " more")
		case n == 5:
			appendTo(t, path, end)
		}
	})
	waits := 0
	id, err := Rename(path, "mine", OnWait(func() { waits++ }))
	if err != nil {
		t.Fatal(err)
	}
	checkAfterAgent(t, path, before, start+"half more more more more"+end, id)
	if c.sleeps != 5 || waits != 1 {
		t.Errorf("%d polls, %d wait notes; want 5 and 1", c.sleeps, waits)
	}
}

// A partial line that does not change is a crashed writer's only after the
// still period; then a newline goes first.
func TestAppendAfterAStillPartialLine(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	good := leafID(t, path)
	start, _ := agentLine("agent001", good)
	appendTo(t, path, start+"cut")
	partial := formattest.ReadFile(t, path)
	for _, grow := range []int{0, 30} { // still from the start; still after 3 s of growth
		os.WriteFile(path, partial, 0o644)
		c := useFakeClock(t, func(n int) {
			if n <= grow {
				appendTo(t, path, "x")
			}
		})
		id, err := Rename(path, "after the crash")
		if err != nil {
			t.Fatal(err)
		}
		if still := waitRules.still / waitRules.poll; c.sleeps != grow+int(still) {
			t.Errorf("grow %d: %d polls, want %d", grow, c.sleeps, grow+int(still))
		}
		after := formattest.ReadFile(t, path)
		cut := len(partial) + grow
		if !bytes.HasPrefix(after, partial) || !bytes.HasPrefix(after[cut:], []byte("\n{\"type\":\"session_info\",\"id\":\""+id+`"`)) {
			t.Errorf("grow %d: not a fresh line after the partial one: %q", grow, after[len(partial):])
		}
		s := parse(t, path)
		if p := s.Parent(s.Leaf()); s.Entries[p].ID != good || s.Name() != "after the crash" {
			t.Errorf("grow %d: parent %s, name %q", grow, s.Entries[p].ID, s.Name())
		}
	}
}

// A file whose last line keeps changing is refused after the limit, with
// nothing written. So is one that stopped changing too late to be found
// still within the limit.
func TestAppendRefusesAFileStillBeingWritten(t *testing.T) {
	for _, stop := range []int{-1, 90} { // never; at 9 s
		path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
		start, _ := agentLine("agent001", leafID(t, path))
		appendTo(t, path, start)
		c := useFakeClock(t, func(n int) {
			if stop < 0 || n <= stop {
				appendTo(t, path, "x")
			}
		})
		_, err := Label(path, leafID(t, path), "nope")
		var r *RefusedError
		if !errors.As(err, &r) || !strings.Contains(r.Reason, "the file is being written; try again") {
			t.Fatalf("stop %d: err %v", stop, err)
		}
		if limit := int(waitRules.limit / waitRules.poll); c.sleeps != limit {
			t.Errorf("stop %d: gave up after %d polls, want %d", stop, c.sleeps, limit)
		}
		if after := formattest.ReadFile(t, path); bytes.Contains(after, []byte(`"nope"`)) || after[len(after)-1] != 'x' {
			t.Errorf("stop %d: skein wrote: %q", stop, after[len(after)-40:])
		}
	}
}

// An agent appends whole lines while skein makes its own: the entry's
// parent is the last entry at the moment of writing, not at the first read.
func TestAppendFollowsLinesAddedWhileItBuilds(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	useFakeClock(t, nil)
	builds := 0
	id, err := Append(path, func(s *Session) (NewEntry, error) {
		builds++
		if builds == 1 {
			start, end := agentLine("agent001", s.Entries[s.Leaf()].ID)
			appendTo(t, path, start+"meanwhile"+end)
		}
		return NewEntry{Type: TypeSessionInfo, Fields: []Field{{Key: "name", Value: jsonString("n")}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := parse(t, path)
	if builds != 2 || s.Entries[s.Leaf()].ID != id || s.Entries[s.Parent(s.Leaf())].ID != "agent001" {
		t.Errorf("%d builds; the entry follows %s", builds, s.Entries[s.Parent(s.Leaf())].ID)
	}
}

func TestWaitRules(t *testing.T) {
	if waitRules.poll != 100*time.Millisecond || waitRules.still != 2*time.Second || waitRules.limit != 10*time.Second {
		t.Errorf("rules %+v", waitRules)
	}
}

// ---- a real writer in another process ---------------------------------------

// writerProcess appends to path what each line of stdin says (a Go quoted
// string), one write each, and answers "ok" after each.
func writerProcess(path string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		s, err := strconv.Unquote(sc.Text())
		if err == nil {
			_, err = f.WriteString(s)
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("ok")
	}
}

// writer is the other process, an agent writing to a session.
type writer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startWriter(t *testing.T, path string) *writer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SKEIN_TEST_WRITER="+path)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &writer{cmd, in, bufio.NewReader(out)}
	t.Cleanup(func() { w.cmd.Process.Kill(); w.cmd.Wait() })
	return w
}

// write has the writer append s and waits until it has.
func (w *writer) write(t *testing.T, s string) {
	if _, err := fmt.Fprintln(w.in, strconv.Quote(s)); err != nil {
		t.Error(err)
		return
	}
	if line, err := w.out.ReadString('\n'); err != nil || line != "ok\n" {
		t.Errorf("writer: %q %v", line, err)
	}
}

// realRules shortens the wait for the tests with a real writer; the clock
// is the real one.
func realRules(t *testing.T) {
	old := waitRules
	waitRules.poll, waitRules.still, waitRules.limit = 10*time.Millisecond, 500*time.Millisecond, 1500*time.Millisecond
	t.Cleanup(func() { waitRules = old })
}

type result struct {
	id  string
	err error
	at  time.Duration
}

// renameAsync renames in the background and returns once the append waits
// for the line; it fails the test if the append ends without waiting.
func renameAsync(t *testing.T, path string) <-chan result {
	t.Helper()
	r := make(chan result, 1)
	w := make(chan struct{})
	go func() {
		t0 := time.Now()
		id, err := Rename(path, "mine", OnWait(func() { close(w) }))
		r <- result{id, err, time.Since(t0)}
	}()
	select {
	case <-w:
	case res := <-r:
		t.Fatalf("the append did not wait for the partial line: %v", res.err)
	}
	return r
}

// A live agent writes a line in pieces, with pauses shorter than the still
// period, while skein appends: skein's entry comes after the whole line.
func TestLiveWriterGrowingLine(t *testing.T) {
	realRules(t)
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	before := formattest.ReadFile(t, path)
	w := startWriter(t, path)
	start, end := agentLine("agent001", leafID(t, path))
	w.write(t, start+"half")
	res := renameAsync(t, path)
	for i := 0; i < 10; i++ {
		time.Sleep(20 * time.Millisecond)
		w.write(t, " more")
		select {
		case r := <-res:
			t.Fatalf("skein wrote while the line grew: %v %q", r.err, formattest.ReadFile(t, path)[len(before):])
		default:
		}
	}
	w.write(t, end)
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	checkAfterAgent(t, path, before, start+"half"+strings.Repeat(" more", 10)+end, r.id)
}

// A live agent that keeps writing one line past the limit: skein refuses
// and writes nothing.
func TestLiveWriterPastTheLimit(t *testing.T) {
	realRules(t)
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	before := formattest.ReadFile(t, path)
	w := startWriter(t, path)
	start, _ := agentLine("agent001", leafID(t, path))
	w.write(t, start)
	res := renameAsync(t, path)
	var r result
	n := 0
	for done := false; !done; {
		select {
		case r = <-res:
			done = true
		case <-time.After(20 * time.Millisecond):
			w.write(t, "x")
			n++
		}
	}
	var ref *RefusedError
	if !errors.As(r.err, &ref) || !strings.Contains(ref.Reason, "the file is being written; try again") {
		t.Fatalf("err %v", r.err)
	}
	if after := formattest.ReadFile(t, path); string(after) != string(before)+start+strings.Repeat("x", n) {
		t.Errorf("the file is not just the writer's: %q", after[len(before):])
	}
}

// An agent killed mid-line: after the still period skein starts a fresh
// line, and its entry follows the last whole one.
func TestLiveWriterKilledMidLine(t *testing.T) {
	realRules(t)
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	good := leafID(t, path)
	w := startWriter(t, path)
	start, _ := agentLine("agent001", good)
	w.write(t, start+"cut sh")
	partial := formattest.ReadFile(t, path)
	res := renameAsync(t, path)
	w.cmd.Process.Kill()
	w.cmd.Wait()
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.at < waitRules.still {
		t.Errorf("wrote after %v, before the still period", r.at)
	}
	after := formattest.ReadFile(t, path)
	if !bytes.HasPrefix(after, partial) || !bytes.HasPrefix(after[len(partial):], []byte("\n{\"type\":\"session_info\",\"id\":\""+r.id+`"`)) {
		t.Errorf("not a fresh line after the cut one: %q", after[len(partial):])
	}
	s := parse(t, path)
	if p := s.Parent(s.Leaf()); s.Entries[p].ID != good {
		t.Errorf("parent %s, want %s", s.Entries[p].ID, good)
	}
}
