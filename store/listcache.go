package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"skein/store/pi"
)

// listOne is a session's list record: through the index when there is one.
// The backend is the one the kept state names (found by content when the
// file was read last), else the one that claims the path (an agent's own
// folder, a Dhara folder), else pi's. When that backend reads the file and says
// it is not its session, the file's first lines say what it is
// (detectFile), and that format's backend lists it: its state is kept
// tagged with the format, so that the next list goes to it at once.
func listOne(path string, buf []byte) ([]byte, Info, error) {
	c := currentCache()
	var prev []byte
	if c != nil {
		prev = c.get(path)
	}
	b, kept, tagged := Backend(nil), prev, false
	if f, rest, ok := untag(prev); ok {
		b, kept, tagged = ForFormat(f), rest, true
	} else if b = claimedByPath(path); b == nil {
		b = piBackend{}
	}
	buf, info, state, err := listBy(b, c != nil, path, kept, buf)
	var ns *NotSession
	if errors.As(err, &ns) && !sameBytesAt(state, kept) {
		// Read, and not b's: what is it? (A state given back as it was
		// kept says the file is as it was when this was asked last.)
		if f := detectFile(path); f != FormatUnknown && f != b.Format() {
			b, tagged = ForFormat(f), true
			buf, info, state, err = listBy(b, c != nil, path, nil, buf)
		}
	}
	if c != nil && state != nil {
		switch {
		case tagged && sameBytesAt(state, kept):
			state = prev // as it was kept, tag and all
		case tagged:
			state = tag(b.Format(), state)
		}
		c.put(path, state)
	}
	return buf, info, err
}

// sameBytesAt reports whether a and b are the same memory (a state given
// back as it was kept).
func sameBytesAt(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

// listBy lists the file at path with b: through the index's state when
// there is an index (cached), else read.
func listBy(b Backend, cached bool, path string, state, buf []byte) ([]byte, Info, []byte, error) {
	if !cached {
		buf, info, err := b.ListInfo(path, buf)
		return buf, info, nil, err
	}
	return b.ListCached(path, state, buf)
}

// formatTag starts a kept state whose format was found by the file's
// content: the format's name follows (a byte of its length), then the
// backend's own state. No backend's state starts with it (pi's starts with
// stateVersion, Dhara's and the read-only formats' with 'D').
const formatTag = 'F'

func tag(f Format, state []byte) []byte {
	out := make([]byte, 0, 2+len(f)+len(state))
	out = append(out, formatTag, byte(len(f)))
	out = append(out, f...)
	return append(out, state...)
}

// untag splits a tagged state into its format and the backend's state.
func untag(state []byte) (Format, []byte, bool) {
	if len(state) < 2 || state[0] != formatTag || int(state[1]) > len(state)-2 {
		return "", nil, false
	}
	n := int(state[1])
	return Format(state[2 : 2+n]), state[2+n:], true
}

// fullReads counts the files read whole for the list (the tests' way to
// see that the index spared the others).
var fullReads, partReads atomic.Int64

// ListReads is how many files the list read whole and in part (grown,
// read from where the index stopped) since the program started.
func ListReads() (whole, part int64) { return fullReads.Load(), partReads.Load() }

// piListState is what the index keeps of a pi file: its change token (the
// size scanned, through its last whole line; the file's size, modification
// time and inode then, and when that was; CRC-32Cs of the scanned part
// whole and of its last 4 KB) and the scan at that point, or why the file
// is not a session.
type piListState struct {
	Scanned, Size, MtimeNs int64
	Tail                   uint64
	Whole                  uint32
	Scan                   pi.ScanState
	NotSession             string
	Inode                  inodeStamp
	IndexedNs              int64
}

// ListCached is ListInfo through the index's state for the file: an
// unchanged file is not read, one that grew is scanned from where the
// index stopped (its scanned part unchanged), any other is read again.
func (piBackend) ListCached(path string, prev []byte, buf []byte) ([]byte, Info, []byte, error) {
	var ps piListState
	known := prev != nil && decodeState(prev, &ps)
	if known && ps.Scanned == ps.Size {
		// Unchanged by its stat alone: one stat, no open.
		if st, err := os.Stat(path); err == nil && byStat(st, ps.Size, ps.MtimeNs, ps.Inode, ps.IndexedNs) == statSame {
			if ps.NotSession != "" {
				return buf, Info{}, prev, &NotSession{Reason: ps.NotSession}
			}
			info, err := ps.Scan.Result(float64(st.ModTime().UnixMilli()))
			return buf, info, prev, err
		}
	}
	// The token's time is taken before the file is looked at: a change
	// after it moves the change time past it.
	now := time.Now().UnixNano()
	f, st, err := pi.OpenRegular(path)
	if err != nil {
		return buf, Info{}, nil, err
	}
	defer f.Close()
	size, mtimeNs, mtimeMs := st.Size(), st.ModTime().UnixNano(), float64(st.ModTime().UnixMilli())
	inode, haveInode := changeTime(st)
	if known && ps.Scanned <= size && ps.Scanned <= ps.Size {
		switch {
		case size == ps.Size && mtimeNs == ps.MtimeNs:
			v := byStat(st, ps.Size, ps.MtimeNs, ps.Inode, ps.IndexedNs)
			if v == statChanged || v == statUnsure && !sameBytes(f, st, ps.Scanned, ps.Whole, ps.Tail) {
				break // changed in place: read again whole
			}
			if v == statUnsure && haveInode {
				// Its bytes said: its stat is trusted from now on.
				ps.Inode, ps.IndexedNs = inode, now
				prev = encodeState(ps)
			}
			if ps.NotSession != "" {
				return buf, Info{}, prev, &NotSession{Reason: ps.NotSession}
			}
			info, err := finishScan(ps.Scan, f, ps.Scanned, size, mtimeMs)
			return buf, info, prev, err
		case size > ps.Size && ps.NotSession == "":
			// Grown: scan on from the last whole line the index saw, when
			// the end of what it saw is still there.
			if h, err := tailHash(f, ps.Scanned); err == nil && h == ps.Tail {
				partReads.Add(1)
				ps.Inode, ps.IndexedNs = inode, now
				return scanOn(f, ps, size, mtimeNs, mtimeMs, buf)
			}
		}
	}
	fullReads.Add(1)
	ps = piListState{Size: size, MtimeNs: mtimeNs, Inode: inode, IndexedNs: now}
	var allCRC uint32 // of the file's size bytes, for a file that is no session
	buf, info, err := scanOpen(f, size, mtimeMs, buf, func(data []byte, mtimeMs float64) (Info, error) {
		cut := int64(bytes.LastIndexByte(data, '\n') + 1)
		ps.Whole = crc32.Checksum(data[:cut], castagnoli)
		allCRC = wholeCRC(data, cut, ps.Whole, size)
		if err := ps.Scan.Feed(data[:cut]); err != nil {
			return ps.Scan.Info, err
		}
		ps.Scanned = cut
		rest := ps.Scan
		if err := rest.Feed(data[cut:]); err != nil {
			return rest.Info, err
		}
		return rest.Result(mtimeMs)
	})
	var ns *NotSession
	switch {
	case errors.As(err, &ns):
		// Not a session: kept whole, to be known again by its bytes.
		ps.Scan, ps.Scanned, ps.Whole, ps.NotSession = pi.ScanState{}, size, allCRC, ns.Reason
	case err != nil:
		return buf, info, nil, err // unread: nothing to keep
	}
	if ps.Tail, err = tailHash(f, ps.Scanned); err != nil {
		return buf, info, nil, nil
	}
	if ns != nil {
		return buf, info, encodeState(ps), ns
	}
	return buf, info, encodeState(ps), nil
}

// scanOn scans a grown file from ps.Scanned to its end.
func scanOn(f *os.File, ps piListState, size, mtimeNs int64, mtimeMs float64, buf []byte) ([]byte, Info, []byte, error) {
	n := int(size - ps.Scanned)
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := f.ReadAt(buf, ps.Scanned); err != nil && !errors.Is(err, io.EOF) {
		return buf, Info{}, nil, err
	}
	cut := bytes.LastIndexByte(buf, '\n') + 1
	if err := ps.Scan.Feed(buf[:cut]); err != nil {
		return buf, ps.Scan.Info, nil, err
	}
	rest := ps.Scan
	if err := rest.Feed(buf[cut:]); err != nil {
		return buf, rest.Info, nil, err
	}
	info, err := rest.Result(mtimeMs)
	ps.Whole = crc32.Update(ps.Whole, castagnoli, buf[:cut])
	ps.Scanned += int64(cut)
	ps.Size, ps.MtimeNs = size, mtimeNs
	if ps.Tail, err = tailHash(f, ps.Scanned); err != nil {
		return buf, info, nil, nil
	}
	return buf, info, encodeState(ps), nil
}

// finishScan is the record of an unchanged file: the kept scan, and its
// last line when that has no line ending (read again: it is short).
func finishScan(st pi.ScanState, f *os.File, scanned, size int64, mtimeMs float64) (Info, error) {
	if size > scanned {
		rest := make([]byte, size-scanned)
		if _, err := f.ReadAt(rest, scanned); err != nil && !errors.Is(err, io.EOF) {
			return Info{}, err
		}
		if err := st.Feed(rest); err != nil {
			return st.Info, err
		}
	}
	return st.Result(mtimeMs)
}

// stateVersion starts an encoded piListState; another is read as none.
const stateVersion = 3

// encodeState writes ps compactly (gob spent more time on its type
// descriptions than on the records).
func encodeState(ps piListState) []byte {
	e := codec{b: make([]byte, 0, 256)}
	e.b = append(e.b, stateVersion)
	e.int(ps.Scanned)
	e.int(ps.Size)
	e.int(ps.MtimeNs)
	e.b = binary.LittleEndian.AppendUint64(e.b, ps.Tail)
	e.str(ps.NotSession)
	st := &ps.Scan
	e.bools(st.Header, st.HasActivity, st.HasHeaderTime, st.HasAssistant)
	e.float(st.LastActivity)
	e.float(st.HeaderTime)
	e.str(st.PrevID)
	e.str(st.LatestModel)
	e.str(st.AssistantModel)
	in := &st.Info
	e.str(in.Path)
	e.str(in.Format)
	e.str(in.ID)
	e.str(string(in.IDJSON))
	e.bools(in.NoStringID, in.HasParent, in.IDJSON != nil)
	e.str(in.Cwd)
	e.str(in.Name)
	e.str(in.ParentSession)
	e.float(in.Created)
	e.float(in.Modified)
	e.int(int64(in.MessageCount))
	e.str(in.FirstMessage)
	e.int(int64(in.Entries))
	e.int(int64(in.Branches))
	e.str(in.Model)
	e.b = binary.LittleEndian.AppendUint32(e.b, ps.Whole)
	e.b = binary.LittleEndian.AppendUint64(e.b, ps.Inode.Dev)
	e.b = binary.LittleEndian.AppendUint64(e.b, ps.Inode.Ino)
	e.int(ps.Inode.CtimeNs)
	e.int(ps.IndexedNs)
	return e.b
}

// decodeState reads what encodeState wrote; false for anything else.
func decodeState(b []byte, ps *piListState) bool {
	if len(b) == 0 || b[0] != stateVersion {
		return false
	}
	d := codec{b: b[1:]}
	ps.Scanned, ps.Size, ps.MtimeNs = d.readInt(), d.readInt(), d.readInt()
	if len(d.b) < 8 {
		return false
	}
	ps.Tail, d.b = binary.LittleEndian.Uint64(d.b), d.b[8:]
	ps.NotSession = d.readStr()
	st := &ps.Scan
	f := d.readBools(4)
	st.Header, st.HasActivity, st.HasHeaderTime, st.HasAssistant = f[0], f[1], f[2], f[3]
	st.LastActivity, st.HeaderTime = d.readFloat(), d.readFloat()
	st.PrevID, st.LatestModel, st.AssistantModel = d.readStr(), d.readStr(), d.readStr()
	in := &st.Info
	in.Path, in.Format, in.ID = d.readStr(), d.readStr(), d.readStr()
	idJSON := d.readStr()
	g := d.readBools(3)
	in.NoStringID, in.HasParent = g[0], g[1]
	if g[2] {
		in.IDJSON = []byte(idJSON)
	}
	in.Cwd, in.Name, in.ParentSession = d.readStr(), d.readStr(), d.readStr()
	in.Created, in.Modified = d.readFloat(), d.readFloat()
	in.MessageCount = int(d.readInt())
	in.FirstMessage = d.readStr()
	in.Entries, in.Branches = int(d.readInt()), int(d.readInt())
	in.Model = d.readStr()
	if len(d.b) < 20 {
		return false
	}
	le := binary.LittleEndian
	ps.Whole, ps.Inode.Dev, ps.Inode.Ino, d.b = le.Uint32(d.b), le.Uint64(d.b[4:]), le.Uint64(d.b[12:]), d.b[20:]
	ps.Inode.CtimeNs, ps.IndexedNs = d.readInt(), d.readInt()
	return !d.bad && len(d.b) == 0
}

// codec appends and reads the index's values: varints, floats' bits,
// length-prefixed strings, bytes of flags.
type codec struct {
	b   []byte
	bad bool
}

func (c *codec) int(v int64)     { c.b = binary.AppendVarint(c.b, v) }
func (c *codec) float(v float64) { c.b = binary.LittleEndian.AppendUint64(c.b, math.Float64bits(v)) }
func (c *codec) str(s string) {
	c.b = binary.AppendUvarint(c.b, uint64(len(s)))
	c.b = append(c.b, s...)
}
func (c *codec) bools(v ...bool) {
	var x byte
	for i, f := range v {
		if f {
			x |= 1 << i
		}
	}
	c.b = append(c.b, x)
}

func (c *codec) readInt() int64 {
	v, n := binary.Varint(c.b)
	if n <= 0 {
		c.bad = true
		return 0
	}
	c.b = c.b[n:]
	return v
}

func (c *codec) readFloat() float64 {
	if len(c.b) < 8 {
		c.bad = true
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(c.b))
	c.b = c.b[8:]
	return v
}

func (c *codec) readStr() string {
	n, k := binary.Uvarint(c.b)
	if k <= 0 || n > uint64(len(c.b)-k) {
		c.bad = true
		return ""
	}
	s := string(c.b[k : k+int(n)])
	c.b = c.b[k+int(n):]
	return s
}

func (c *codec) readBools(n int) []bool {
	out := make([]bool, n)
	if len(c.b) < 1 {
		c.bad = true
		return out
	}
	for i := range out {
		out[i] = c.b[0]&(1<<i) != 0
	}
	c.b = c.b[1:]
	return out
}

// CachedInfo is the record of a kept state, as it was when kept.
func (piBackend) CachedInfo(path string, state []byte) (Info, bool) {
	var ps piListState
	if !decodeState(state, &ps) || ps.NotSession != "" {
		return Info{}, false
	}
	info, err := ps.Scan.Result(float64(ps.MtimeNs / 1e6))
	if err != nil {
		return Info{}, false
	}
	info.Path = path
	return info, true
}

// Cached is the records the index holds for the files under roots, as
// they were when indexed: what the list shows at once while it checks
// them. Nil without an index.
func Cached(roots []string) []Info {
	c := currentCache()
	if c == nil {
		return nil
	}
	type kept struct {
		path  string
		state []byte
	}
	clean := make([]string, len(roots))
	for i, r := range roots {
		clean[i] = filepath.Clean(r)
	}
	c.mu.Lock()
	entries := make([]kept, 0, len(c.entries))
	for p, st := range c.entries {
		if under(p, clean) {
			entries = append(entries, kept{p, st})
		}
	}
	c.mu.Unlock()
	out := make([]Info, 0, len(entries))
	for _, e := range entries {
		b, state := Backend(nil), e.state
		if f, rest, ok := untag(state); ok {
			b, state = ForFormat(f), rest
		} else if b = claimedByPath(e.path); b == nil {
			b = piBackend{}
		}
		if info, ok := b.CachedInfo(e.path, state); ok {
			out = append(out, info)
		}
	}
	return out
}

// under reports whether path is one of roots (cleaned) or in one of them.
func under(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || len(path) > len(r) && path[len(r)] == filepath.Separator && strings.HasPrefix(path, r) {
			return true
		}
	}
	return false
}
