package dhara

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"skein/internal/hugemem"
	"skein/internal/jsjson"
	"skein/internal/randid"
	"skein/model"
)

// contentJSON is content blocks in Dhara's shape: text, thinking, image
// (with its data); a block of another kind as {"type", "text"} when it
// has text. Tool calls are entries of their own.
func contentJSON(blocks []model.Block) []byte {
	n := 2
	for _, blk := range blocks {
		n += 48 + len(blk.Text) + len(blk.TextJSON) + len(blk.Data) + len(blk.MimeType) + len(blk.Name)
	}
	out := append(make([]byte, 0, n+n/16), '[')
	first := true
	sep := func() {
		if !first {
			out = append(out, ',')
		}
		first = false
	}
	for _, blk := range blocks {
		switch blk.Type {
		case model.BlockText:
			sep()
			out = append(appendText(append(out, `{"type":"text","text":`...), &blk), '}')
		case model.BlockThinking:
			sep()
			out = append(appendText(append(out, `{"type":"thinking","thinking":`...), &blk), '}')
		case model.BlockImage:
			sep()
			out = jsjson.AppendString(append(out, `{"type":"image","mimeType":`...), blk.MimeType)
			out = append(jsjson.AppendString(append(out, `,"data":`...), blk.Data), '}')
		case model.BlockToolCall:
			continue
		default:
			if blk.Text == "" && blk.Name == "" {
				continue
			}
			sep()
			out = jsjson.AppendString(append(out, `{"type":`...), blk.Name)
			out = append(jsjson.AppendString(append(out, `,"text":`...), blk.Text), '}')
		}
	}
	return append(out, ']')
}

// appendText appends a text or thinking block's text as a JSON string: its
// literal when the source gave it (model.Block.TextJSON).
func appendText(dst []byte, blk *model.Block) []byte {
	if blk.TextJSON != nil {
		return append(dst, blk.TextJSON...)
	}
	return jsjson.AppendString(dst, blk.Text)
}

// usageJSON is a usage in pi's shape, which Dhara's entries may carry.
func usageJSON(u *model.Usage) []byte { return appendUsage(u, false) }

// compactionUsage is a compaction's usage as pi writes it: with its total
// and its cost, whatever the model said of it.
func compactionUsage(u *model.Usage) []byte { return appendUsage(u, true) }

func appendUsage(u *model.Usage, compaction bool) []byte {
	num := func(b []byte, k string, v float64) []byte {
		b = jsjson.AppendKey(b, k)
		return jsjson.AppendNumber(b, v)
	}
	b := []byte{'{'}
	b = num(b, "input", u.Input)
	b = append(b, ',')
	b = num(b, "output", u.Output)
	b = append(b, ',')
	b = num(b, "cacheRead", u.CacheRead)
	b = append(b, ',')
	b = num(b, "cacheWrite", u.CacheWrite)
	if compaction {
		b = append(b, ',')
		b = num(b, "totalTokens", u.Input+u.Output+u.CacheRead+u.CacheWrite)
	}
	if u.HasCost || compaction {
		b = append(b, `,"cost":{`...)
		b = num(b, "total", u.Cost)
		b = append(b, '}')
	}
	return append(b, '}')
}

// WriteNew writes a built session as a new folder in root, whole or not at
// all: its files in a hidden temporary folder, each synced, the folder
// synced and renamed to the session's id. It returns the folder.
func WriteNew(root string, b Built) (string, error) {
	return writeNewFolder(root, b.ID, func(tmp string) error {
		return writeAtOnce(tmp, func(path string) error {
			n := 0
			for _, l := range b.Entries {
				n += len(l) + 1
			}
			entries := make([]byte, 0, n)
			hugemem.Advise(entries[:n])
			for _, l := range b.Entries {
				entries = append(entries, l...)
				entries = append(entries, '\n')
			}
			return writeSynced(path, entries)
		}, func() []byte { return indented(b.Tree) }, b.Meta)
	})
}

// WriteFromSession is FromSession written as a new folder in root (as
// WriteNew writes one), its lines going to entries.jsonl as they are made,
// a part at a time on every core, while tree.json is made: the disk
// writes the first parts while the rest are built.
func WriteFromSession(root string, s *model.Session, now time.Time, meta []Field) (string, error) {
	b := build(s, now)
	tb := b.branches(isoMs(now))
	m := b.metaJSON(now, "", meta)
	return writeNewFolder(root, b.id, func(tmp string) error {
		return writeAtOnce(tmp, b.streamEntries, func() []byte { return b.treeBytes(tb) }, m)
	})
}

// writeAtOnce writes a session's three files in folder tmp at once (the
// disk syncs one while another is written, and tree.json is made while
// entries.jsonl is written): entries.jsonl by entries, tree.json of tree's
// bytes, and meta.json (an object, indented as stored).
func writeAtOnce(tmp string, entries func(path string) error, tree func() []byte, meta []byte) error {
	errs := make(chan error, 2)
	go func() { errs <- entries(filepath.Join(tmp, EntriesFile)) }()
	go func() { errs <- writeSynced(filepath.Join(tmp, TreeFile), tree()) }()
	err := writeSynced(filepath.Join(tmp, MetaFile), indent(meta))
	for range 2 {
		if e := <-errs; err == nil {
			err = e
		}
	}
	return err
}

// streamEntries writes the lines to a new file at path, synced, as
// writeLines makes them, the disk's writeback started for each part.
func (b *builder) streamEntries(path string) error {
	f, err := fsys.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := b.writeLines(f, "", "", "\n", f.StartWriteback); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// partsAhead is how many parts of lines writeLines builds ahead of the
// writer, per core: enough to keep every core busy while one part is
// written, few enough that a disk or a pipe slower than the cores does not
// leave the whole output on the heap (a 1 GB import held all of it).
const partsAhead = 2

// partBuilt, when set (by tests), is told of each part writeLines built.
var partBuilt func(k int)

// writeLines writes the lines to w as they are made: parts of linesPerPart
// built on every core, a few ahead of the writer, written in order. Each
// line goes between lead (the first line's) or sep (the others') and end.
// wrote, when set, is told of each part written (its offset and length).
func (b *builder) writeLines(w io.Writer, lead, sep, end string, wrote func(off, n int64)) error {
	const linesPerPart = 4096
	parts := (len(b.lines) + linesPerPart - 1) / linesPerPart
	ready := make([]chan []byte, parts)
	for k := range ready {
		ready[k] = make(chan []byte, 1)
	}
	workers := runtime.GOMAXPROCS(0)
	// A worker takes a slot before it takes a part, and the writer frees
	// it once the part is written: the part the writer waits for always
	// has its slot, so the writer never waits on a worker that waits on it.
	slots := make(chan struct{}, workers*partsAhead)
	var next atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	for range workers {
		go func() {
			for {
				select {
				case slots <- struct{}{}:
				case <-stop:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= parts {
					return
				}
				part := b.lines[k*linesPerPart : min(len(b.lines), (k+1)*linesPerPart)]
				n := 0
				for _, l := range part {
					n += len(sep) + l.size() + len(end)
				}
				buf := make([]byte, 0, n)
				for j := range part {
					if k == 0 && j == 0 {
						buf = append(buf, lead...)
					} else {
						buf = append(buf, sep...)
					}
					buf = append(part[j].appendTo(buf), end...)
				}
				if partBuilt != nil {
					partBuilt(k)
				}
				ready[k] <- buf // its own channel, with room for it
			}
		}()
	}
	var off int64
	for k := range parts {
		buf := <-ready[k]
		if _, err := w.Write(buf); err != nil {
			return err
		}
		if wrote != nil {
			wrote(off, int64(len(buf)))
		}
		off += int64(len(buf))
		<-slots
	}
	return nil
}

// WriteJSON writes the session s, of any format, in Dhara's model as one
// JSON document (Document's), its entries written as they are made rather
// than kept: the json export of a 1 GB session held its output twice. It
// is the session as it is, not a new one: its meta names the session's own
// id and times (ownTimes), and now is only what a session that holds no
// time at all is dated by.
func WriteJSON(w io.Writer, s *model.Session, now time.Time) error {
	b := build(s, now)
	if s.Info.ID != "" {
		b.id = s.Info.ID
	}
	updated := b.updatedAt(now)
	tb := b.branches(updated)
	b.keepActive(tb, updated)
	return Document(w, b.metaJSON(now, updated, nil), func(w io.Writer) error {
		return b.writeLines(w, "\n", ",\n", "", nil)
	}, func() []byte { return b.treeBytes(tb) })
}

// Document writes a session in Dhara's model as one JSON document:
// {"meta": meta.json's object, "entries": entries.jsonl's objects, one a
// line, "tree": tree.json's object}; entries writes the entries' part,
// each line after a newline and the lines apart from the first after a
// comma.
func Document(w io.Writer, meta []byte, entries func(io.Writer) error, tree func() []byte) error {
	for _, step := range []func() error{
		func() error { return writeAll(w, `{"meta":`, meta, `,"entries":[`) },
		func() error { return entries(w) },
		func() error { return writeAll(w, "\n],\"tree\":", tree(), "}\n") },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// writeAll writes head, body and tail to w, stopping at an error.
func writeAll(w io.Writer, head string, body []byte, tail string) error {
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	_, err := io.WriteString(w, tail)
	return err
}

// writeNewFolder makes a session folder in root named id, whole or not at
// all: write fills a hidden staging folder, which is synced and renamed.
// A failure removes the staging folder; one a killed import left is
// removed by the next import into root (removeStaleImports).
func writeNewFolder(root, id string, write func(tmp string) error) (string, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	removeStaleImports(root)
	dir := filepath.Join(root, id)
	if _, err := os.Lstat(dir); err == nil {
		return "", fmt.Errorf("%s exists", dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	tmp, release, err := makeStaging(root, id)
	if err != nil {
		return "", err
	}
	defer release()
	ok := false
	defer func() {
		if !ok {
			fsys.RemoveAll(tmp)
		}
	}()
	if err := write(tmp); err != nil {
		return "", err
	}
	if err := syncDir(tmp); err != nil {
		return "", err
	}
	if err := fsys.RenameNew(tmp, dir); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("%s exists", dir)
		}
		return "", err
	}
	ok = true
	// The folder is there, whole: a root that could not be synced keeps
	// it in the cache, and a failure now would have the import made twice.
	_ = syncDir(root)
	return dir, nil
}

// stagingPrefix begins the name of an import's staging folder:
// .import-<id>-<pid>-<random hex>. Discovery and live follow skip such
// folders; the pid tells a dead importer's folder from a live one's.
const stagingPrefix = ".import-"

// makeStaging makes an empty staging folder for the session id in root
// and takes its lock (the folder's own, where the platform locks folders:
// a live importer holds it whatever its pid means to the process that
// looks); release gives the lock back.
func makeStaging(root, id string) (string, func(), error) {
	var tmp string
	if _, err := randid.Create(8, func(random string) error {
		tmp = filepath.Join(root, stagingPrefix+id+"-"+strconv.Itoa(os.Getpid())+"-"+random)
		return fsys.Mkdir(tmp, 0o700)
	}); err != nil {
		return "", nil, err
	}
	release := func() {}
	if d, err := os.Open(tmp); err == nil {
		_ = tryLockFile(d)
		release = func() { d.Close() }
	}
	return tmp, release, nil
}

// stagingPID is the importer's pid in a staging folder's name.
func stagingPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, stagingPrefix)
	if !ok {
		return 0, false
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 {
		return 0, false
	}
	random := rest[i+1:]
	if len(random) != 16 || strings.Trim(random, "0123456789abcdef") != "" {
		return 0, false
	}
	rest = rest[:i]
	j := strings.LastIndexByte(rest, '-')
	if j < 1 {
		return 0, false
	}
	num := rest[j+1:]
	pid, err := strconv.Atoi(num)
	if err != nil || pid <= 0 || strings.Trim(num, "0123456789") != "" {
		return 0, false
	}
	return pid, true
}

// removeStaleImports removes the staging folders in root that a killed
// import left: named as makeStaging names them, their pid no live
// process's, and their lock free. A folder a live import is filling is
// never one of them; neither is anything else.
func removeStaleImports(root string) {
	des, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, de := range des {
		pid, ok := stagingPID(de.Name())
		if !ok || !de.IsDir() || pid == os.Getpid() || alive(pid) {
			continue
		}
		path := filepath.Join(root, de.Name())
		d, err := os.Open(path)
		if err != nil {
			continue
		}
		fi, err := d.Stat()
		if err == nil && fi.IsDir() && !tryLockFile(d) {
			if now, err := os.Lstat(path); err == nil && os.SameFile(fi, now) {
				fsys.RemoveAll(path)
			}
		}
		d.Close()
	}
}

// writeSynced writes data to a new file at path, synced.
func writeSynced(path string, data []byte) error {
	_, err := writeNew(path, data, 0o600)
	return err
}
