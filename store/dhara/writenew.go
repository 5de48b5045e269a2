package dhara

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"skein/internal/hugemem"
	"skein/internal/jsjson"
	"skein/internal/writeback"
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
func usageJSON(u *model.Usage) []byte {
	num := func(b []byte, k string, v float64) []byte {
		b = jsjson.AppendString(b, k)
		b = append(b, ':')
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
	if u.HasCost {
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
	m := b.metaJSON(now, meta)
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

// streamEntries writes the lines to a new file at path, synced: parts of
// linesPerPart built on every core, written in order as they are done,
// the disk's writeback started for each.
func (b *builder) streamEntries(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	const linesPerPart = 4096
	parts := (len(b.lines) + linesPerPart - 1) / linesPerPart
	ready := make([]chan []byte, parts)
	for k := range ready {
		ready[k] = make(chan []byte, 1)
	}
	var next atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= parts {
					return
				}
				part := b.lines[k*linesPerPart : min(len(b.lines), (k+1)*linesPerPart)]
				n := 0
				for _, l := range part {
					n += l.size() + 1
				}
				buf := make([]byte, 0, n)
				for _, l := range part {
					buf = append(l.appendTo(buf), '\n')
				}
				select {
				case ready[k] <- buf:
				case <-stop:
					return
				}
			}
		}()
	}
	var off int64
	for k := range parts {
		buf := <-ready[k]
		if _, err := f.Write(buf); err != nil {
			return err
		}
		writeback.Start(f, off, int64(len(buf)))
		off += int64(len(buf))
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// writeNewFolder makes a session folder in root named id, whole or not at
// all: write fills a hidden temporary folder, which is synced and renamed.
func writeNewFolder(root, id string, write func(tmp string) error) (string, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	dir := filepath.Join(root, id)
	if _, err := os.Lstat(dir); err == nil {
		return "", fmt.Errorf("%s exists", dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, ".import-"+id+"-")
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := write(tmp); err != nil {
		return "", err
	}
	if err := syncDir(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	ok = true
	return dir, syncDir(root)
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
