package search

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"skein/internal/cachefile"
	"skein/internal/jsdate"
	"skein/model"
	"skein/store"
)

// The full-text index, in the user's cache folder beside the list's
// (store.CacheDir): immutable segment files, each holding the blobs of
// the sessions one run indexed, and a manifest naming, per session file,
// its change token and its blobs (a file that grew has one more). A run
// brings it up to date (Update) before it searches, reading only the
// files that changed and, of a file that grew, only what was appended.
//
// Every file is written to a temporary name, synced and renamed; nothing
// is changed in place. One process at a time brings the index up to date,
// under the folder's lock: the others wait, then read the manifest it
// wrote and index only what is still left (each indexing the same files
// into segments of its own left the cache as many times the index's size
// as there were processes). A segment no manifest names is removed only
// when it is old (a run that read an older manifest may still need it). A
// missing, damaged or older index, a name that is not a regular file, a
// segment gone or a blob whose checksum fails is only a cost: the session
// is indexed again, never searched wrong.

const manifestMagic = "skein-text-index\x00\x02"

// staleAfter is how old a segment nobody names, or a temporary file, must
// be before a run removes it.
const staleAfter = 10 * time.Minute

// maxParts is how many blobs a file that keeps growing gathers before it
// is indexed whole again.
const maxParts = 8

type ref struct {
	seg    string
	off, n int64
	crc    uint32
	// pending is, for a blob of the segment being written, its place in
	// it (from 1) until the segment is done.
	pending int
	from    *segWriter
}

type fileEntry struct {
	state store.TextState
	parts []ref
}

// Index is the full-text index kept in a folder.
type Index struct {
	dir     string
	mu      sync.Mutex
	entries map[string]*fileEntry
	segs    map[string]*segment
	blobs   map[blobKey]*blob // the blobs read, their heads checked
	damaged map[string]bool   // files whose index a search found damaged
	changed bool
	// Reads counts the files this run read to index them, whole or from
	// where the index stopped (the tests' way to see what was spared).
	Reads, PartReads int
}

type segment struct {
	data  []byte
	unmap func()
	dict  *dict
	err   error
}

// IndexDir is the folder of the full-text index: "text" in the cache
// folder (store.CacheDir).
func IndexDir(env store.Env) string { return filepath.Join(store.CacheDir(env), "text") }

// OpenIndex reads the index in dir (store.CacheDir's "text" folder); a
// missing or unreadable one is empty.
func OpenIndex(dir string) *Index {
	x := &Index{dir: dir, entries: map[string]*fileEntry{}, segs: map[string]*segment{}, blobs: map[blobKey]*blob{}, damaged: map[string]bool{}}
	x.reload()
	return x
}

// reload reads the manifest again, as the last process to write it left
// it; a missing or damaged one changes nothing. x.mu is held, or x is
// not shared yet.
func (x *Index) reload() {
	if data, err := cachefile.ReadFile(filepath.Join(x.dir, "manifest")); err == nil {
		if entries, ok := decodeManifest(data); ok {
			x.entries = entries
		}
	}
}

// Close unmaps the segments: nothing a search returned points into them.
func (x *Index) Close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, s := range x.segs {
		if s.unmap != nil {
			s.unmap()
		}
	}
	x.segs = map[string]*segment{}
	x.blobs = map[blobKey]*blob{}
}

func decodeManifest(data []byte) (map[string]*fileEntry, bool) {
	if len(data) < len(manifestMagic)+4 || string(data[:len(manifestMagic)]) != manifestMagic {
		return nil, false
	}
	body := data[len(manifestMagic)+4:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(manifestMagic):]) {
		return nil, false
	}
	n, b, ok := readUvarint(body)
	if !ok || n > uint64(len(body)) {
		return nil, false
	}
	out := make(map[string]*fileEntry, n)
	for range n {
		var path string
		if path, b, ok = readStr(b); !ok {
			return nil, false
		}
		e := &fileEntry{}
		if e.state, b, ok = store.ReadTextState(b); !ok {
			return nil, false
		}
		var parts uint64
		if parts, b, ok = readUvarint(b); !ok || parts > maxParts+1 {
			return nil, false
		}
		for range parts {
			var r ref
			var off, ln uint64
			if r.seg, b, ok = readStr(b); !ok {
				return nil, false
			}
			if off, b, ok = readUvarint(b); !ok {
				return nil, false
			}
			if ln, b, ok = readUvarint(b); !ok || len(b) < 4 {
				return nil, false
			}
			r.off, r.n, r.crc = int64(off), int64(ln), binary.LittleEndian.Uint32(b)
			b = b[4:]
			e.parts = append(e.parts, r)
		}
		out[path] = e
	}
	return out, len(b) == 0
}

func encodeManifest(entries map[string]*fileEntry) []byte {
	body := binary.AppendUvarint(nil, uint64(len(entries)))
	for path, e := range entries {
		body = appendStr(body, path)
		body = e.state.AppendTo(body)
		body = binary.AppendUvarint(body, uint64(len(e.parts)))
		for _, r := range e.parts {
			body = appendStr(body, r.seg)
			body = binary.AppendUvarint(body, uint64(r.off))
			body = binary.AppendUvarint(body, uint64(r.n))
			body = binary.LittleEndian.AppendUint32(body, r.crc)
		}
	}
	out := append([]byte(manifestMagic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(out[len(manifestMagic):], crc32.Checksum(body, castagnoli))
	return append(out, body...)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// lockWait is how long a process waits for another that brings the index
// up to date before it goes on without the lock (its own segment, as
// before the lock): one stopped with ^Z must not stop every search.
var lockWait = 20 * time.Second

// Update brings the index up to date with files: an unchanged file is not
// read, one that grew only from where the index stopped, any other whole.
// progress, when not nil, is told how many files are done. It writes the
// new segment and manifest; errors writing them leave the index as it was
// (the search still reads every file it must).
//
// It holds the folder's lock meanwhile (where it can be taken within
// lockWait: else it goes on without), and starts from the manifest as the last process to
// hold it left it.
func (x *Index) Update(files []string, progress func(done, total int)) error {
	if unlock, err := cachefile.Lock(filepath.Join(x.dir, lockName), lockWait); err == nil {
		defer unlock()
		x.mu.Lock()
		if !x.changed {
			x.reload()
		}
		x.mu.Unlock()
	}
	err := x.update(files, progress)
	if err == nil {
		x.mu.Lock()
		x.saveLocked() // a failure is tried again by Save
		x.mu.Unlock()
	}
	return err
}

// lockName is the index's lock file in its folder.
const lockName = "lock"

func (x *Index) update(files []string, progress func(done, total int)) error {
	type job struct {
		path, key string
		prev      *fileEntry
	}
	var todo []job
	keys := keysOf(files)
	x.mu.Lock()
	sparse := x.sparseSegments()
	for i, f := range files {
		k := keys[i]
		e := x.entries[k]
		if e != nil && (x.damaged[k] || slices.ContainsFunc(e.parts, func(r ref) bool { return sparse[r.seg] })) {
			e = nil // damaged, or its segment is mostly dead: indexed again, into the new one
		}
		delete(x.damaged, k)
		todo = append(todo, job{f, k, e})
	}
	x.mu.Unlock()
	// The segment being written; one whose dictionary is full is finished
	// by the last writer in it, and a new one begun.
	w := (*segWriter)(nil)
	var wmu sync.Mutex
	var segErr error
	finish := func(sw *segWriter) {
		if err := sw.finish(); err != nil {
			segErr = err
		}
	}
	results := make([]*fileEntry, len(todo))
	var done int
	var dmu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				j := todo[i]
				results[i] = x.updateOne(j.path, j.prev, func(bb *blobBuilder) (ref, bool) {
					wmu.Lock()
					if w != nil && w.full() {
						w.retired = true
						if w.inflight == 0 {
							finish(w)
						}
						w = nil
					}
					if w == nil {
						w = newSegWriter(x.dir)
					}
					sw := w
					sw.inflight++
					wmu.Unlock()
					names := bb.termNames()
					b := bb.bytes(names, sw.ordinals(names))
					wmu.Lock()
					defer wmu.Unlock()
					r, ok := sw.write(b)
					if sw.inflight--; sw.retired && sw.inflight == 0 {
						finish(sw)
					}
					return r, ok
				})
				if progress != nil {
					dmu.Lock() // progress is told one at a time
					done++
					progress(done, len(todo))
					dmu.Unlock()
				}
			}
		})
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	if w != nil {
		finish(w)
	}
	if segErr != nil {
		return segErr // the manifest is not changed: the run searches through the files
	}
	for _, r := range results {
		if r == nil {
			continue
		}
		for k, p := range r.parts {
			if p.pending > 0 {
				r.parts[k] = p.from.written[p.pending-1]
			}
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, j := range todo {
		if r := results[i]; r != nil && r != j.prev {
			x.entries[j.key] = r
			x.changed = true
		} else if r == nil {
			if _, had := x.entries[j.key]; had {
				delete(x.entries, j.key) // no longer indexable: nothing of it counts
				x.changed = true
			}
		}
	}
	return nil
}

// updateOne is a file's entry brought up to date (prev itself when it is
// unchanged; nil when the file cannot be indexed).
func (x *Index) updateOne(path string, prev *fileEntry, write func(*blobBuilder) (ref, bool)) *fileEntry {
	readable := prev != nil && x.partsReadable(prev)
	if readable {
		if st, ok := prev.state.Check(path); ok && st == prev.state {
			return prev
		} else if ok {
			return &fileEntry{state: st, parts: prev.parts} // its bytes said: the stat is trusted next time
		}
	}
	var ps *store.TextState
	if readable && len(prev.parts) < maxParts {
		ps = &prev.state
	}
	part, grown, err := store.ReadText(path, ps)
	if err != nil {
		return nil
	}
	x.mu.Lock()
	if grown {
		x.PartReads++
	} else {
		x.Reads++
	}
	x.mu.Unlock()
	r, ok := write(buildBlob(part))
	if !ok {
		return nil
	}
	e := &fileEntry{state: part.State}
	if grown {
		e.parts = append(append(e.parts, prev.parts...), r)
	} else {
		e.parts = []ref{r}
	}
	return e
}

// buildBlob indexes a session part's messages.
func buildBlob(part *store.TextPart) *blobBuilder {
	s := part.Session
	bb := newBlobBuilder(s.Info.ID, s.Info.Cwd, s.Info.Format)
	eachDoc(s, func(i int, e model.Entry, m *model.Message) {
		line := part.Lines[i]
		bb.add(line[0], line[1], crc32.Checksum(s.Raw(i), castagnoli), e.ID, m.Role, jsdate.Parse(e.Timestamp), m.SearchText(), toolNames(m))
	})
	return bb
}

// partsReadable reports whether every segment an entry names is there.
func (x *Index) partsReadable(e *fileEntry) bool {
	for _, r := range e.parts {
		if _, _, err := x.blobOf(r); err != nil {
			return false
		}
	}
	return true
}

// blobOf reads a blob, its checksum checked, and its segment's dictionary.
func (x *Index) blobOf(r ref) (*blob, *dict, error) {
	x.mu.Lock()
	s := x.segsLocked(r.seg)
	x.mu.Unlock()
	if s.err != nil {
		return nil, nil, s.err
	}
	if r.off < 0 || r.n < 0 || r.off > int64(len(s.data)) || r.n > int64(len(s.data))-r.off {
		return nil, nil, errBlob
	}
	key := blobKey{r.seg, r.off, r.n, r.crc}
	x.mu.Lock()
	b := x.blobs[key]
	x.mu.Unlock()
	if b == nil {
		var err error
		if b, err = parseBlob(s.data[r.off:r.off+r.n], &r.crc); err != nil {
			return nil, nil, err
		}
		x.mu.Lock()
		x.blobs[key] = b
		x.mu.Unlock()
	}
	return b, s.dict, nil
}

type blobKey struct {
	seg    string
	off, n int64
	crc    uint32
}

// damage marks a file whose index a search found damaged: the next
// Update indexes it again.
func (x *Index) damage(path string) {
	k := keysOf([]string{path})[0]
	x.mu.Lock()
	defer x.mu.Unlock()
	x.damaged[k] = true
}

// keysOf are the files' keys in the index: each one's real path (absolute,
// its folders' links resolved), so that a session named relative to one
// folder, absolute, or through a link is indexed once. A folder that
// cannot be resolved keeps the path made absolute. Each folder is resolved
// once.
func keysOf(files []string) []string {
	out := make([]string, len(files))
	dirs := map[string]string{}
	for i, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			out[i] = f
			continue
		}
		dir, base := filepath.Split(abs)
		real, ok := dirs[dir]
		if !ok {
			if real, err = filepath.EvalSymlinks(dir); err != nil {
				real = filepath.Clean(dir)
			}
			dirs[dir] = real
		}
		out[i] = filepath.Join(real, base)
	}
	return out
}

// Save writes the manifest when this run changed it and Update could not
// (Update writes it as it ends).
func (x *Index) Save() error {
	x.mu.Lock()
	changed := x.changed
	x.mu.Unlock()
	if !changed {
		return nil
	}
	if unlock, err := cachefile.Lock(filepath.Join(x.dir, lockName), lockWait); err == nil {
		defer unlock()
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.saveLocked()
}

// saveLocked writes the manifest when this run changed it, keeping the
// entries of files outside this run that still exist, and removes what no
// one needs: segments no manifest names and temporary files, once old,
// and at once a name there that is not a regular file. x.mu is held.
func (x *Index) saveLocked() error {
	if !x.changed {
		return nil
	}
	for p := range x.entries {
		if _, err := os.Lstat(p); err != nil {
			delete(x.entries, p)
		}
	}
	if err := cachefile.WriteFile(filepath.Join(x.dir, "manifest"), encodeManifest(x.entries)); err != nil {
		return err
	}
	x.changed = false
	named := map[string]bool{}
	for _, e := range x.entries {
		for _, r := range e.parts {
			named[r.seg] = true
		}
	}
	des, err := os.ReadDir(x.dir)
	if err != nil {
		return nil
	}
	for _, de := range des {
		name := de.Name()
		if named[name] || !(strings.HasPrefix(name, "seg-") || strings.Contains(name, ".tmp")) {
			continue
		}
		if info, err := de.Info(); err == nil && (!info.Mode().IsRegular() || time.Since(info.ModTime()) > staleAfter) {
			os.Remove(filepath.Join(x.dir, name))
		}
	}
	return nil
}

// sparseSegments are the segments whose files are indexed again this
// run, so that dead blobs and small segments do not pile up: those whose
// blobs are less than half alive, and the smallest of more than 16 small
// ones. x.mu is held.
func (x *Index) sparseSegments() map[string]bool {
	live := map[string]int64{}
	for _, e := range x.entries {
		for _, r := range e.parts {
			live[r.seg] += r.n
		}
	}
	out := map[string]bool{}
	var small []string
	for seg, n := range live {
		st, err := os.Stat(filepath.Join(x.dir, seg))
		if err != nil {
			continue
		}
		if st.Size() > 1<<20 && n < st.Size()/2 {
			out[seg] = true
		} else if st.Size() < 16<<20 {
			small = append(small, seg)
		}
	}
	// Many small segments (a run each, of a few appends): the smallest
	// merged into the new one, leaving 8. Large ones stay.
	if len(small) > 16 {
		slices.SortFunc(small, func(a, b string) int { return int(live[a] - live[b]) })
		for _, seg := range small[:len(small)-8] {
			out[seg] = true
		}
	}
	return out
}

// segsLocked is a segment, mapped once; x.mu is held.
func (x *Index) segsLocked(name string) *segment {
	s := x.segs[name]
	if s == nil {
		s = &segment{}
		if strings.ContainsAny(name, `/\`) || name == ".." {
			s.err = errBlob
		} else {
			s.data, s.unmap, s.err = store.MapFile(filepath.Join(x.dir, name))
			if s.err == nil {
				s.dict, s.err = segDict(s.data)
			}
		}
		x.segs[name] = s
	}
	return s
}

// Files is q over files: through x brought up to date first (progress
// told how many files it checked), or, without an index or when it cannot
// be written, every file read and searched on every core.
// With perSession, only each session's best match is kept.
func Files(x *Index, q *Query, files []string, limit int, perSession bool, progress func(done, total int)) []Hit {
	if x != nil {
		if err := x.Update(files, progress); err == nil {
			hits := x.search(q, files, limit, perSession)
			x.Save()
			return hits
		}
	}
	return readAll(q, files, limit, perSession)
}

// readAll is q over files read and searched, each on every core.
func readAll(q *Query, files []string, limit int, perSession bool) []Hit {
	s := New(q)
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan string)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for f := range next {
				sess, err := store.Open(f)
				if err != nil {
					continue
				}
				mu.Lock()
				s.Add(sess)
				mu.Unlock()
			}
		})
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	if !perSession {
		return s.Hits(limit)
	}
	var out []Hit
	seen := map[string]bool{}
	for _, h := range s.Hits(0) {
		if !seen[h.Path] && (limit <= 0 || len(out) < limit) {
			seen[h.Path] = true
			out = append(out, h)
		}
	}
	return out
}
