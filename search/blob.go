package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"slices"
	"sort"
	"sync/atomic"
)

// A blob is the text index of one session file's part (the whole file, or
// what was appended to it since): its messages ("docs": where each one's
// record is, its entry id, role, time and length in words) and, for each
// word in them, which messages hold it and how often. A word is its
// ordinal in the dictionary of the segment the blob is in (each word once
// per segment, not once per session: most words of a large vocabulary are
// rare, and their text would be most of the index).
//
// A query reads only what it needs, and checks only that: the head (whose
// CRC the manifest keeps), the blocks of postings of its words and the
// docs it ranks or shows, each with a CRC of its own in the head.
//
//	head: magic "SKT3" | head length u32 | docs u32 | words u32 | system docs u32 |
//	  words in all u64 | in system docs u64 | meta length u32, then session id,
//	  cwd, format (uvarint-length strings) | the system docs, u32 each |
//	  blocks u32, then per block of up to 64 words its first ordinal, offset
//	  and CRC-32C, u32 each | groups u32, then per group of 64 docs the CRC of
//	  their rank and info records and their pool bytes, u32 each | the offsets
//	  of rank, info, pool and data, and the blob's length, u32 each
//	rank: per doc its length in words u32 and time f64
//	info: per doc its record's offset u64, length u32, CRC u32, place in the
//	  pool u32, 4 zero
//	pool: per doc its role and entry id (uvarint-length strings)
//	data: per word the ordinal's difference from the last (uvarint), the
//	  postings' length (uvarint) and the postings: per message, its difference
//	  from the last one shifted left once, with 1 when it holds the word more
//	  than once (uvarint), and then that count less 2 (uvarint)
//
// A tool's name is a word of its own, "\x00" + name, exactly.
const blobMagic = "SKT3"

const (
	rankSize  = 12
	infoSize  = 24
	groupDocs = 64
)

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
	rank, info    []byte
	pool          []byte
	systemDocs    []uint32
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
	bb.rank = binary.LittleEndian.AppendUint32(bb.rank, uint32(min(words, math.MaxUint32)))
	bb.rank = binary.LittleEndian.AppendUint64(bb.rank, math.Float64bits(time))
	bb.info = binary.LittleEndian.AppendUint64(bb.info, uint64(off))
	bb.info = binary.LittleEndian.AppendUint32(bb.info, uint32(min(n, math.MaxUint32)))
	bb.info = binary.LittleEndian.AppendUint32(bb.info, crc)
	bb.info = binary.LittleEndian.AppendUint32(bb.info, uint32(len(bb.pool)))
	bb.info = binary.LittleEndian.AppendUint32(bb.info, 0)
	if role == "system" {
		bb.systemDocs = append(bb.systemDocs, doc)
		bb.system++
		bb.sysW += words
	}
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
	for i, name := range names {
		p := &bb.posts[bb.terms[name]]
		if p.open {
			p.flush()
		}
		terms[i] = termPost{ords[i], p.b}
	}
	return bb.assemble(terms)
}

// assemble writes the blob with terms as its words.
func (bb *blobBuilder) assemble(terms []termPost) []byte {
	slices.SortFunc(terms, func(a, b termPost) int {
		if a.ord < b.ord {
			return -1
		}
		if a.ord > b.ord {
			return 1
		}
		return 0
	})
	// The data and its block table first: the head holds the table.
	var data, table []byte
	last := uint32(0)
	for k, t := range terms {
		if k%blockTerms == 0 {
			if k > 0 {
				table = binary.LittleEndian.AppendUint32(table, blockCRC(data, table))
			}
			table = binary.LittleEndian.AppendUint32(table, t.ord)
			table = binary.LittleEndian.AppendUint32(table, uint32(len(data)))
			last = t.ord
		}
		data = binary.AppendUvarint(data, uint64(t.ord-last))
		data = binary.AppendUvarint(data, uint64(len(t.post)))
		data = append(data, t.post...)
		last = t.ord
	}
	if len(terms) > 0 {
		table = binary.LittleEndian.AppendUint32(table, blockCRC(data, table))
	}
	nGroups := (int(bb.n) + groupDocs - 1) / groupDocs
	le := binary.LittleEndian
	head := append([]byte(blobMagic), 0, 0, 0, 0)
	head = le.AppendUint32(head, bb.n)
	head = le.AppendUint32(head, uint32(len(terms)))
	head = le.AppendUint32(head, bb.system)
	head = le.AppendUint64(head, bb.words)
	head = le.AppendUint64(head, bb.sysW)
	head = le.AppendUint32(head, uint32(len(bb.meta)))
	head = append(head, bb.meta...)
	for _, d := range bb.systemDocs {
		head = le.AppendUint32(head, d)
	}
	head = le.AppendUint32(head, uint32((len(terms)+blockTerms-1)/blockTerms))
	head = append(head, table...)
	head = le.AppendUint32(head, uint32(nGroups))
	for g := range nGroups {
		head = le.AppendUint32(head, groupCRC(bb.rank, bb.info, bb.pool, g, int(bb.n)))
	}
	headLen := len(head) + 20
	rankOff := headLen
	infoOff := rankOff + len(bb.rank)
	poolOff := infoOff + len(bb.info)
	dataOff := poolOff + len(bb.pool)
	total := dataOff + len(data)
	for _, v := range []int{rankOff, infoOff, poolOff, dataOff, total} {
		head = le.AppendUint32(head, uint32(v))
	}
	le.PutUint32(head[4:], uint32(headLen))
	out := make([]byte, 0, total)
	out = append(out, head...)
	out = append(out, bb.rank...)
	out = append(out, bb.info...)
	out = append(out, bb.pool...)
	return append(out, data...)
}

// blockCRC is the CRC of the block the table's last entry begins.
func blockCRC(data, table []byte) uint32 {
	off := binary.LittleEndian.Uint32(table[len(table)-4:])
	return crc32.Checksum(data[off:], castagnoli)
}

// groupCRC is the CRC of docs group g: their rank and info records and
// their pool bytes.
func groupCRC(rank, info, pool []byte, g, n int) uint32 {
	from, to := g*groupDocs, min(n, (g+1)*groupDocs)
	c := crc32.Update(0, castagnoli, rank[from*rankSize:to*rankSize])
	c = crc32.Update(c, castagnoli, info[from*infoSize:to*infoSize])
	p0 := binary.LittleEndian.Uint32(info[from*infoSize+16:])
	p1 := uint32(len(pool))
	if to < n {
		p1 = binary.LittleEndian.Uint32(info[to*infoSize+16:])
	}
	if p0 > p1 || int(p1) > len(pool) {
		return 0
	}
	return crc32.Update(c, castagnoli, pool[p0:p1])
}

// remap is blob b with its words' ordinals changed by to (the segment's
// dictionary sorted once it is whole), or false when b is damaged.
func remap(b []byte, to []uint32) ([]byte, bool) {
	x, err := parseBlob(b, nil)
	if err != nil || x.verifyAll() != nil {
		return nil, false
	}
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
	bb := &blobBuilder{meta: x.meta, rank: x.rankSec, info: x.infoSec, pool: x.pool, n: uint32(x.nDocs),
		system: uint32(len(x.systemDocs)), words: x.words, sysW: x.sysWords}
	for _, d := range x.systemDocs {
		bb.systemDocs = append(bb.systemDocs, uint32(d))
	}
	return bb.assemble(terms), true
}

// blob is a blob read back: its head parsed and checked; the rest is
// checked as it is read, part by part.
type blob struct {
	nDocs, nTerms       int
	words, sysWords     uint64
	meta                []byte
	sessionID, cwd, fmt string
	systemDocs          []int
	blocks              []byte // 12 bytes a block
	groups              []byte // 4 bytes a group
	rankSec, infoSec    []byte
	pool, data          []byte
	// checked holds, per docs group then per block, 1 once its CRC held
	// and 2 when it did not.
	checked []atomic.Uint32
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

// headOf is a blob's head, for its CRC (nil: not a blob).
func headOf(b []byte) []byte {
	if len(b) < 8 || string(b[:4]) != blobMagic {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(b[4:]))
	if n < 8 || n > len(b) {
		return nil
	}
	return b[:n]
}

// parseBlob reads a blob whose head's CRC is crc (nil: not checked).
func parseBlob(b []byte, crc *uint32) (*blob, error) {
	head := headOf(b)
	if head == nil || len(head) < 60 {
		return nil, errBlob
	}
	if crc != nil && crc32.Checksum(head, castagnoli) != *crc {
		return nil, errBlob
	}
	le := binary.LittleEndian
	x := &blob{nDocs: int(le.Uint32(head[8:])), nTerms: int(le.Uint32(head[12:])), words: le.Uint64(head[20:]), sysWords: le.Uint64(head[28:])}
	nSystem := int(le.Uint32(head[16:]))
	rest := head[36:]
	take := func(n int) ([]byte, bool) {
		if n < 0 || n > len(rest) {
			return nil, false
		}
		out := rest[:n]
		rest = rest[n:]
		return out, true
	}
	u32 := func() (int, bool) {
		v, ok := take(4)
		if !ok {
			return 0, false
		}
		return int(le.Uint32(v)), true
	}
	metaLen, ok := u32()
	if !ok {
		return nil, errBlob
	}
	if x.meta, ok = take(metaLen); !ok {
		return nil, errBlob
	}
	m := x.meta
	if x.sessionID, m, ok = readStr(m); !ok {
		return nil, errBlob
	}
	if x.cwd, m, ok = readStr(m); !ok {
		return nil, errBlob
	}
	if x.fmt, _, ok = readStr(m); !ok {
		return nil, errBlob
	}
	if nSystem > x.nDocs {
		return nil, errBlob
	}
	sys, ok := take(4 * nSystem)
	if !ok {
		return nil, errBlob
	}
	for i := range nSystem {
		d := int(le.Uint32(sys[4*i:]))
		if d >= x.nDocs {
			return nil, errBlob
		}
		x.systemDocs = append(x.systemDocs, d)
	}
	nBlocks, ok := u32()
	if !ok || nBlocks != (x.nTerms+blockTerms-1)/blockTerms {
		return nil, errBlob
	}
	if x.blocks, ok = take(12 * nBlocks); !ok {
		return nil, errBlob
	}
	nGroups, ok := u32()
	if !ok || nGroups != (x.nDocs+groupDocs-1)/groupDocs {
		return nil, errBlob
	}
	if x.groups, ok = take(4 * nGroups); !ok {
		return nil, errBlob
	}
	var offs [5]int
	for i := range offs {
		if offs[i], ok = u32(); !ok {
			return nil, errBlob
		}
	}
	rankOff, infoOff, poolOff, dataOff, total := offs[0], offs[1], offs[2], offs[3], offs[4]
	if len(rest) != 0 || rankOff != len(head) || infoOff-rankOff != rankSize*x.nDocs || poolOff-infoOff != infoSize*x.nDocs ||
		dataOff < poolOff || total < dataOff || total != len(b) {
		return nil, errBlob
	}
	x.rankSec, x.infoSec, x.pool, x.data = b[rankOff:infoOff], b[infoOff:poolOff], b[poolOff:dataOff], b[dataOff:total]
	x.checked = make([]atomic.Uint32, nGroups+nBlocks)
	return x, nil
}

// check reports whether part i (a docs group, then a block) is whole,
// computing its CRC the first time.
func (x *blob) check(i int, crc func() uint32, want uint32) bool {
	switch x.checked[i].Load() {
	case 1:
		return true
	case 2:
		return false
	}
	ok := crc() == want
	if ok {
		x.checked[i].Store(1)
	} else {
		x.checked[i].Store(2)
	}
	return ok
}

func (x *blob) groupOK(g int) bool {
	return x.check(g, func() uint32 { return groupCRC(x.rankSec, x.infoSec, x.pool, g, x.nDocs) }, binary.LittleEndian.Uint32(x.groups[4*g:]))
}

// verifyAll checks every part.
func (x *blob) verifyAll() error {
	for g := range len(x.groups) / 4 {
		if !x.groupOK(g) {
			return errBlob
		}
	}
	for bi := range len(x.blocks) / 12 {
		if _, _, ok := x.block(bi); !ok {
			return errBlob
		}
	}
	return nil
}

// rank is message k's length in words and time.
func (x *blob) rank(k int) (words int, time float64, ok bool) {
	if !x.groupOK(k / groupDocs) {
		return 0, 0, false
	}
	r := x.rankSec[k*rankSize:]
	return int(binary.LittleEndian.Uint32(r)), math.Float64frombits(binary.LittleEndian.Uint64(r[4:])), true
}

// info is where message k's record is, and its CRC.
func (x *blob) info(k int) (off, n int64, crc uint32, ok bool) {
	if !x.groupOK(k / groupDocs) {
		return 0, 0, 0, false
	}
	r := x.infoSec[k*infoSize:]
	le := binary.LittleEndian
	return int64(le.Uint64(r)), int64(le.Uint32(r[8:])), le.Uint32(r[12:]), true
}

// roleID is message k's role and entry id.
func (x *blob) roleID(k int) (role, id string, ok bool) {
	if !x.groupOK(k / groupDocs) {
		return "", "", false
	}
	at := int(binary.LittleEndian.Uint32(x.infoSec[k*infoSize+16:]))
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

// block is block i's first ordinal and its data, its CRC checked.
func (x *blob) block(i int) (first uint32, data []byte, ok bool) {
	le := binary.LittleEndian
	first = le.Uint32(x.blocks[12*i:])
	off := int(le.Uint32(x.blocks[12*i+4:]))
	end := len(x.data)
	if i+1 < len(x.blocks)/12 {
		end = int(le.Uint32(x.blocks[12*(i+1)+4:]))
	}
	if off > end || end > len(x.data) {
		return 0, nil, false
	}
	data = x.data[off:end]
	if !x.check(len(x.groups)/4+i, func() uint32 { return crc32.Checksum(data, castagnoli) }, le.Uint32(x.blocks[12*i+8:])) {
		return 0, nil, false
	}
	return first, data, true
}

// postings calls fn with each message holding any of the words ords
// (ascending ordinals) and how often, word by word.
func (x *blob) postings(ords []uint32, fn func(doc, tf int)) error {
	if len(ords) == 0 || x.nTerms == 0 {
		return nil
	}
	nBlocks := len(x.blocks) / 12
	// Only the blocks that hold one of the words are read: for each next
	// word, its block by binary search, then the other words in it.
	firstOf := func(i int) uint32 { return binary.LittleEndian.Uint32(x.blocks[12*i:]) }
	for k := 0; k < len(ords); {
		o := ords[k]
		// The last block whose first ordinal is at most o.
		bi := sort.Search(nBlocks, func(i int) bool { return firstOf(i) > o }) - 1
		if bi < 0 {
			k++
			continue
		}
		// The words of ords in this block, at once.
		end := k + 1
		if bi+1 < nBlocks {
			next := firstOf(bi + 1)
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
	nBlocks := len(x.blocks) / 12
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
