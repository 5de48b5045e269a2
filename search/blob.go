package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// A blob is the text index of one session file's part (the whole file, or
// what was appended to it since): its messages ("docs": where each one's
// record is, its entry id, role, time and length in words) and, for each
// word in them, which messages hold it and how often. A query reads only
// the words it needs: they are sorted, found by binary search.
//
//	magic "SKT1" | docs u32 | terms u32 | system docs u32 | words u64 | system words u64
//	meta: length u32, then session id, cwd, format (uvarint-length strings)
//	docs: 36 bytes each: offset u64, length u32, words u32, time f64, pool u32, flags u8, 3 zero,
//	  the record's CRC-32C (to know it when it is read again)
//	pool: length u32, then per doc role and entry id (uvarint-length strings)
//	term offsets: u32 each, into the term data
//	term data: per term its length (uvarint), bytes, count (uvarint), then
//	  per message the difference from the last one and the count there (uvarints)
//
// A tool's name is kept as a term of its own, "\x00" + name, exactly.
const blobMagic = "SKT1"

const docSize = 36

const flagSystem = 1

type pending struct {
	b        []byte
	last, tf uint32
	n        uint32
	open     bool
}

// blobBuilder makes a blob from one message after another.
type blobBuilder struct {
	meta          []byte
	docs, pool    []byte
	n, system     uint32
	words, sysW   uint64
	terms         map[string]*pending
	scratch, tbuf []byte
}

func newBlobBuilder(sessionID, cwd, format string) *blobBuilder {
	bb := &blobBuilder{terms: make(map[string]*pending, 1024)}
	for _, s := range []string{sessionID, cwd, format} {
		bb.meta = appendStr(bb.meta, s)
	}
	return bb
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// add is one message: where its record lies, what it is, and its text.
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
		p := bb.terms[string(term)]
		if p == nil {
			p = &pending{}
			bb.terms[string(term)] = p
		}
		if p.open && p.last == doc {
			p.tf++
			return
		}
		if p.open {
			p.flush()
		}
		p.b = binary.AppendUvarint(p.b, uint64(doc-p.last))
		p.last, p.tf, p.open = doc, 1, true
		p.n++
	}
	bb.scratch = eachTerm(text, bb.scratch, see)
	for _, t := range tools {
		bb.tbuf = append(append(bb.tbuf[:0], 0), t...)
		see(bb.tbuf)
	}
}

func (p *pending) flush() {
	p.b = binary.AppendUvarint(p.b, uint64(p.tf))
	p.open = false
}

// bytes is the blob.
func (bb *blobBuilder) bytes() []byte {
	keys := make([]string, 0, len(bb.terms))
	size := 0
	for k, p := range bb.terms {
		keys = append(keys, k)
		if p.open {
			p.flush()
		}
		size += len(k) + len(p.b) + 10
	}
	slices.Sort(keys)
	out := make([]byte, 0, 40+len(bb.meta)+len(bb.docs)+len(bb.pool)+4*len(keys)+size)
	out = append(out, blobMagic...)
	out = binary.LittleEndian.AppendUint32(out, bb.n)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(keys)))
	out = binary.LittleEndian.AppendUint32(out, bb.system)
	out = binary.LittleEndian.AppendUint64(out, bb.words)
	out = binary.LittleEndian.AppendUint64(out, bb.sysW)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(bb.meta)))
	out = append(out, bb.meta...)
	out = append(out, bb.docs...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(bb.pool)))
	out = append(out, bb.pool...)
	offs := len(out)
	out = append(out, make([]byte, 4*len(keys))...)
	data := len(out)
	for i, k := range keys {
		binary.LittleEndian.PutUint32(out[offs+4*i:], uint32(len(out)-data))
		p := bb.terms[k]
		out = appendStr(out, k)
		out = binary.AppendUvarint(out, uint64(p.n))
		out = append(out, p.b...)
	}
	return out
}

// blob is a blob read back; every offset in it is checked before use.
type blob struct {
	nDocs, nTerms       int
	system              int
	words, sysWords     uint64
	sessionID, cwd, fmt string
	docs, pool          []byte
	toff, tdata         []byte
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
	if x.nTerms > len(rest)/4 {
		return nil, errBlob
	}
	x.toff, x.tdata = rest[:4*x.nTerms], rest[4*x.nTerms:]
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

// term is term i: its bytes and its postings.
func (x *blob) term(i int) (term, postings []byte, ok bool) {
	at := int(binary.LittleEndian.Uint32(x.toff[4*i:]))
	if at > len(x.tdata) {
		return nil, nil, false
	}
	p := x.tdata[at:]
	n, p, ok := readUvarint(p)
	if !ok || n > uint64(len(p)) {
		return nil, nil, false
	}
	return p[:n], p[n:], true
}

// termKey is term i's bytes alone (nil when damaged).
func (x *blob) termKey(i int) []byte {
	t, _, _ := x.term(i)
	return t
}

// prefixRange is the terms that start with prefix: [lo, hi).
func (x *blob) prefixRange(prefix string) (lo, hi int) {
	lo = searchTerms(x, func(t []byte) bool { return string(t) >= prefix })
	hi = lo
	for hi < x.nTerms && bytes.HasPrefix(x.termKey(hi), []byte(prefix)) {
		hi++
	}
	return lo, hi
}

// searchTerms is the first term for which f is true (f is false, then true).
func searchTerms(x *blob, f func(t []byte) bool) int {
	lo, hi := 0, x.nTerms
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(x.termKey(m)) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// exact is the index of term t, or -1.
func (x *blob) exact(t string) int {
	i := searchTerms(x, func(k []byte) bool { return string(k) >= t })
	if i < x.nTerms && string(x.termKey(i)) == t {
		return i
	}
	return -1
}

// postings calls fn with each message holding term i and how often.
func (x *blob) postings(i int, fn func(doc int, tf int)) error {
	_, p, ok := x.term(i)
	if !ok {
		return errBlob
	}
	n, p, ok := readUvarint(p)
	if !ok {
		return errBlob
	}
	doc := 0
	for k := uint64(0); k < n; k++ {
		var d, tf uint64
		if d, p, ok = readUvarint(p); !ok {
			return errBlob
		}
		if tf, p, ok = readUvarint(p); !ok {
			return errBlob
		}
		doc += int(d)
		if doc >= x.nDocs || d > uint64(x.nDocs) || (k > 0 && d == 0) {
			return errBlob
		}
		fn(doc, int(tf))
	}
	return nil
}

// containing calls fn with each term that holds sub.
func (x *blob) containing(sub []byte, fn func(i int)) {
	for i := range x.nTerms {
		if t := x.termKey(i); len(t) > 0 && t[0] != 0 && bytes.Contains(t, sub) {
			fn(i)
		}
	}
}
