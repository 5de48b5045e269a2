package store_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"skein/store"
	"sync"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/model"
	"skein/store/dhara"
)

// The target: a 100 MB Dhara session opens, lists and builds its
// context as fast as a 100 MB pi session. Both are synth's one
// conversation (synth.Session and synth.DharaSession, same arguments), so
// ns/op compares like with like; MB/s is over each format's own bytes (the
// Dhara folder is larger: a tool_call entry per call, and tree.json's ids).
//
//	go test ./store -run XXX -bench Target100M -count 6 -benchmem

var (
	benchPairOnce sync.Once
	benchPairPi   string
	benchPairDh   string
	benchPairErr  error
)

var benchStart = time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)

// writePair writes the conversation of seed into pi (a file) and dh (a
// folder), at once.
func writePair(pi, dh string, size int64, seed uint64) error {
	errs := make(chan error, 2)
	go func() { errs <- synth.Session(pi, "/home/dev/huge", size, benchStart, seed) }()
	go func() { errs <- synth.DharaSession(dh, "/home/dev/huge", size, benchStart, seed) }()
	return errorsJoin(<-errs, <-errs)
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// benchPair is the 100 MB pair, written once per machine under
// os.TempDir() (never in the repository); a rerun finds it there.
func benchPair(b *testing.B) (pi, dh string) {
	if testing.Short() {
		b.Skip("writes a 100 MB pi session and a Dhara folder of the same conversation")
	}
	benchPairOnce.Do(func() {
		root := filepath.Join(os.TempDir(), "skein-bench-dhara-100m-v2")
		benchPairPi, benchPairDh = filepath.Join(root, "pi.jsonl"), filepath.Join(root, "dhara-100m")
		if _, err := os.Stat(filepath.Join(root, "done")); err == nil {
			return
		}
		os.RemoveAll(root)
		tmp := root + ".tmp" + time.Now().Format(".150405.000000000")
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			benchPairErr = err
			return
		}
		if err := writePair(filepath.Join(tmp, "pi.jsonl"), filepath.Join(tmp, "dhara-100m"), 100<<20, 3); err != nil {
			os.RemoveAll(tmp)
			benchPairErr = err
			return
		}
		os.WriteFile(filepath.Join(tmp, "done"), nil, 0o644)
		if err := os.Rename(tmp, root); err != nil {
			benchPairErr = err
		}
	})
	if benchPairErr != nil {
		b.Fatal(benchPairErr)
	}
	return benchPairPi, benchPairDh
}

// sizeOf is a file's size, or the sum of a folder's files'.
func sizeOf(b *testing.B, path string) int64 {
	var n int64
	err := filepath.Walk(path, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// pairCases runs f as pi then dhara, sub-benchmarks side by side.
func pairCases(b *testing.B, f func(b *testing.B, path string)) {
	pi, dh := benchPair(b)
	for _, c := range []struct{ name, path string }{{"pi", pi}, {"dhara", dh}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(sizeOf(b, c.path))
			b.ReportAllocs()
			f(b, c.path)
		})
	}
}

// BenchmarkTarget100MOpen is store.Open: the files read, parsed and
// indexed.
func BenchmarkTarget100MOpen(b *testing.B) {
	pairCases(b, func(b *testing.B, path string) {
		for b.Loop() {
			s, err := store.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if s.Leaf() < 0 {
				b.Fatal("no leaf")
			}
		}
	})
}

// The same three at the words, a 100 MB pi session against a Dhara
// folder of 100 MB (its files together), where the benchmarks above compare
// one conversation (whose Dhara folder is 14% larger).
func BenchmarkTarget100MOpenSameSize(b *testing.B) {
	sameSizeCases(b, func(b *testing.B, path string) {
		for b.Loop() {
			s, err := store.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if s.Leaf() < 0 {
				b.Fatal("no leaf")
			}
		}
	})
}

func BenchmarkTarget100MListSameSize(b *testing.B) { sameSizeCases(b, listInfo) }

func BenchmarkTarget100MContextSameSize(b *testing.B) { sameSizeCases(b, contextJSON) }

// sameSizeCases runs f as pi then dhara on 100 MB each.
func sameSizeCases(b *testing.B, f func(b *testing.B, path string)) {
	pi, dh := benchPair(b)
	sized := sameSizeDhara(b, sizeOf(b, pi), sizeOf(b, dh))
	for _, c := range []struct{ name, path string }{{"pi", pi}, {"dhara", sized}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(sizeOf(b, c.path))
			b.ReportAllocs()
			f(b, c.path)
		})
	}
}

var (
	sameSizeOnce sync.Once
	sameSizePath string
	sameSizeErr  error
)

// sameSizeDhara is a Dhara folder of about the pi session's size: the
// conversation scaled by the pair's sizes (written once, beside the pair).
func sameSizeDhara(b *testing.B, piSize, dhSize int64) string {
	sameSizeOnce.Do(func() {
		root := filepath.Join(os.TempDir(), "skein-bench-dhara-100m-v2")
		sameSizePath = filepath.Join(root, "dhara-100m-total")
		if _, err := os.Stat(filepath.Join(root, "done-total")); err == nil {
			return
		}
		os.RemoveAll(sameSizePath)
		size := piSize * piSize / dhSize
		if sameSizeErr = synth.DharaSession(sameSizePath, "/home/dev/huge", size, benchStart, 3); sameSizeErr == nil {
			os.WriteFile(filepath.Join(root, "done-total"), nil, 0o644)
		}
	})
	if sameSizeErr != nil {
		b.Fatal(sameSizeErr)
	}
	return sameSizePath
}

// BenchmarkTarget100MList is the list's record of one session, with no
// index: its backend's ListInfo.
func BenchmarkTarget100MList(b *testing.B) { pairCases(b, listInfo) }

// listInfo is the list's record of the session at path, with no index.
func listInfo(b *testing.B, path string) {
	be := store.FindBackend(path)
	var buf []byte
	for b.Loop() {
		var info store.Info
		var err error
		buf, info, err = be.ListInfo(path, buf)
		if err != nil {
			b.Fatal(err)
		}
		if info.MessageCount == 0 {
			b.Fatal("no messages")
		}
	}
}

// BenchmarkTarget100MContext is the context at the leaf of an opened
// session, built and written as `session context --json` writes it.
func BenchmarkTarget100MContext(b *testing.B) { pairCases(b, contextJSON) }

func contextJSON(b *testing.B, path string) {
	s, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		ctx := s.BuildContext(s.Leaf())
		if len(ctx.Messages) == 0 {
			b.Fatal("empty context")
		}
		if err := s.WriteContextJSON(io.Discard, ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// The generator's Dhara folder is what the format says (doctor finds
// nothing: every tree id exists, every result's callId names a call), its
// active leaf is branch_main's last entry, and its context is the pi
// session's message for message: the two benchmarks read one
// conversation.
func TestSynthDharaMatchesPi(t *testing.T) {
	dir := t.TempDir()
	pi, dh := filepath.Join(dir, "s.jsonl"), filepath.Join(dir, "dhara-s")
	size := int64(3 << 20)
	if testing.Short() {
		size = 1 << 20
	}
	if err := writePair(pi, dh, size, 5); err != nil {
		t.Fatal(err)
	}
	diags, err := dhara.Check(dh)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("doctor: %s:%d%s %s (warning %v)", d.File, d.Line, d.Pointer, d.Msg, d.Warning)
	}
	raw, err := dhara.Open(dh)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw.Tree.Branches) != 3 {
		t.Errorf("%d branches, want branch_main and two forks", len(raw.Tree.Branches))
	}
	if a := raw.ActiveBranch(); a == nil || a.ID != "branch_main" || raw.Leaf() < 0 || raw.Entries[raw.Leaf()].ID != a.EntryIDs[len(a.EntryIDs)-1] {
		t.Errorf("active branch %v, leaf %d", a, raw.Leaf())
	}
	ps, err := store.Open(pi)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := store.Open(dh)
	if err != nil {
		t.Fatal(err)
	}
	pc, dc := ps.BuildContext(ps.Leaf()), ds.BuildContext(ds.Leaf())
	if len(pc.Messages) != len(dc.Messages) || len(pc.Messages) < 1000 {
		t.Fatalf("%d messages in pi's context, %d in Dhara's", len(pc.Messages), len(dc.Messages))
	}
	for k := range pc.Messages {
		if p, d := messageText(ps.Message(pc.Messages[k])), messageText(ds.Message(dc.Messages[k])); p != d {
			t.Fatalf("message %d:\npi    %s\ndhara %s", k, p, d)
		}
	}
	_, pi1, err := store.FindBackend(pi).ListInfo(pi, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, dh1, err := store.FindBackend(dh).ListInfo(dh, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pi1.FirstMessage != dh1.FirstMessage || pi1.Cwd != dh1.Cwd || pi1.Created != dh1.Created {
		t.Errorf("list records differ:\npi    %+v\ndhara %+v", pi1, dh1)
	}
	var pj, dj bytes.Buffer
	if err := ps.WriteContextJSON(&pj, pc); err != nil {
		t.Fatal(err)
	}
	if err := ds.WriteContextJSON(&dj, dc); err != nil {
		t.Fatal(err)
	}
	ratio := func(a, b int) string { return fmt.Sprintf("%.2f", float64(a)/float64(b)) }
	t.Logf("pi %d bytes, %d entries; dhara %d entries; context JSON %d and %d bytes (%s)",
		size, ps.Len(), ds.Len(), pj.Len(), dj.Len(), ratio(dj.Len(), pj.Len()))
}

// messageText is what a message says: role, blocks (a tool call's id,
// name and input), the call a result answers. Not its time: a Dhara entry
// has one, pi's entry timestamp; pi's message has its own as well.
func messageText(m model.Message) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s %s|", m.Role, m.ToolCallID, m.ToolName)
	for _, blk := range m.Blocks {
		switch blk.Type {
		case model.BlockToolCall:
			fmt.Fprintf(&b, "call %s %s %s|", blk.Call.ID, blk.Call.Name, blk.Call.Input)
		default:
			fmt.Fprintf(&b, "%d %q|", blk.Type, blk.Text)
		}
	}
	return b.String()
}
