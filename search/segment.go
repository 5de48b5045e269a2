package search

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"skein/internal/cachefile"
)

// A segment file: the blobs of the sessions one run indexed, then the
// dictionary of their words, then a footer that finds it.

// segWriter makes a new segment: the blobs go to a scratch file as they
// come, their words numbered as they are first met; at the end the words
// are sorted, each blob is copied to the segment with its words numbered
// by that order, and the dictionary follows, then a footer (the
// dictionary's offset u64, length u32 and CRC-32C u32, and the magic).
type segWriter struct {
	dir, name string
	raw       *cachefile.File
	off       int64
	refs      []ref // in the scratch file
	err       error
	mu        sync.Mutex // the dictionary's
	ords      map[string]uint32
	words     []string
	// inflight counts the blobs being made with its dictionary; once
	// retired (full), the last of them finishes it.
	inflight int
	retired  bool
	written  []ref // when finished: the blobs' refs, in their order
	wordSize int
}

// segDictBytes is how many bytes of words a segment's dictionary takes before
// the next blob begins a new segment: the dictionary is built in memory.
var segDictBytes = 64 << 20

func (w *segWriter) full() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.wordSize > segDictBytes
}

const segMagic = "SKS1"

// ordinals gives words their ordinals, new words the next ones.
func (w *segWriter) ordinals(words []string) []uint32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]uint32, len(words))
	for i, t := range words {
		o, ok := w.ords[t]
		if !ok {
			o = uint32(len(w.words))
			w.ords[t] = o
			w.words = append(w.words, t)
			w.wordSize += len(t) + 40 // and the map's and the slice's share
		}
		out[i] = o
	}
	return out
}

func newSegWriter(dir string) *segWriter {
	var r [8]byte
	_, _ = rand.Read(r[:])
	w := &segWriter{dir: dir, name: "seg-" + hex.EncodeToString(r[:]) + ".ft", ords: map[string]uint32{}}
	w.raw, w.err = cachefile.Create(dir, w.name+".raw")
	return w
}

// write adds a blob; its ref is pending until finish.
func (w *segWriter) write(b []byte) (ref, bool) {
	if w.err != nil {
		return ref{}, false
	}
	if _, w.err = w.raw.Write(b); w.err != nil {
		return ref{}, false
	}
	w.refs = append(w.refs, ref{off: w.off, n: int64(len(b))})
	w.off += int64(len(b))
	return ref{pending: len(w.refs), from: w}, true
}

// finish writes the segment, synced, renamed into place; written then
// holds the refs of its blobs, in their order.
func (w *segWriter) finish() error {
	if w.raw == nil {
		return w.err
	}
	defer w.raw.Discard()
	if w.err != nil {
		return w.err
	}
	type word struct {
		w string
		o uint32
	}
	order := make([]word, len(w.words))
	for i, t := range w.words {
		order[i] = word{t, uint32(i)}
	}
	slices.SortFunc(order, func(a, b word) int { return strings.Compare(a.w, b.w) })
	to := make([]uint32, len(order))
	sorted := make([]string, len(order))
	for k, o := range order {
		to[o.o] = uint32(k)
		sorted[k] = o.w
	}
	f, err := cachefile.Create(w.dir, w.name)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(f, 1<<20)
	var refs []ref
	var off int64
	buf := []byte{}
	for _, r := range w.refs {
		if cap(buf) < int(r.n) {
			buf = make([]byte, r.n)
		}
		buf = buf[:r.n]
		if _, err = w.raw.ReadAt(buf, r.off); err != nil {
			break
		}
		b, ok := remap(buf, to)
		if !ok {
			err = errBlob
			break
		}
		if _, err = out.Write(b); err != nil {
			break
		}
		refs = append(refs, ref{seg: w.name, off: off, n: int64(len(b)), crc: crc32.Checksum(headOf(b), castagnoli)})
		off += int64(len(b))
	}
	if err == nil {
		d := appendDict(nil, sorted)
		foot := binary.LittleEndian.AppendUint64(nil, uint64(off))
		foot = binary.LittleEndian.AppendUint32(foot, uint32(len(d)))
		foot = binary.LittleEndian.AppendUint32(foot, crc32.Checksum(d, castagnoli))
		foot = append(foot, segMagic...)
		if _, err = out.Write(append(d, foot...)); err == nil {
			err = out.Flush()
		}
	}
	if err != nil {
		f.Discard()
		return err
	}
	if err := f.Commit(filepath.Join(w.dir, w.name)); err != nil {
		return err
	}
	w.written = refs
	w.ords, w.words = nil, nil
	return nil
}

// segDict is a segment's dictionary, found by its footer and checked.
func segDict(data []byte) (*dict, error) {
	if len(data) < 20 || string(data[len(data)-4:]) != segMagic {
		return nil, errBlob
	}
	foot := data[len(data)-20:]
	off := binary.LittleEndian.Uint64(foot)
	n := uint64(binary.LittleEndian.Uint32(foot[8:]))
	if off > uint64(len(data)-20) || n != uint64(len(data)-20)-off {
		return nil, errBlob
	}
	d := data[off : off+n]
	if crc32.Checksum(d, castagnoli) != binary.LittleEndian.Uint32(foot[12:]) {
		return nil, errBlob
	}
	return parseDict(d)
}
