package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sort"
)

// A blob is the text index of one session file's part (the whole file, or
// what was appended to it since): its messages ("docs": where each one's
// record is, its entry id, role, time and length in words) and, for each
// word in them, which messages hold it and how often. A word is its
// ordinal in the dictionary of the segment the blob is in (each word once
// per segment, not once per session: most words of a large vocabulary are
// rare, and their text would be most of the index).
//
//	magic "SKT2" | docs u32 | terms u32 | system docs u32 | words u64 | system words u64
//	meta: length u32, then session id, cwd, format (uvarint-length strings)
//	docs: 36 bytes each: offset u64, length u32, words u32, time f64, pool u32, flags u8, 3 zero,
//	  the record's CRC-32C (to know it when it is read again)
//	pool: length u32, then per doc role and entry id (uvarint-length strings)
//	blocks: count u32, then per block of up to 64 words its first ordinal u32 and offset u32
//	block data: per word the ordinal's difference from the last (uvarint), the
//	  postings' length (uvarint) and the postings: per message, its difference
//	  from the last one shifted left once, with 1 when it holds the word more than
//	  once (uvarint), and then that count less 2 (uvarint)
//
// A tool's name is a word of its own, "\x00" + name, exactly.
const blobMagic = "SKT2"

const docSize = 36

const flagSystem = 1

// blockTerms is how many words a block holds: a word is found by binary
// search over the blocks, then read through its block.
const blockTerms = 64

// pending is a word's postings being made; the open message's gap and
// count are written when the next message (or the end) comes.
type pending struct {
	b             []byte
	last, gap, tf uint32
	open          bool
}

// blobBuilder makes a blob from one message after another.
type blobBuilder struct {
	meta          []byte
	docs, pool    []byte
	n, system     uint32
	words, sysW   uint64
	terms         map[string]int32 // index in posts
	posts         []pending
	scratch, tbuf []byte
}

func newBlobBuilder(sessionID, cwd, format string) *blobBuilder {
	bb := &blobBuilder{terms: make(map[string]int32, 1024)}
	for _, s := range []string{sessionID, cwd, format} {
		bb.meta = appendStr(bb.meta, s)
	}
	return bb
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// add is one message: where its record lies and its checksum, what it
// is, and its text.
func (bb *blobBuilder) add(off, n int64, crc uint32, entryID, role string, time float64, text string, tools []string) {
	doc := bb.n
	words := uint64(wordCount(text))
	var rec [docSize]byte
	binary.LittleEndian.PutUint64(rec[0:], uint64(off))
	binary.LittleEndian.PutUint32(rec[8:], uint32(min(n, math.MaxUint32)))
	binary.LittleEndian.PutUint32(rec[12:], uint32(min(words, math.MaxUint32)))
	binary.LittleEndian.PutUint64(rec[16:], math.Float64bits(time))
	binary.LittleEndian.PutUint32(rec[24:], uint32(len(bb.pool)))
	binary.LittleEndian.PutUint32(rec[32:], crc)
	if role == "system" {
		rec[28] = flagSystem
		bb.system++
		bb.sysW += words
	}
	bb.docs = append(bb.docs, rec[:]...)
	bb.pool = appendStr(appendStr(bb.pool, role), entryID)
	bb.words += words
	bb.n++
	see := func(term []byte) {
		k, ok := bb.terms[string(term)]
		if !ok {
			k = int32(len(bb.posts))
			bb.terms[string(term)] = k
			bb.posts = append(bb.posts, pending{})
		}
		p := &bb.posts[k]
		if p.open && p.last == doc {
			p.tf++
			return
		}
		if p.open {
			p.flush()
		}
		// The first message's difference is from message 0.
		p.gap = doc - p.last
		p.last, p.tf, p.open = doc, 1, true
	}
	bb.scratch = eachTerm(text, bb.scratch, see)
	for _, t := range tools {
		bb.tbuf = append(append(bb.tbuf[:0], 0), t...)
		see(bb.tbuf)
	}
}

// flush writes the open message: gap<<1 | (count > 1), then the count
// less 2 when it is more than one.
func (p *pending) flush() {
	gap := uint64(p.gap)
	if p.tf > 1 {
		p.b = binary.AppendUvarint(p.b, gap<<1|1)
		p.b = binary.AppendUvarint(p.b, uint64(p.tf-2))
	} else {
		p.b = binary.AppendUvarint(p.b, gap<<1)
	}
	p.open = false
}

// termNames are the builder's words, for the segment to give ordinals.
func (bb *blobBuilder) termNames() []string {
	out := make([]string, 0, len(bb.terms))
	for k := range bb.terms {
		out = append(out, k)
	}
	return out
}

// termPost is a word's ordinal and postings, as a blob holds them.
type termPost struct {
	ord  uint32
	post []byte
}

// bytes is the blob, its words by the ordinals ords gives termNames.
func (bb *blobBuilder) bytes(names []string, ords []uint32) []byte {
	terms := make([]termPost, len(names))
	size := 0
	for i, name := range names {
		p := &bb.posts[bb.terms[name]]
		if p.open {
			p.flush()
		}
		terms[i] = termPost{ords[i], p.b}
		size += len(p.b) + 6
	}
	out := make([]byte, 0, 48+len(bb.meta)+len(bb.docs)+len(bb.pool)+size+size/8)
	out = append(out, blobMagic...)
	out = binary.LittleEndian.AppendUint32(out, bb.n)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(terms)))
	out = binary.LittleEndian.AppendUint32(out, bb.system)
	out = binary.LittleEndian.AppendUint64(out, bb.words)
	out = binary.LittleEndian.AppendUint64(out, bb.sysW)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(bb.meta)))
	out = append(out, bb.meta...)
	out = append(out, bb.docs...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(bb.pool)))
	out = append(out, bb.pool...)
	return appendTerms(out, terms)
}

// appendTerms writes a blob's words, sorted by ordinal, in blocks.
func appendTerms(out []byte, terms []termPost) []byte {
	slices.SortFunc(terms, func(a, b termPost) int {
		if a.ord < b.ord {
			return -1
		}
		if a.ord > b.ord {
			return 1
		}
		return 0
	})
	nBlocks := (len(terms) + blockTerms - 1) / blockTerms
	out = binary.LittleEndian.AppendUint32(out, uint32(nBlocks))
	table := len(out)
	out = append(out, make([]byte, 8*nBlocks)...)
	data := len(out)
	last := uint32(0)
	for k, t := range terms {
		if k%blockTerms == 0 {
			blk := table + 8*(k/blockTerms)
			binary.LittleEndian.PutUint32(out[blk:], t.ord)
			binary.LittleEndian.PutUint32(out[blk+4:], uint32(len(out)-data))
			last = t.ord
		}
		out = binary.AppendUvarint(out, uint64(t.ord-last))
		out = binary.AppendUvarint(out, uint64(len(t.post)))
		out = append(out, t.post...)
		last = t.ord
	}
	return out
}

// remap is blob b with its words' ordinals changed by to (the segment's
// dictionary sorted once it is whole), or false when b is damaged.
func remap(b []byte, to []uint32) ([]byte, bool) {
	x, err := parseBlob(b)
	if err != nil {
		return nil, false
	}
	head := len(b) - len(x.data) - len(x.blocks) - 4
	terms := make([]termPost, 0, x.nTerms)
	ok := true
	x.eachTerm(func(o uint32, post []byte) {
		if int(o) >= len(to) {
			ok = false
			return
		}
		terms = append(terms, termPost{to[o], post})
	})
	if !ok || len(terms) != x.nTerms {
		return nil, false
	}
	out := make([]byte, 0, len(b)+len(b)/16)
	return appendTerms(append(out, b[:head]...), terms), true
}

// blob is a blob read back; every offset in it is checked before use.
type blob struct {
	nDocs, nTerms       int
	system              int
	words, sysWords     uint64
	sessionID, cwd, fmt string
	docs, pool          []byte
	blocks, data        []byte
}

var errBlob = errors.New("a damaged text index")

func readUvarint(b []byte) (uint64, []byte, bool) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, false
	}
	return v, b[n:], true
}

func readStr(b []byte) (string, []byte, bool) {
	n, b, ok := readUvarint(b)
	if !ok || n > uint64(len(b)) {
		return "", nil, false
	}
	return string(b[:n]), b[n:], true
}

func parseBlob(b []byte) (*blob, error) {
	if len(b) < 40 || string(b[:4]) != blobMagic {
		return nil, errBlob
	}
	le := binary.LittleEndian
	x := &blob{nDocs: int(le.Uint32(b[4:])), nTerms: int(le.Uint32(b[8:])), system: int(le.Uint32(b[12:])), words: le.Uint64(b[16:]), sysWords: le.Uint64(b[24:])}
	metaLen := int(le.Uint32(b[32:]))
	rest := b[36:]
	if metaLen > len(rest) {
		return nil, errBlob
	}
	meta := rest[:metaLen]
	rest = rest[metaLen:]
	var ok bool
	if x.sessionID, meta, ok = readStr(meta); !ok {
		return nil, errBlob
	}
	if x.cwd, meta, ok = readStr(meta); !ok {
		return nil, errBlob
	}
	if x.fmt, _, ok = readStr(meta); !ok {
		return nil, errBlob
	}
	if x.nDocs > len(rest)/docSize {
		return nil, errBlob
	}
	x.docs, rest = rest[:x.nDocs*docSize], rest[x.nDocs*docSize:]
	if len(rest) < 4 {
		return nil, errBlob
	}
	poolLen := int(le.Uint32(rest))
	rest = rest[4:]
	if poolLen > len(rest) {
		return nil, errBlob
	}
	x.pool, rest = rest[:poolLen], rest[poolLen:]
	if len(rest) < 4 {
		return nil, errBlob
	}
	nBlocks := int(le.Uint32(rest))
	rest = rest[4:]
	if nBlocks > len(rest)/8 || nBlocks != (x.nTerms+blockTerms-1)/blockTerms {
		return nil, errBlob
	}
	x.blocks, x.data = rest[:8*nBlocks], rest[8*nBlocks:]
	return x, nil
}

// doc is message k's record.
func (x *blob) doc(k int) (off, n int64, words int, time float64, system bool) {
	d := x.docs[k*docSize:]
	le := binary.LittleEndian
	return int64(le.Uint64(d)), int64(le.Uint32(d[8:])), int(le.Uint32(d[12:])), math.Float64frombits(le.Uint64(d[16:])), d[28]&flagSystem != 0
}

// crc is message k's record's checksum.
func (x *blob) crc(k int) uint32 { return binary.LittleEndian.Uint32(x.docs[k*docSize+32:]) }

// roleID is message k's role and entry id.
func (x *blob) roleID(k int) (role, id string, ok bool) {
	at := int(binary.LittleEndian.Uint32(x.docs[k*docSize+24:]))
	if at > len(x.pool) {
		return "", "", false
	}
	p := x.pool[at:]
	if role, p, ok = readStr(p); !ok {
		return "", "", false
	}
	id, _, ok = readStr(p)
	return role, id, ok
}

// block is block i's first ordinal and its data.
func (x *blob) block(i int) (first uint32, data []byte, ok bool) {
	first = binary.LittleEndian.Uint32(x.blocks[8*i:])
	off := int(binary.LittleEndian.Uint32(x.blocks[8*i+4:]))
	if off > len(x.data) {
		return 0, nil, false
	}
	return first, x.data[off:], true
}

// postings calls fn with each message holding any of the words ords
// (ascending ordinals) and how often, word by word.
func (x *blob) postings(ords []uint32, fn func(doc, tf int)) error {
	if len(ords) == 0 || x.nTerms == 0 {
		return nil
	}
	nBlocks := len(x.blocks) / 8
	// Many words (a short prefix): every block read once; few: each found.
	if len(ords) > nBlocks {
		return x.scanBlocks(0, nBlocks, ords, fn)
	}
	for k := 0; k < len(ords); {
		o := ords[k]
		// The last block whose first ordinal is at most o.
		bi := sort.Search(nBlocks, func(i int) bool { return binary.LittleEndian.Uint32(x.blocks[8*i:]) > o }) - 1
		if bi < 0 {
			k++
			continue
		}
		// The words of ords in this block, at once.
		end := k + 1
		if bi+1 < nBlocks {
			next := binary.LittleEndian.Uint32(x.blocks[8*(bi+1):])
			for end < len(ords) && ords[end] < next {
				end++
			}
		} else {
			end = len(ords)
		}
		if err := x.scanBlocks(bi, bi+1, ords[k:end], fn); err != nil {
			return err
		}
		k = end
	}
	return nil
}

// scanBlocks reads blocks [from, to) and calls fn for the postings of the
// words in ords.
func (x *blob) scanBlocks(from, to int, ords []uint32, fn func(doc, tf int)) error {
	for bi := from; bi < to && len(ords) > 0; bi++ {
		first, p, ok := x.block(bi)
		if !ok {
			return errBlob
		}
		n := min(blockTerms, x.nTerms-bi*blockTerms)
		o := first
		for k := 0; k < n; k++ {
			var d, ln uint64
			if d, p, ok = readUvarint(p); !ok {
				return errBlob
			}
			if ln, p, ok = readUvarint(p); !ok || ln > uint64(len(p)) {
				return errBlob
			}
			o += uint32(d)
			post := p[:ln]
			p = p[ln:]
			for len(ords) > 0 && ords[0] < o {
				ords = ords[1:]
			}
			if len(ords) == 0 {
				return nil
			}
			if ords[0] != o {
				continue
			}
			if err := x.eachPosting(post, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// eachTerm calls fn with every word's ordinal and postings, stopping at
// damage.
func (x *blob) eachTerm(fn func(o uint32, post []byte)) {
	nBlocks := len(x.blocks) / 8
	for bi := range nBlocks {
		first, p, ok := x.block(bi)
		if !ok {
			return
		}
		o := first
		for range min(blockTerms, x.nTerms-bi*blockTerms) {
			var d, ln uint64
			if d, p, ok = readUvarint(p); !ok {
				return
			}
			if ln, p, ok = readUvarint(p); !ok || ln > uint64(len(p)) {
				return
			}
			o += uint32(d)
			fn(o, p[:ln])
			p = p[ln:]
		}
	}
}

func (x *blob) eachPosting(p []byte, fn func(doc, tf int)) error {
	doc := 0
	for first := true; len(p) > 0; first = false {
		v, rest, ok := readUvarint(p)
		if !ok {
			return errBlob
		}
		p = rest
		tf := uint64(1)
		if v&1 != 0 {
			if tf, p, ok = readUvarint(p); !ok {
				return errBlob
			}
			tf += 2
		}
		gap := v >> 1
		if !first && gap == 0 || gap > uint64(x.nDocs) {
			return errBlob
		}
		doc += int(gap)
		if doc >= x.nDocs {
			return errBlob
		}
		fn(doc, int(tf))
	}
	return nil
}

// dict is a segment's dictionary: its words sorted, a word's ordinal its
// place, front-coded in blocks of dictBlock found by binary search.
//
//	count u32 | blocks u32 | block offsets u32 each | per block: the first word
//	(length uvarint, bytes), then each next one as the bytes it shares with the
//	one before (uvarint), its length less those (uvarint) and the rest
type dict struct {
	n      int
	blocks []byte
	data   []byte
}

const dictBlock = 16

// appendDict writes sorted words as a dictionary.
func appendDict(out []byte, words []string) []byte {
	nBlocks := (len(words) + dictBlock - 1) / dictBlock
	out = binary.LittleEndian.AppendUint32(out, uint32(len(words)))
	out = binary.LittleEndian.AppendUint32(out, uint32(nBlocks))
	table := len(out)
	out = append(out, make([]byte, 4*nBlocks)...)
	data := len(out)
	prev := ""
	for i, w := range words {
		if i%dictBlock == 0 {
			binary.LittleEndian.PutUint32(out[table+4*(i/dictBlock):], uint32(len(out)-data))
			out = appendStr(out, w)
		} else {
			k := 0
			for k < len(w) && k < len(prev) && w[k] == prev[k] {
				k++
			}
			out = binary.AppendUvarint(out, uint64(k))
			out = appendStr(out, w[k:])
		}
		prev = w
	}
	return out
}

func parseDict(b []byte) (*dict, error) {
	if len(b) < 8 {
		return nil, errBlob
	}
	n := int(binary.LittleEndian.Uint32(b))
	nBlocks := int(binary.LittleEndian.Uint32(b[4:]))
	b = b[8:]
	if nBlocks != (n+dictBlock-1)/dictBlock || nBlocks > len(b)/4 {
		return nil, errBlob
	}
	d := &dict{n: n, blocks: b[:4*nBlocks], data: b[4*nBlocks:]}
	for i := range nBlocks {
		if int(binary.LittleEndian.Uint32(d.blocks[4*i:])) > len(d.data) {
			return nil, errBlob
		}
	}
	return d, nil
}

// eachIn calls fn with the words of block bi from its first on, with their
// ordinals, until fn returns false; the word is valid during the call.
func (d *dict) eachIn(bi int, fn func(o int, w []byte) bool) {
	p := d.data[binary.LittleEndian.Uint32(d.blocks[4*bi:]):]
	var w []byte
	for k := 0; k < dictBlock && bi*dictBlock+k < d.n; k++ {
		shared := uint64(0)
		ok := true
		if k > 0 {
			if shared, p, ok = readUvarint(p); !ok || shared > uint64(len(w)) {
				return
			}
		}
		var n uint64
		if n, p, ok = readUvarint(p); !ok || n > uint64(len(p)) {
			return
		}
		w = append(w[:shared], p[:n]...)
		p = p[n:]
		if !fn(bi*dictBlock+k, w) {
			return
		}
	}
}

// firstOf is block bi's first word.
func (d *dict) firstOf(bi int) []byte {
	var first []byte
	d.eachIn(bi, func(_ int, w []byte) bool { first = append(first[:0], w...); return false })
	return first
}

// seek is the ordinal of the first word at least w.
func (d *dict) seek(w string) int {
	nBlocks := len(d.blocks) / 4
	// The last block whose first word is at most w.
	bi := sort.Search(nBlocks, func(i int) bool { return string(d.firstOf(i)) > w }) - 1
	if bi < 0 {
		return 0
	}
	at := min(d.n, (bi+1)*dictBlock)
	d.eachIn(bi, func(o int, t []byte) bool {
		if string(t) >= w {
			at = o
			return false
		}
		return true
	})
	return at
}

// prefix is the ordinals of the words that start with w, ascending; tool
// names ("\x00" + name) are never a prefix's.
func (d *dict) prefix(w string) []uint32 {
	if w == "" {
		return nil
	}
	var out []uint32
	for bi := d.seek(w) / dictBlock; bi < len(d.blocks)/4; bi++ {
		done := false
		d.eachIn(bi, func(o int, t []byte) bool {
			if string(t) < w {
				return true
			}
			if !bytes.HasPrefix(t, []byte(w)) {
				done = true
				return false
			}
			out = append(out, uint32(o))
			return true
		})
		if done {
			break
		}
	}
	return out
}

// exact is the ordinal of word w, as a list of none or one.
func (d *dict) exact(w string) []uint32 {
	o := d.seek(w)
	var out []uint32
	if o < d.n {
		d.eachIn(o/dictBlock, func(k int, t []byte) bool {
			if k == o {
				if string(t) == w {
					out = []uint32{uint32(o)}
				}
				return false
			}
			return true
		})
	}
	return out
}

// containing is the ordinals of the words that hold sub, ascending.
func (d *dict) containing(sub []byte) []uint32 {
	var out []uint32
	for bi := range len(d.blocks) / 4 {
		d.eachIn(bi, func(o int, t []byte) bool {
			if len(t) > 0 && t[0] != 0 && bytes.Contains(t, sub) {
				out = append(out, uint32(o))
			}
			return true
		})
	}
	return out
}
