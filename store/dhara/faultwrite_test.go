package dhara

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A write to a session folder that fails at any step (every byte of every
// file it writes, every open, reservation, sync, close, link and rename)
// leaves the folder byte for byte as it was, or as it was plus whole
// entries with tree.json and meta.json agreeing; doctor reports nothing;
// and the write made again adds its entry once. Its disk is faultFS.

// faultCase is one write, made on a copy of a fixture ("-no-tree": the
// fixture without its tree.json; "-pending": the seed compacted, its
// archive move not made; "-interrupted": its move stopped between the
// two renames, the moved lines in both files).
type faultCase struct {
	name, fixture string
	entries       int // the entries the write adds
	write         func(dir string) error
}

// moves says whether the write makes an archive move: the compaction's,
// or the one a compaction left to the next write.
func (c faultCase) moves() bool {
	return strings.HasPrefix(c.name, "compaction") || strings.HasSuffix(c.fixture, "-pending") || strings.HasSuffix(c.fixture, "-interrupted")
}

// seedCompaction compacts the seed fixture's first three entries (its
// tool result preserved) after its last.
func seedCompaction(dir string) error {
	_, err := Compact(dir, Compaction{Summary: "the summary", EntryIDs: []string{"msg_001", "call_001", "result_001"},
		PreservedIDs: []string{"result_001"}, TokensBefore: 1200},
		func(*Session) (string, error) { return "msg_002", nil })
	return err
}

var faultCases = []faultCase{
	{"label", "seed", 1, func(dir string) error { _, err := Label(dir, "msg_001", "look here"); return err }},
	{"rename", "seed", 0, func(dir string) error { return Rename(dir, "a new title") }},
	{"fork", "seed", 0, func(dir string) error { _, err := Fork(dir, "call_001"); return err }},
	{"append", "seed", 1, func(dir string) error {
		_, err := Append(dir, func(*Session) (string, string, []Field, error) {
			return "custom", "", []Field{{Key: "customType", Value: []byte(`"note"`)}, {Key: "data", Value: []byte(`{"k":1}`)}}, nil
		})
		return err
	}},
	{"label without a tree", "seed-no-tree", 1, func(dir string) error { _, err := Label(dir, "msg_001", "x"); return err }},
	{"compaction and its archive move", "seed", 1, seedCompaction},
	{"label making the move a compaction left", "seed-pending", 1, func(dir string) error { _, err := Label(dir, "msg_002", "x"); return err }},
	{"label finishing an interrupted move", "seed-interrupted", 1, func(dir string) error { _, err := Label(dir, "msg_002", "x"); return err }},
}

func fixtureFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	files := folderFiles(t, filepath.Join(fixtures, "store", "seed"))
	switch name {
	case "seed":
	case "seed-no-tree":
		delete(files, TreeFile)
	case "seed-pending", "seed-interrupted":
		dir := filepath.Join(t.TempDir(), "seed")
		writeFolder(t, dir, files)
		saved, savedHook := stillFor, afterArchive
		stillFor = time.Hour
		err := seedCompaction(dir)
		if name == "seed-interrupted" {
			stillFor, afterArchive = 0, func() { panic("killed") }
			func() {
				defer func() { recover() }()
				Move(dir)
			}()
		}
		stillFor, afterArchive = saved, savedHook
		if err != nil {
			t.Fatal(err)
		}
		files = folderFiles(t, dir)
	default:
		t.Fatalf("no fixture %s", name)
	}
	return files
}

// asBefore are the folders a failed write may leave: the files as they
// were, or, where a compaction left its archive move to this write, with
// the move made or finished (it is the compaction's, done before this
// write began).
func asBefore(t *testing.T, c faultCase, files map[string]string) []map[string]string {
	t.Helper()
	out := []map[string]string{files}
	if strings.HasSuffix(c.fixture, "-pending") || strings.HasSuffix(c.fixture, "-interrupted") {
		dir := filepath.Join(t.TempDir(), "seed")
		writeFolder(t, dir, files)
		saved := stillFor
		stillFor = 0
		_, err := Move(dir)
		stillFor = saved
		moved := folderFiles(t, dir)
		if err != nil || sameFiles(files, moved) == "" {
			t.Fatalf("the move left to do was not made: %v", err)
		}
		out = append(out, moved)
	}
	return out
}

// leftAsBefore says how dir differs from every folder of before ("" when
// it is one of them).
func leftAsBefore(t *testing.T, dir string, before []map[string]string) string {
	t.Helper()
	now := folderFiles(t, dir)
	var d string
	for _, b := range before {
		if d = sameFiles(b, now); d == "" {
			return ""
		}
	}
	return d
}

// entryCount is how many entries a reader sees, and how many compactions.
func entryCount(t *testing.T, dir string) (entries, compactions int) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Entries {
		if s.Entries[i].Type == TypeCompaction {
			compactions++
		}
	}
	return len(s.Entries), compactions
}

func TestWritesFailingAtEveryStep(t *testing.T) {
	zeroStillFor(t) // the archive move runs at once
	saved := carryWait
	carryWait = 0 // no writer appends behind the move's back here
	t.Cleanup(func() { carryWait = saved })
	for _, c := range faultCases {
		t.Run(c.name, func(t *testing.T) {
			files := fixtureFiles(t, c.fixture)
			before := asBefore(t, c, files)
			base := memDir(t)
			fresh := func(k int) string {
				dir := filepath.Join(base, strconv.Itoa(k), "seed")
				writeFolder(t, dir, files)
				return dir
			}
			dir := fresh(-1)
			// What doctor says of the fixture (a session without a tree:
			// that it has none) is all it may say after.
			had := map[string]bool{}
			for _, d := range diagnostics(t, dir) {
				had[d] = true
			}
			n0, c0 := entryCount(t, dir)
			check := func(dir, what string, done bool) { checkWritten(t, dir, what, c, n0, c0, done, had) }
			rec := &faultFS{}
			useFS(t, rec)
			if err := c.write(dir); err != nil {
				t.Fatal(err)
			}
			points := rec.points()
			t.Logf("%d steps to fail, %d of them bytes", len(points), len(points)-len(rec.steps))
			failed := 0
			for k, p := range points {
				dir := fresh(k)
				f := &faultFS{fail: &p}
				fsys = f
				err := c.write(dir)
				fsys = noSync()
				what := p.String()
				if !f.fired {
					t.Fatalf("%s: never reached", what)
				}
				if err != nil {
					failed++
					if d := leftAsBefore(t, dir, before); d != "" {
						t.Fatalf("%s failed (%v) and left: %s", what, err, d)
					}
				}
				check(dir, what, err == nil)
				if err != nil {
					if err := c.write(dir); err != nil {
						t.Fatalf("%s, then again: %v", what, err)
					}
					check(dir, what+", then again", true)
				}
				if c.moves() {
					checkMoveFinished(t, dir, what)
				}
				if t.Failed() {
					t.FailNow()
				}
				os.RemoveAll(filepath.Dir(dir))
			}
			t.Logf("%d failures reported, %d writes done whatever failed after their last rename", failed, len(points)-failed)
		})
	}
}

// checkWritten checks a folder after a write that was done (or not): its
// entries, no file but the session's, nothing doctor reports.
func checkWritten(t *testing.T, dir, what string, c faultCase, n0, c0 int, done bool, had map[string]bool) {
	t.Helper()
	n, comp := entryCount(t, dir)
	want := n0
	if done {
		want += c.entries
	}
	if n != want {
		t.Errorf("%s: %d entries, want %d", what, n, want)
	}
	if strings.HasPrefix(c.name, "compaction") && done && comp != c0+1 {
		t.Errorf("%s: %d compactions, want %d", what, comp, c0+1)
	}
	for name := range folderFiles(t, dir) {
		switch name {
		case MetaFile, TreeFile, EntriesFile, ArchiveFile:
		default:
			t.Errorf("%s: %s left in the folder", what, name)
		}
	}
	for _, d := range diagnostics(t, dir) {
		if !had[d] {
			t.Errorf("%s: doctor: %s", what, d)
		}
	}
}

// checkMoveFinished makes a label, which finishes an archive move still
// to do: nothing is movable after it.
func checkMoveFinished(t *testing.T, dir, what string) {
	t.Helper()
	if _, err := Label(dir, "msg_002", "after"); err != nil {
		t.Fatalf("%s, then a label: %v", what, err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Movable(); len(m) > 0 {
		t.Errorf("%s, then a label: %v still to move", what, m)
	}
	if _, err := os.Stat(filepath.Join(dir, ArchiveFile)); err != nil {
		t.Errorf("%s, then a label: %v", what, err)
	}
	for _, d := range diagnostics(t, dir) {
		t.Errorf("%s, then a label: doctor: %s", what, d)
	}
}

// A compaction whose archive move did not happen (entries.jsonl was not
// still, or the writer was killed between the two): the next write, a
// label, makes the move, and doctor is clean.
func TestNextWriteFinishesThePendingMove(t *testing.T) {
	for _, how := range []string{"not still", "killed after the compaction"} {
		t.Run(how, func(t *testing.T) {
			dir := fixtureCopy(t, "seed")
			saved := stillFor
			t.Cleanup(func() { stillFor = saved })
			switch how {
			case "not still":
				stillFor = time.Hour
				if err := seedCompaction(dir); err != nil {
					t.Fatal(err)
				}
			case "killed after the compaction":
				// The process dies once the compaction is written: the first
				// step of its move never returns.
				stillFor = 0
				useFS(t, killAt{&faultFS{fail: &step{key: "open " + ArchiveFile + ".tmp", at: -1}}})
				func() {
					defer func() {
						if r := recover(); r != "killed" {
							t.Fatalf("not killed: %v", r)
						}
					}()
					seedCompaction(dir)
				}()
				fsys = osFS{}
			}
			s, _ := Open(dir)
			if len(s.Movable()) == 0 {
				t.Fatal("nothing left to move: the case did not happen")
			}
			if _, err := os.Stat(filepath.Join(dir, ArchiveFile)); err == nil {
				t.Fatal("an archive already")
			}
			stillFor = 0
			checkMoveFinished(t, dir, how)
		})
	}
}

// killAt is a faultFS whose failing step does not return (the process
// died there): it panics, and the write's deferred clean-up, which a
// killed process would not run either, is what runs after it.
type killAt struct{ *faultFS }

func (k killAt) OpenFile(name string, flag int, perm os.FileMode) (writeFile, error) {
	w, err := k.faultFS.OpenFile(name, flag, perm)
	if k.fired {
		panic("killed")
	}
	return w, err
}

// A compaction a write left in no branch (its tree.json never written,
// and its line not taken back: another writer appended after it) is an
// interrupted write's: doctor warns of an entry in no branch, and does not
// also call it off its branch.
func TestCompactionInNoBranchIsAWarning(t *testing.T) {
	dir := fixtureCopy(t, "seed")
	line := `{"id":"cmp_1","type":"compaction","summary":"s","entryIds":["msg_001"],"preservedEntryIds":[],"branchId":"branch_main","timestamp":"2026-05-14T10:00:03Z"}` + "\n"
	f, err := os.OpenFile(filepath.Join(dir, EntriesFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	diags, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, d := range diags {
		switch {
		case !d.Warning:
			t.Errorf("an error: %s: %s", d.Where(dir), d.Msg)
		case strings.Contains(d.Msg, "cmp_1 is in no branch"):
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning of the entry in no branch: %v", diags)
	}
}

// Where the old meta.json cannot be given a second name (a file system
// without links), a write that fails at tree.json's rename puts meta.json
// back by writing its old bytes again; where there was none, by removing
// the new one.
func TestUndoWithoutASecondName(t *testing.T) {
	for _, noMeta := range []bool{false, true} {
		dir := fixtureCopy(t, "seed")
		if noMeta {
			os.Remove(filepath.Join(dir, MetaFile))
		}
		before := folderFiles(t, dir)
		f := &faultFS{fail: &step{key: "link " + MetaFile + " " + MetaFile + ".tmp", at: -1},
			also: &step{key: "rename " + TreeFile + ".tmp " + TreeFile, at: -1}}
		if noMeta {
			f.fail = f.also
		}
		useFS(t, f)
		_, err := Label(dir, "msg_001", "x")
		fsys = osFS{}
		if err == nil || !f.fired {
			t.Fatalf("no meta.json %v: the label did not fail at the tree's rename: %v", noMeta, err)
		}
		if d := sameFiles(before, folderFiles(t, dir)); d != "" {
			t.Errorf("no meta.json %v: %s", noMeta, d)
		}
	}
}
