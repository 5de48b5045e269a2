package dhara

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/formattest"
)

const agentLine = `{"id":"agent_1","type":"message","role":"user","content":[{"type":"text","text":"from the agent"}],"timestamp":"2026-06-02T09:00:00Z"}`

// An append waits for a line another writer has not finished, and puts
// its own after it; one that keeps changing is refused.
func TestAppendWaitsForAnUnfinishedLine(t *testing.T) {
	dir := fixtureCopy(t, "seed")
	path := filepath.Join(dir, EntriesFile)
	half := len(agentLine) / 2
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(agentLine[:half])
	done := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		f.WriteString(agentLine[half:] + "\n")
		f.Close()
		close(done)
	}()
	if _, err := Label(dir, "msg_001", "mine"); err != nil {
		t.Fatal(err)
	}
	<-done
	data := formattest.ReadFile(t, path)
	if !bytes.Contains(data, []byte(agentLine+"\n")) {
		t.Fatalf("the agent's line was cut:\n%s", data)
	}
	s, _ := Open(dir)
	for _, d := range s.Diagnostics {
		t.Errorf("after the wait: %s %s", d.Where(dir), d.Msg)
	}
	// A writer that never finishes.
	saved := patience
	patience = 400 * time.Millisecond
	defer func() { patience = saved }()
	stop := make(chan struct{})
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(`{"id":"agent_2","text":"`) // begun before the label is asked for
	go func() {
		f := w
		defer f.Close()
		for {
			select {
			case <-stop:
				return
			default:
				f.WriteString("x")
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()
	before := formattest.ReadFile(t, path)
	_, err = Label(dir, "msg_001", "again")
	close(stop)
	if _, ok := err.(*RefusedError); !ok {
		t.Fatalf("a writer that kept writing: %v", err)
	}
	if after := formattest.ReadFile(t, path); bytes.Contains(after[len(before):], []byte("again")) {
		t.Error("the refused label was written")
	}
}

// A write the tree cannot take (its branches an object, upstream's old
// shape) is refused before anything is appended.
func TestRefusedBeforeAppending(t *testing.T) {
	dir := fixtureCopy(t, "seed")
	tree := filepath.Join(dir, TreeFile)
	os.WriteFile(tree, []byte(`{"root":"branch_main","branches":{"branch_main":{"entryIds":["msg_001"]}}}`), 0o600)
	before := formattest.ReadFile(t, filepath.Join(dir, EntriesFile))
	if _, err := Label(dir, "msg_001", "x"); err == nil {
		t.Fatal("a label on a tree of another shape was written")
	}
	if !bytes.Equal(formattest.ReadFile(t, filepath.Join(dir, EntriesFile)), before) {
		t.Error("the refused label was appended")
	}
}

// An agent that appends without the lock while the archive move replaces
// entries.jsonl: its line, written to the old file, is carried over.
func TestMoveCarriesOverAnAppend(t *testing.T) {
	dir := fixtureCopy(t, "compacted")
	saved := stillFor
	stillFor = 0
	defer func() { stillFor, beforeEntriesRename = saved, func() {} }()
	beforeEntriesRename = func() {
		f, err := os.OpenFile(filepath.Join(dir, EntriesFile), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(agentLine + "\n")
		f.Close()
	}
	if n, err := Move(dir); err != nil || n == 0 {
		t.Fatalf("moved %d: %v", n, err)
	}
	if !bytes.Contains(formattest.ReadFile(t, filepath.Join(dir, EntriesFile)), []byte(agentLine)) {
		t.Fatal("the agent's line, appended during the move, is lost")
	}
}

// A folder of someone else's with a meta.json is no session: skein neither
// writes to it nor moves it to the trash.
func TestForeignFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	os.MkdirAll(filepath.Join(dir, "src"), 0o700)
	os.WriteFile(filepath.Join(dir, MetaFile), []byte(`{"name":"my-dataset"}`), 0o600)
	if IsSession(dir) {
		t.Fatal("a folder with a meta.json of its own is a session")
	}
	if err := Rename(dir, "oops"); err == nil {
		t.Error("renamed a foreign folder")
	}
	if b := formattest.ReadFile(t, filepath.Join(dir, MetaFile)); string(b) != `{"name":"my-dataset"}` {
		t.Errorf("its meta.json is now %s", b)
	}
	// A session folder with something else in it is not trashed whole.
	s := fixtureCopy(t, "seed")
	if ok, _ := OnlySessionFiles(s); !ok {
		t.Error("a session's own files are not only its own")
	}
	os.WriteFile(filepath.Join(s, "notes.txt"), []byte("mine"), 0o600)
	if ok, what := OnlySessionFiles(s); ok || what != "notes.txt" {
		t.Errorf("%v %q", ok, what)
	}
	// Only skein's own temporary names are cleaned up.
	for _, n := range []string{"tree.json.tmp", "meta.json.tmpl", "entries.jsonl.tmp-backup"} {
		os.WriteFile(filepath.Join(s, n), nil, 0o600)
	}
	os.WriteFile(filepath.Join(s, "tree.json.tmp123.abc"), nil, 0o600)
	if _, err := Label(s, "msg_001", "x"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"tree.json.tmp", "meta.json.tmpl", "entries.jsonl.tmp-backup"} {
		if _, err := os.Stat(filepath.Join(s, n)); err != nil {
			t.Errorf("%s, not skein's, was removed", n)
		}
	}
	if _, err := os.Stat(filepath.Join(s, "tree.json.tmp123.abc")); err == nil {
		t.Error("skein's own stale temporary file stayed")
	}
}

// A fork of a session without a tree keeps the chain it was.
func TestForkWithoutATree(t *testing.T) {
	dir := fixtureCopy(t, "seed")
	os.Remove(filepath.Join(dir, TreeFile))
	before, _ := Open(dir)
	f, err := Fork(dir, "call_001")
	if err != nil {
		t.Fatal(err)
	}
	if f.ParentBranch != "branch_main" {
		t.Errorf("the fork's parent %q", f.ParentBranch)
	}
	after, _ := Open(dir)
	if len(after.Tree.Branches) != 2 || len(after.Tree.Branches[0].EntryIDs) != len(before.Entries) {
		t.Errorf("tree %+v", after.Tree.Branches)
	}
	diags, _ := Check(dir)
	for _, d := range diags {
		if !d.Warning || strings.Contains(d.Msg, "no branch") {
			t.Errorf("%s: %s", d.Where(dir), d.Msg)
		}
	}
}
