package dhara

import (
	"hash/maphash"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// idTable maps entry ids to entry indexes. A Go map of 230,000 string keys
// cost 100 ms to build on one core (a cache miss at every probe and key);
// this table keeps some of a hash's bits beside each index, so a probe
// reads one slot and a key is compared only when those match, and is built
// a part per core. The hashes are computed where the lines are parsed, in
// parallel, while each line is in the cache.
type idTable struct {
	parts   []idPart // an id's part: its hash's low bits
	entries []Entry  // what the indexes index: an id is compared with its entry's
}

// idPart is an open-addressing table of its own, so that parts are built
// on cores of their own.
type idPart struct {
	slots []idSlot
	shift uint
}

type idSlot struct {
	tag uint32 // the hash's middle bits (the high ones choose the slot)
	at  int32  // index+1; 0 marks an empty slot
}

var idSeed = maphash.MakeSeed()

// idHash is the hash every id of the table is found by.
func idHash(id string) uint64 { return maphash.String(idSeed, id) }

func tagOf(h uint64) uint32 { return uint32(h >> 8) }

// buildIDTable indexes the ids of entries (their hashes made), a part per
// core for a large session, and reports the entries whose id an earlier
// entry has, in order, each with the index of that earlier one.
func buildIDTable(entries []Entry) (idTable, []idDup) {
	n := len(entries)
	parts := 1
	if n >= 1<<16 {
		parts = 1 << bits.Len(uint(min(runtime.GOMAXPROCS(0), 8))-1)
	}
	t := idTable{parts: make([]idPart, parts), entries: entries}
	dups := make([][]idDup, parts)
	size := 16
	for size < 2*n/parts {
		size <<= 1
	}
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			pt := idPart{slots: make([]idSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
			for i := range entries {
				e := &entries[i]
				if e.ID == "" || int(e.hash)&(parts-1) != p {
					continue
				}
				if j, isNew := pt.add(entries, e.ID, e.hash, i); !isNew {
					dups[p] = append(dups[p], idDup{i, j})
				}
			}
			t.parts[p] = pt
		})
	}
	wg.Wait()
	var all []idDup
	for _, d := range dups {
		all = append(all, d...)
	}
	slices.SortFunc(all, func(a, b idDup) int { return a.at - b.at })
	return t, all
}

// idDup is entry at, whose id entry first has.
type idDup struct{ at, first int }

// add gives id (of hash h) index i, or reports the index it has already.
func (pt *idPart) add(entries []Entry, id string, h uint64, i int) (int, bool) {
	tag := tagOf(h)
	mask := len(pt.slots) - 1
	for k := int(h >> pt.shift); ; k = (k + 1) & mask {
		sl := &pt.slots[k]
		if sl.at == 0 {
			sl.tag, sl.at = tag, int32(i+1)
			return i, true
		}
		if sl.tag == tag && entries[sl.at-1].ID == id {
			return int(sl.at - 1), false
		}
	}
}

// get is the index of id.
func (t *idTable) get(id string) (int, bool) {
	if len(t.parts) == 0 {
		return 0, false
	}
	h := idHash(id)
	pt := &t.parts[int(h)&(len(t.parts)-1)]
	tag := tagOf(h)
	mask := len(pt.slots) - 1
	for k := int(h >> pt.shift); ; k = (k + 1) & mask {
		sl := pt.slots[k]
		if sl.at == 0 {
			return 0, false
		}
		if sl.tag == tag && t.entries[sl.at-1].ID == id {
			return int(sl.at - 1), true
		}
	}
}

// entryType is an entry's type as a number, for the walks that read it of
// every entry of a path.
type entryType uint8

const (
	tOther entryType = iota // custom, model_change, label, and types not known
	tMessage
	tToolCall
	tToolResult
	tSystem
	tCompaction
)

// message reports whether entries of the type give a message (their kind
// is model.EntryMessage).
func (t entryType) message() bool { return t >= tMessage && t <= tSystem }

// idArena packs copies of ids into blocks of its own, made while each line
// is in the cache: the walks over every id (the tree's links, the id
// table) then read a few MB in order instead of missing the cache once an
// entry in 100 MB of lines. A block is never written below its length
// once a string points into it, and a full one is left to the strings
// that hold it.
type idArena struct{ buf []byte }

func (a *idArena) copy(s string) string {
	if s == "" {
		return s
	}
	if len(a.buf)+len(s) > cap(a.buf) {
		a.buf = make([]byte, 0, max(64<<10, len(s)))
	}
	start := len(a.buf)
	a.buf = append(a.buf, s...)
	return unsafe.String(&a.buf[start], len(s))
}
