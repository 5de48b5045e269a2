package search

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"skein/internal/synth"
	"skein/store"
)

// fixtures copies the pi fixtures to a folder of the test's and lists them.
func fixtures(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	if err := synth.CopyTree("../testdata/pi", dir); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return dir, files
}

// brute is the search without an index: every file read and searched.
func brute(t *testing.T, q *Query, files []string) []Hit {
	s := New(q)
	for _, f := range files {
		if sess, err := store.Open(f); err == nil {
			s.Add(sess)
		}
	}
	return s.Hits(0)
}

func show(h []Hit) string {
	var b strings.Builder
	for _, x := range h {
		fmt.Fprintf(&b, "%s %s %s %.6f %q %v\n", filepath.Base(x.Path), x.EntryID, x.Role, x.Score, x.Snippet, x.Matches)
	}
	return b.String()
}

// queries are words from the fixtures' text and every kind of term.
var indexQueries = []string{
	"the", "file", "read", "Error", "bash", "pi", "session", "test", "wombat",
	"the file", "read bash", "a the", "compaction summary", "tool",
	`"the file"`, `"read the"`, `"no such"`, `"it is"`,
	`re:[Ee]rror`, `re:\d{3,}`, `re:wombat-\d+`, `re:the\s+file`, `re:[a-z]{12}`, `re:(?i)SESSION`,
	"role:user the", "role:assistant file", "role:system you", "role:toolResult error",
	"tool:bash", "tool:read the", "tool:write", "cwd:/ the", "cwd:/nowhere the",
	`the re:e\w`, `"the file" read`, "ü", "_", "x",
}

func sameHits(t *testing.T, query string, got, want []Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d hits through the index, %d without\nindex:\n%s\nwithout:\n%s", query, len(got), len(want), show(got), show(want))
		return
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.Abs(g.Score-w.Score) > 1e-9*math.Max(1, math.Abs(w.Score)) {
			t.Errorf("%s: hit %d scored %v, want %v", query, i, g.Score, w.Score)
		}
		g.Score, w.Score = 0, 0
		if math.IsNaN(g.Time) && math.IsNaN(w.Time) {
			g.Time, w.Time = 0, 0 // no time on either side
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: hit %d\n index: %+v\nwithout: %+v", query, i, g, w)
			return
		}
	}
}

// The index gives what reading every file gives: the same messages in
// the same order with the same scores and snippets, for every kind of
// query, cold and warm.
func TestIndexEqualsReading(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	for round := range 2 {
		x := OpenIndex(idx)
		if err := x.Update(files, nil); err != nil {
			t.Fatal(err)
		}
		if round == 1 && x.Reads+x.PartReads != 0 {
			t.Errorf("warm: %d files read whole and %d in part, want none", x.Reads, x.PartReads)
		}
		for _, query := range indexQueries {
			q, err := Parse(query)
			if err != nil {
				t.Fatal(err)
			}
			sameHits(t, query, x.Search(q, files, 0), brute(t, q, files))
			if got, want := x.Search(q, files, 3), brute(t, q, files); len(want) > 3 {
				sameHits(t, query+" (limit 3)", got, want[:3])
			}
		}
		if err := x.Save(); err != nil {
			t.Fatal(err)
		}
		x.Close()
	}
}

// checkIndex brings the index in idx up to date with files, searches it
// for each query and compares what it finds with want's, then saves it.
func checkIndex(t *testing.T, idx string, files, queries []string, what string, want func(query string, q *Query) []Hit) {
	t.Helper()
	x := OpenIndex(idx)
	defer x.Close()
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	for _, query := range queries {
		q, _ := Parse(query)
		sameHits(t, what+": "+query, x.Search(q, files, 0), want(query, q))
	}
	x.Save()
}

// appendLine adds a line to a session file, as an agent does.
func appendLine(t *testing.T, path, line string) {
	t.Helper()
	if err := synth.AppendLine(path, line); err != nil {
		t.Fatal(err)
	}
}

func lastID(t *testing.T, path string) string {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s.Entry(s.Len() - 1).ID
}

func ids(h []Hit) string {
	var out []string
	for _, x := range h {
		out = append(out, filepath.Base(x.Path)+"#"+x.EntryID)
	}
	return strings.Join(out, " ")
}

// A file that grew is read only from where the index stopped, and the
// search finds exactly what was appended; a file rewritten with other
// bytes is read again whole; a removed one is gone.
func TestIndexAppendsAndRewrites(t *testing.T) {
	dir, files := fixtures(t)
	idx := t.TempDir()
	x := OpenIndex(idx)
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	x.Save()
	x.Close()
	store1 := filepath.Join(dir, "store")
	var grown []string
	for _, f := range files {
		if strings.HasPrefix(f, store1) && len(grown) < 2 {
			if h, err := os.ReadFile(f); err == nil && strings.Contains(string(h[:200]), `"version":3`) {
				grown = append(grown, f)
			}
		}
	}
	if len(grown) != 2 {
		t.Fatalf("found %d v3 sessions to grow", len(grown))
	}
	var want []string
	for k, f := range grown {
		id := fmt.Sprintf("feed%04d", k)
		appendLine(t, f, fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-12-01T10:00:0%d.000Z","message":{"role":"user","content":"the zebracorn grazes %d","timestamp":%d}}`, id, lastID(t, f), k, k, 1796119200000+k))
		want = append(want, filepath.Base(f)+"#"+id)
	}
	x = OpenIndex(idx)
	defer x.Close()
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	if x.Reads != 0 || x.PartReads != 2 {
		t.Errorf("after two appends: %d files read whole, %d in part; want 0 and 2", x.Reads, x.PartReads)
	}
	q, _ := Parse("zebracorn")
	got := x.Search(q, files, 0)
	if g, w := ids(got), want[1]+" "+want[0]; g != w {
		t.Errorf("zebracorn: %s, want %s", g, w)
	}
	for _, query := range indexQueries {
		q, _ := Parse(query)
		sameHits(t, "after appends: "+query, x.Search(q, files, 0), brute(t, q, files))
	}
	// Rewritten (same size, other bytes): read whole again.
	data, _ := os.ReadFile(grown[0])
	os.WriteFile(grown[0], []byte(strings.Replace(string(data), "zebracorn", "unicorned", 1)), 0o644)
	x.Reads, x.PartReads = 0, 0
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	if x.Reads != 1 || x.PartReads != 0 {
		t.Errorf("after a rewrite: %d read whole, %d in part; want 1 and 0", x.Reads, x.PartReads)
	}
	if g := ids(x.Search(q, files, 0)); g != want[1] {
		t.Errorf("zebracorn after the rewrite: %s, want %s", g, want[1])
	}
	q2, _ := Parse("unicorned")
	if g := ids(x.Search(q2, files, 0)); g != want[0] {
		t.Errorf("unicorned: %s, want %s", g, want[0])
	}
}

// A damaged index (bytes flipped or cut anywhere in its manifest or its
// segments, or files gone) never gives a wrong search: what it cannot
// trust is indexed again.
func TestIndexDamaged(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	x := OpenIndex(idx)
	x.Update(files, nil)
	x.Save()
	x.Close()
	queries := []string{"the", "the file", `"the file"`, `re:[Ee]rror`, "role:user the", "tool:bash"}
	want := map[string][]Hit{}
	for _, query := range queries {
		q, _ := Parse(query)
		want[query] = brute(t, q, files)
	}
	names, _ := os.ReadDir(idx)
	pristine := map[string][]byte{}
	for _, n := range names {
		pristine[n.Name()], _ = os.ReadFile(filepath.Join(idx, n.Name()))
	}
	restore := func() {
		for n, b := range pristine {
			os.WriteFile(filepath.Join(idx, n), b, 0o600)
		}
	}
	check := func(what string) {
		t.Helper()
		checkIndex(t, idx, files, queries, what, func(query string, _ *Query) []Hit { return want[query] })
	}
	for n, b := range pristine {
		// Bytes spread over the whole file, and its head and its end.
		spots := []int{0, 5, 9, 40, len(b) - 1, len(b) - 3, len(b) - 19}
		for k := 1; k < 24; k++ {
			spots = append(spots, len(b)*k/24)
		}
		for _, at := range spots {
			if at < 0 || at >= len(b) {
				continue
			}
			c := append([]byte(nil), b...)
			c[at] ^= 0x5a
			os.WriteFile(filepath.Join(idx, n), c, 0o600)
			check(fmt.Sprintf("%s with byte %d flipped", n, at))
			restore()
			os.WriteFile(filepath.Join(idx, n), b[:at], 0o600)
			check(fmt.Sprintf("%s cut at %d", n, at))
			restore()
		}
		os.Remove(filepath.Join(idx, n))
		check(n + " removed")
		restore()
	}
}

// Two processes indexing the same store into the same folder at once
// (here: two indexes of their own, as two processes have) leave an index
// that searches right, and each searched right meanwhile.
func TestIndexWritersAtOnce(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	q, _ := Parse("the file")
	want := brute(t, q, files)
	errs := make(chan string, 8)
	var done = make(chan bool)
	for w := range 4 {
		go func() {
			defer func() { done <- true }()
			for round := range 3 {
				x := OpenIndex(idx)
				// Each writer starts from a different part of the store.
				part := files[(w+round)%3*len(files)/3:]
				if err := x.Update(part, nil); err != nil {
					errs <- err.Error()
				}
				x.Save()
				if err := x.Update(files, nil); err != nil {
					errs <- err.Error()
				}
				if got := x.Search(q, files, 0); show(got) != show(want) {
					errs <- fmt.Sprintf("writer %d round %d: %d hits, want %d", w, round, len(got), len(want))
				}
				x.Save()
				x.Close()
			}
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	x := OpenIndex(idx)
	defer x.Close()
	x.Update(files, nil)
	sameHits(t, "after the writers", x.Search(q, files, 0), want)
}

// BestPerSession is each session's best match, in the order of the
// sessions' best matches in Search.
func TestBestPerSession(t *testing.T) {
	_, files := fixtures(t)
	x := OpenIndex(t.TempDir())
	defer x.Close()
	x.Update(files, nil)
	for _, query := range indexQueries {
		q, _ := Parse(query)
		var want []Hit
		seen := map[string]bool{}
		for _, h := range brute(t, q, files) {
			if !seen[h.Path] {
				seen[h.Path] = true
				want = append(want, h)
			}
		}
		sameHits(t, "per session: "+query, x.BestPerSession(q, files, 0), want)
		if len(want) > 2 {
			sameHits(t, "per session, limit 2: "+query, x.BestPerSession(q, files, 2), want[:2])
		}
		sameHits(t, "per session, no index: "+query, Files(nil, q, files, 0, true, nil), want)
	}
}

// A store whose words outgrow a segment's dictionary is written in
// several segments, and searched as one.
func TestIndexManySegments(t *testing.T) {
	_, files := fixtures(t)
	defer func(n int) { segDictBytes = n }(segDictBytes)
	segDictBytes = 4 << 10
	idx := t.TempDir()
	x := OpenIndex(idx)
	defer x.Close()
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	segs, _ := filepath.Glob(filepath.Join(idx, "seg-*.ft"))
	if len(segs) < 3 {
		t.Fatalf("%d segments", len(segs))
	}
	for _, query := range indexQueries {
		q, _ := Parse(query)
		sameHits(t, "many segments: "+query, x.Search(q, files, 0), brute(t, q, files))
	}
}

// Hits are copies: they stay whole after the index that found them is
// closed and its segments unmapped (a string pointing into a mapping
// would fault, or read what is mapped there next).
func TestHitsOutliveTheIndex(t *testing.T) {
	_, files := fixtures(t)
	x := OpenIndex(t.TempDir())
	x.Update(files, nil)
	q, _ := Parse("the")
	hits := x.Search(q, files, 0)
	want := show(hits)
	x.Close()
	// Map and touch other memory where the segments were.
	junk := make([][]byte, 64)
	for i := range junk {
		junk[i] = make([]byte, 1<<20)
		for k := range junk[i] {
			junk[i][k] = 0xAA
		}
	}
	if got := show(hits); got != want || len(hits) == 0 {
		t.Errorf("the hits changed after Close")
	}
	for _, h := range hits {
		if strings.ContainsRune(h.EntryID+h.Role+h.SessionID, 0xAA) {
			t.Errorf("a hit holds freed bytes: %+v", h)
		}
	}
}

// writeSession writes lines as a session file in dir.
func writeSession(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const hdr = `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}`

func msgLine(id, parent, text string) string {
	p := `null`
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"` + text + `","timestamp":1}}`
}

// Files the reviewer found the index read differently from pi's reader:
// lines before the header, a last entry without its line ending that the
// next append runs into, text a (?i) pattern folds beyond lower case.
func TestIndexOddFiles(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		writeSession(t, dir, "lead.jsonl", "\n"+"garbage\n"+hdr+"\n"+msgLine("a1", "", "the wombat grazes")+"\n"),
		writeSession(t, dir, "open.jsonl", hdr+"\n"+msgLine("b1", "", "the wombat sleeps")),
		writeSession(t, dir, "fold.jsonl", hdr+"\n"+msgLine("c1", "", "ſession Key λόγος ⱥ")+"\n"),
	}
	queries := []string{"wombat", `"wombat grazes"`, "role:user", `re:(?i)session`, `re:(?i)key`, `re:(?i)λόγοσ`, `re:(?i)ΛΌΓΟς`, `re:(?i)Ⱥ`, "wombat sleeps"}
	idx := t.TempDir()
	check := func(what string) {
		t.Helper()
		checkIndex(t, idx, files, queries, what, func(_ string, q *Query) []Hit { return brute(t, q, files) })
	}
	check("cold")
	// The open last entry runs into the next one: one line pi skips.
	f, _ := os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(msgLine("b2", "b1", "the wombat wakes") + "\n")
	f.Close()
	appendLine(t, files[0], msgLine("a2", "a1", "the wombat wakes"))
	check("after appends")
}

// A file no longer a session drops out of the index, its messages out of
// the ranking, even when its segment was to be indexed again; a run of
// appends, each in a small segment of its own, does not read every file.
func TestIndexDropsWhatIsGone(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	x := OpenIndex(idx)
	x.Update(files, nil)
	x.Save()
	x.Close()
	var v3 []string
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b[:min(len(b), 200)]), `"version":3`) && strings.Contains(f, "store") {
			v3 = append(v3, f)
		}
	}
	for k := range 20 {
		f := v3[k%len(v3)]
		appendLine(t, f, msgLine(fmt.Sprintf("z%07d", k), lastID(t, f), "run "+fmt.Sprint(k)))
		x := OpenIndex(idx)
		x.Update(files, nil)
		if x.Reads > len(files)/2 {
			t.Errorf("run %d: %d of %d files read whole", k, x.Reads, len(files))
		}
		x.Save()
		x.Close()
	}
	os.WriteFile(v3[0], []byte("not a session\n"), 0o644)
	x = OpenIndex(idx)
	defer x.Close()
	x.Update(files, nil)
	for _, query := range []string{"the", "run"} {
		q, _ := Parse(query)
		sameHits(t, "after one is gone: "+query, x.Search(q, files, 0), brute(t, q, files))
	}
}

// A manifest's ref past its segment, however far (its sum overflowing),
// is damage, not a crash.
func TestRefPastItsSegment(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	x := OpenIndex(idx)
	defer x.Close()
	x.Update(files, nil)
	for _, e := range x.entries {
		r := e.parts[0]
		for _, bad := range []ref{{seg: r.seg, off: 1 << 62, n: 1 << 62}, {seg: r.seg, off: r.off, n: 1<<63 - 1}, {seg: r.seg, off: -1, n: 4}} {
			if _, _, err := x.blobOf(bad); err == nil {
				t.Errorf("%+v read", bad)
			}
		}
		break
	}
}

// The index is keyed by a file's real path: sessions indexed as named from
// one folder (relative), then named absolute, or through a link to their
// folder, are not read again, and a search through either name finds them.
func TestIndexKeyedByRealPath(t *testing.T) {
	_, files := fixtures(t)
	dir := filepath.Dir(files[0])
	link := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	t.Chdir(dir)
	var rel, viaLink []string
	for _, f := range files {
		if filepath.Dir(f) != dir {
			continue
		}
		rel = append(rel, filepath.Base(f))
		viaLink = append(viaLink, filepath.Join(link, filepath.Base(f)))
	}
	idx := t.TempDir()
	q, _ := Parse(indexQueries[0])
	for round, names := range [][]string{rel, viaLink} {
		x := OpenIndex(idx)
		if err := x.Update(names, nil); err != nil {
			t.Fatal(err)
		}
		if round == 1 && x.Reads+x.PartReads != 0 {
			t.Errorf("named another way: %d files read whole and %d in part, want none", x.Reads, x.PartReads)
		}
		sameHits(t, "as named", x.Search(q, names, 0), brute(t, q, names))
		x.Save()
		x.Close()
	}
}
