package dhara

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"skein/internal/formattest"
)

// The archive move killed at random moments (DECISIONS.md 9): a reader
// never loses or duplicates an entry, and the next move finishes it. The
// mover is this test binary run again with moverEnv set.

const (
	moverEnv      = "SKEIN_DHARA_MOVER"       // the session folder to move
	moverPauseEnv = "SKEIN_DHARA_MOVER_PAUSE" // µs the mover sleeps between the renames
	killSeedEnv   = "SKEIN_DHARA_KILL_SEED"   // the seed of the kill test's delays
)

// compactedFixture is a session with two compactions and no archive yet.
const compactedFixture = "../../testdata/dhara/store/compacted"

func TestMain(m *testing.M) {
	if dir := os.Getenv(moverEnv); dir != "" {
		os.Exit(moverProcess(dir))
	}
	if root := os.Getenv(stagerEnv); root != "" {
		os.Exit(stagerProcess(root))
	}
	os.Exit(m.Run())
}

// moverProcess is the mover: it says it is ready ('r' on stdout), waits for
// a byte on stdin, then moves dir's archive at once; between the two
// renames it says so ('a') and sleeps the pause, so that kills land there
// too; at the end it says it is done ('d').
func moverProcess(dir string) int {
	stillFor = 0
	pause, _ := strconv.Atoi(os.Getenv(moverPauseEnv))
	afterArchive = func() {
		os.Stdout.Write([]byte{'a'})
		time.Sleep(time.Duration(pause) * time.Microsecond)
	}
	if _, err := os.Stdout.Write([]byte{'r'}); err != nil {
		return 3
	}
	var go1 [1]byte
	if _, err := io.ReadFull(os.Stdin, go1[:]); err != nil {
		return 3
	}
	if _, err := Move(dir); err != nil {
		fmt.Fprintln(os.Stderr, "move:", err)
		return 2
	}
	os.Stdout.Write([]byte{'d'})
	return 0
}

// copyFixture copies the session folder src's files into dir/<base of src>.
func copyFixture(t *testing.T, src, dir string) string {
	t.Helper()
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		data, err := os.ReadFile(filepath.Join(src, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, de.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// readerView is what a reader makes of a session folder: each entry's line
// by id, the tree (every entry's parent) and the leaf.
type readerView struct {
	lines   map[string]string
	parents map[string]string
	leaf    string
}

func viewOf(t *testing.T, dir string) (readerView, *Session) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	v := readerView{lines: map[string]string{}, parents: map[string]string{}}
	for i := range s.Entries {
		e := &s.Entries[i]
		if _, dup := v.lines[e.ID]; dup {
			t.Errorf("Open: %s twice in Entries", e.ID)
		}
		v.lines[e.ID] = string(e.Raw)
		if p := s.parent[i]; p >= 0 {
			v.parents[e.ID] = s.Entries[p].ID
		}
	}
	if s.leaf >= 0 {
		v.leaf = s.Entries[s.leaf].ID
	}
	for _, d := range s.Duplicates {
		if !d.SameBytes {
			t.Errorf("Open: %s:%d is another line with the id %s", d.Entry.File(), d.Entry.Line, d.Entry.ID)
		}
	}
	for _, d := range s.Diagnostics {
		t.Errorf("Open: %s:%d: %s", d.File, d.Line, d.Msg)
	}
	return v, s
}

// sameView reports how got differs from want ("" for not at all).
func sameView(want, got readerView) string {
	var out []string
	for id, line := range want.lines {
		switch g, ok := got.lines[id]; {
		case !ok:
			out = append(out, id+" lost")
		case g != line:
			out = append(out, id+" changed: "+g)
		}
	}
	for id := range got.lines {
		if _, ok := want.lines[id]; !ok {
			out = append(out, id+" appeared")
		}
	}
	for id, p := range want.parents {
		if got.parents[id] != p {
			out = append(out, fmt.Sprintf("the parent of %s is %q, was %q", id, got.parents[id], p))
		}
	}
	if len(got.parents) != len(want.parents) {
		out = append(out, fmt.Sprintf("%d entries have a parent, were %d", len(got.parents), len(want.parents)))
	}
	if got.leaf != want.leaf {
		out = append(out, fmt.Sprintf("the leaf is %q, was %q", got.leaf, want.leaf))
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// moveFiles are a session folder's files before and after a whole move.
type moveFiles struct {
	meta, tree, entries []byte // before (meta.json and tree.json stay)
	archive, remaining  []byte // after
	moved               int
}

func readOr(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return data
}

// referenceMove moves a copy of the fixture in this process, uninterrupted.
func referenceMove(t *testing.T) (moveFiles, readerView) {
	t.Helper()
	dir := copyFixture(t, compactedFixture, t.TempDir())
	var f moveFiles
	f.meta, f.tree, f.entries = readOr(t, filepath.Join(dir, MetaFile)), readOr(t, filepath.Join(dir, TreeFile)), readOr(t, filepath.Join(dir, EntriesFile))
	if _, err := os.Stat(filepath.Join(dir, ArchiveFile)); err == nil {
		t.Fatalf("%s already has an archive", compactedFixture)
	}
	ref, _ := viewOf(t, dir)
	n, err := Move(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("the reference move moved %d lines", n)
	}
	f.archive, f.remaining, f.moved = readOr(t, filepath.Join(dir, ArchiveFile)), readOr(t, filepath.Join(dir, EntriesFile)), n
	if got, _ := viewOf(t, dir); sameView(ref, got) != "" {
		t.Fatalf("the reference move: %s", sameView(ref, got))
	}
	return f, ref
}

func zeroStillFor(t *testing.T) {
	old := stillFor
	stillFor = 0
	t.Cleanup(func() { stillFor = old })
}

// The states a killed move leaves.
const (
	stateNothing  = iota // entries.jsonl as it was, no archive.jsonl
	stateArchived        // archive.jsonl written, entries.jsonl as it was
	stateDone            // both written
	nStates
)

var stateNames = [nStates]string{"nothing moved", "archive written, entries not yet", "done"}

// stateOf says which state the folder is in, or fails.
func stateOf(t *testing.T, dir string, f moveFiles) (int, error) {
	if !bytes.Equal(readOr(t, filepath.Join(dir, MetaFile)), f.meta) || !bytes.Equal(readOr(t, filepath.Join(dir, TreeFile)), f.tree) {
		return 0, errors.New("meta.json or tree.json changed")
	}
	archive := readOr(t, filepath.Join(dir, ArchiveFile))
	entries := readOr(t, filepath.Join(dir, EntriesFile))
	switch {
	case archive == nil && bytes.Equal(entries, f.entries):
		return stateNothing, nil
	case bytes.Equal(archive, f.archive) && bytes.Equal(entries, f.entries):
		return stateArchived, nil
	case bytes.Equal(archive, f.archive) && bytes.Equal(entries, f.remaining):
		return stateDone, nil
	}
	return 0, fmt.Errorf("neither before, between nor after the renames:\n%s:\n%s\n%s:\n%s", ArchiveFile, archive, EntriesFile, entries)
}

// idsIn are the ids of a .jsonl file's lines.
func idsIn(data []byte) map[string]bool {
	out := map[string]bool{}
	eachLine(data, func(line []byte) {
		if id := lineID(line); id != "" {
			out[id] = true
		}
	})
	return out
}

// checkFinished checks a folder whose move has finished: the files of the
// uninterrupted move, no id in both, no temporary file, the same view.
func checkFinished(t *testing.T, dir string, f moveFiles, ref readerView) error {
	if st, err := stateOf(t, dir, f); err != nil || st != stateDone {
		return fmt.Errorf("not done (state %d): %v", st, err)
	}
	archived := idsIn(readOr(t, filepath.Join(dir, ArchiveFile)))
	for id := range idsIn(readOr(t, filepath.Join(dir, EntriesFile))) {
		if archived[id] {
			return fmt.Errorf("%s is in both files", id)
		}
	}
	if tmp := formattest.Names(t, dir, ".tmp"); len(tmp) > 0 {
		return fmt.Errorf("temporary files left: %v", tmp)
	}
	v, s := viewOf(t, dir)
	if d := sameView(ref, v); d != "" {
		return errors.New(d)
	}
	if len(s.Duplicates) > 0 {
		return fmt.Errorf("%d duplicates after the move", len(s.Duplicates))
	}
	return nil
}

// mover is a mover process, ready to move.
type mover struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    io.Reader
	stderr bytes.Buffer
}

func startMover(t *testing.T, dir string, pause time.Duration) *mover {
	t.Helper()
	m := &mover{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	// A race-detecting binary sleeps a second at exit (GORACE's
	// atexit_sleep_ms) unless told not to.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	m.cmd.Env = append(os.Environ(), moverEnv+"="+dir, moverPauseEnv+"="+strconv.FormatInt(pause.Microseconds(), 10), "GORACE="+gorace)
	m.cmd.Stderr = &m.stderr
	var err error
	if m.in, err = m.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if m.out, err = m.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan error, 1)
	go func() {
		var b [1]byte
		_, err := io.ReadFull(m.out, b[:])
		if err == nil && b[0] != 'r' {
			err = fmt.Errorf("the mover said %q", b[:])
		}
		ready <- err
	}()
	select {
	case err = <-ready:
	case <-time.After(20 * time.Second):
		err = errors.New("the mover is not ready after 20s")
	}
	if err != nil {
		m.cmd.Process.Kill()
		m.cmd.Wait()
		t.Fatalf("mover: %v (stderr: %s)", err, m.stderr.String())
	}
	return m
}

// await reads the mover's stdout up to the byte c.
func (m *mover) await(t *testing.T, c byte) {
	t.Helper()
	var b [1]byte
	for b[0] != c {
		if _, err := io.ReadFull(m.out, b[:]); err != nil {
			m.cmd.Process.Kill()
			m.cmd.Wait()
			t.Fatalf("mover: waiting for %q: %v (stderr: %s)", c, err, m.stderr.String())
		}
	}
}

// run has the mover start and kills it delay after the go (anchor 0) or
// after it said anchor ('a': the archive renamed); with delay < 0 it lets
// it finish and returns how long the move took (from the go to its 'd').
// killed is whether the kill found it still running.
func (m *mover) run(t *testing.T, anchor byte, delay time.Duration) (killed bool, took time.Duration) {
	t.Helper()
	t0 := time.Now()
	if _, err := m.in.Write([]byte{'g'}); err != nil {
		t.Fatal(err)
	}
	switch {
	case delay < 0:
		m.await(t, 'd')
		took = time.Since(t0)
	default:
		if anchor != 0 {
			m.await(t, anchor)
		}
		if delay > 0 {
			time.Sleep(delay)
		}
		m.cmd.Process.Kill() // SIGKILL; an error is a mover that has ended
	}
	err := m.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return false, took
	case delay >= 0 && errors.As(err, &ee) && !ee.Exited():
		return true, took // the signal
	}
	t.Fatalf("mover: %v (stderr: %s)", err, m.stderr.String())
	return false, took
}

// TestKillArchiveMove kills a mover at random moments, many times, and
// checks that a reader sees every entry once, as it was, in the same tree,
// after the kill and after the next move finished it.
func TestKillArchiveMove(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL: a killed process exits with a status")
	}
	zeroStillFor(t)
	f, ref := referenceMove(t)
	rounds := 200
	if testing.Short() {
		rounds = 30
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(killSeedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s: %v", killSeedEnv, err)
		}
	}
	// The seed gives the same draws again; the delays from the go scale
	// with the measured span, so a failure also names its delay and pause.
	t.Logf("seed %d (%s=%d draws the same again)", seed, killSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	base := t.TempDir()

	// span is how long a move takes, from the go to the mover's 'd'.
	// Uninterrupted moves measure it at the start and every 20th round,
	// so that the delays follow the machine's load; they are not counted
	// among the kills.
	var samples []time.Duration
	span := func() time.Duration {
		last := slices.Clone(samples[max(0, len(samples)-5):])
		slices.Sort(last)
		return last[len(last)/2]
	}
	// Three kills in four count from the go, their delays stratified over
	// [0, 1.5 span] (some at once, before the mover has read the go); the
	// fourth from the mover's 'a' (the archive renamed), over [0, 2 pause]:
	// on a slow disk the syncs of the first rename take most of a move, and
	// the kills from the go would seldom land between the renames.
	const buckets = 10
	const budget = 12 * time.Second // then stop, after at least 30 kills
	var counts, temps, ended [2][nStates]int
	kills, fromGo, k := 0, 0, -3
	start := time.Now()
	for ; k < rounds && (kills < 30 || time.Since(start) < budget); k++ {
		pause := time.Duration(200+rng.IntN(600)) * time.Microsecond
		calibrate := k < 0 || k%20 == 19
		anchor, delay := byte(0), time.Duration(-1)
		switch {
		case calibrate:
		case k%4 == 3:
			anchor, delay = 'a', time.Duration(rng.Float64()*2*float64(pause))
		default:
			delay = time.Duration((float64(fromGo%buckets) + rng.Float64()) / buckets * 1.5 * float64(span()))
			if fromGo%buckets == 0 && rng.IntN(2) == 0 {
				delay = 0
			}
			fromGo++
		}
		dir := copyFixture(t, compactedFixture, filepath.Join(base, strconv.Itoa(k+3)))
		m := startMover(t, dir, pause)
		killed, took := m.run(t, anchor, delay)
		from := "the go"
		if anchor != 0 {
			from = fmt.Sprintf("%q", anchor)
		}
		what := fmt.Sprintf("round %d (delay %v after %s, pause %v, killed %v)", k, delay, from, pause, killed)
		if calibrate {
			samples = append(samples, took)
		}
		st, err := stateOf(t, dir, f)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !calibrate {
			kills++
			a := min(int(anchor), 1)
			counts[a][st]++
			if len(formattest.Names(t, dir, ".tmp")) > 0 {
				temps[a][st]++
			}
			if !killed {
				ended[a][st]++
			}
		}
		v, s := viewOf(t, dir)
		if d := sameView(ref, v); d != "" {
			t.Fatalf("%s, %s: a reader sees %s", what, stateNames[st], d)
		}
		if want := map[int]int{stateArchived: f.moved}[st]; len(s.Duplicates) != want {
			t.Fatalf("%s, %s: %d duplicates, want %d", what, stateNames[st], len(s.Duplicates), want)
		}
		if t.Failed() {
			t.Fatalf("%s, %s", what, stateNames[st])
		}
		n, err := Move(dir)
		if err != nil {
			t.Fatalf("%s, %s: the next move: %v", what, stateNames[st], err)
		}
		if want := map[int]int{stateNothing: f.moved}[st]; n != want {
			t.Errorf("%s, %s: the next move moved %d lines, want %d", what, stateNames[st], n, want)
		}
		if err := checkFinished(t, dir, f, ref); err != nil {
			t.Fatalf("%s, %s, then moved again: %v", what, stateNames[st], err)
		}
		if t.Failed() {
			t.FailNow()
		}
		os.RemoveAll(filepath.Dir(dir))
	}
	t.Logf("%d kills in %v; a move takes about %v (the last samples %v)", kills, time.Since(start).Round(time.Millisecond), span(), samples[max(0, len(samples)-5):])
	if k < rounds {
		t.Logf("stopped after %d of %d rounds: the time budget of %v ran out", k, rounds, budget)
	}
	for st := range nStates {
		t.Logf("%-34s %3d after the go, %3d after 'a' (%d, %d with a temporary file left; %d, %d where the mover had ended)", stateNames[st]+":",
			counts[0][st], counts[1][st], temps[0][st], temps[1][st], ended[0][st], ended[1][st])
	}
	for st := range nStates {
		if counts[0][st]+counts[1][st] == 0 {
			t.Errorf("no kill left the state %q: the kills did not land in every step of the move", stateNames[st])
		}
	}
	if counts[0][stateNothing] == 0 || counts[0][stateDone] == 0 {
		t.Errorf("the kills from the go did not land both before and after the move")
	}
}

// TestInterruptedMoveBetweenRenames stops a move between its two renames
// without a process: readers see each entry once, doctor only warns, and
// the next write finishes the move.
func TestInterruptedMoveBetweenRenames(t *testing.T) {
	zeroStillFor(t)
	f, ref := referenceMove(t)
	interrupt := func(t *testing.T) string {
		dir := copyFixture(t, compactedFixture, t.TempDir())
		old := afterArchive
		afterArchive = func() { panic("killed") }
		func() {
			defer func() {
				if r := recover(); r != "killed" {
					t.Fatalf("the move did not stop between its renames: %v", r)
				}
			}()
			Move(dir)
		}()
		afterArchive = old
		if st, err := stateOf(t, dir, f); err != nil || st != stateArchived {
			t.Fatalf("state %d (%v), want %q", st, err, stateNames[stateArchived])
		}
		if tmp := formattest.Names(t, dir, ".tmp"); len(tmp) > 0 {
			t.Fatalf("temporary files: %v", tmp)
		}
		return dir
	}
	// checkOnce checks that a reader sees ref's entries once (and the
	// new ids, in the last branch); dups is how many copies it dropped.
	checkOnce := func(t *testing.T, dir string, dups int, added ...string) {
		t.Helper()
		v, s := viewOf(t, dir)
		if len(s.Duplicates) != dups {
			t.Errorf("%d duplicates, want %d", len(s.Duplicates), dups)
		}
		for _, id := range added {
			if _, ok := v.lines[id]; !ok {
				t.Errorf("the new entry %s is not read", id)
			}
			delete(v.lines, id)
			delete(v.parents, id)
			if v.leaf == id {
				v.leaf = ref.leaf
			}
		}
		if d := sameView(ref, v); d != "" {
			t.Error(d)
		}
	}

	t.Run("read and checked", func(t *testing.T) {
		dir := interrupt(t)
		checkOnce(t, dir, f.moved)
		diags, err := Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		interrupted := 0
		for _, d := range diags {
			if !d.Warning {
				t.Errorf("doctor: an error: %s:%d%s: %s", d.File, d.Line, d.Pointer, d.Msg)
			}
			if strings.Contains(d.Msg, "archive move was interrupted") {
				interrupted++
			}
		}
		if interrupted != f.moved {
			t.Errorf("doctor warns of %d interrupted lines, want %d: %v", interrupted, f.moved, diags)
		}
	})

	t.Run("the next write finishes", func(t *testing.T) {
		dir := interrupt(t)
		id, err := Label(dir, "msg_010", "x")
		if err != nil {
			t.Fatal(err)
		}
		checkOnce(t, dir, 0, id)
		archive, entries := readOr(t, filepath.Join(dir, ArchiveFile)), readOr(t, filepath.Join(dir, EntriesFile))
		if !bytes.Equal(archive, f.archive) {
			t.Errorf("%s changed:\n%s", ArchiveFile, archive)
		}
		if !bytes.HasPrefix(entries, f.remaining) {
			t.Errorf("%s is not the rest of the move and the label:\n%s", EntriesFile, entries)
		}
		diags, err := Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if !d.Warning || strings.Contains(d.Msg, "archive move") {
				t.Errorf("doctor: %s:%d%s: %s", d.File, d.Line, d.Pointer, d.Msg)
			}
		}
	})

	t.Run("a write while entries.jsonl is not still leaves the copies", func(t *testing.T) {
		dir := interrupt(t)
		stillFor = time.Hour
		id, err := Label(dir, "msg_010", "x")
		stillFor = 0
		if err != nil {
			t.Fatal(err)
		}
		checkOnce(t, dir, f.moved, id)
		// The next one, entries.jsonl still, finishes it.
		id2, err := Label(dir, "msg_010", "y")
		if err != nil {
			t.Fatal(err)
		}
		checkOnce(t, dir, 0, id, id2)
		archived := idsIn(readOr(t, filepath.Join(dir, ArchiveFile)))
		for id := range idsIn(readOr(t, filepath.Join(dir, EntriesFile))) {
			if archived[id] {
				t.Errorf("%s is in both files", id)
			}
		}
	})
}
