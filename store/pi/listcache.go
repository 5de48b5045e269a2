package pi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime/debug"
	"time"

	"skein/internal/readfile"
	"skein/internal/stamp"
	"skein/store"
)

// mmapMin is the size from which a file is mapped rather than read. Below it
// page faults cost more than the copy; above it mapping also spares each
// worker a buffer the size of the largest session.
const mmapMin = 4 << 20

// scanFile reads a file into buf (grown as needed and returned for reuse),
// or maps it when it is large, and scans it.
func scanFile(path string, buf []byte) ([]byte, Info, error) {
	f, st, err := readfile.OpenRegular(path)
	if err != nil {
		return buf, Info{}, err
	}
	defer f.Close()
	return scanOpen(f, st.Size(), float64(st.ModTime().UnixMilli()), buf, ScanInfo)
}

// scanOpen reads an open file of size bytes into buf, or maps it when it is
// large, and scans it with scan.
func scanOpen(f *os.File, fileSize int64, mtimeMs float64, buf []byte, scan func([]byte, float64) (Info, error)) ([]byte, Info, error) {
	if fileSize >= mmapMin {
		if data, err := readfile.Map(f, fileSize); err == nil {
			info, err := scanMapped(data, mtimeMs, scan)
			readfile.Unmap(data)
			return buf, info, err
		}
	}
	size := int(fileSize) + 1
	if cap(buf) < size {
		buf = make([]byte, 0, size+size/4)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			break
		}
		if err != nil {
			return buf, Info{}, err
		}
	}
	info, err := scan(buf, mtimeMs)
	return buf, info, err
}

// scanMapped scans mapped memory. A file truncated while it is mapped faults
// on access; the fault becomes an error instead of a crash.
func scanMapped(data []byte, mtimeMs float64, scan func([]byte, float64) (Info, error)) (info Info, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("file changed while it was read: %v", r)
		}
	}()
	return scan(data, mtimeMs)
}

// piListState is what the index keeps of a pi file: its change token (the
// size scanned, through its last whole line; the file's size, modification
// time and inode then, and when that was; CRC-32Cs of the scanned part
// whole and of its last 4 KB) and the scan at that point, or why the file
// is not a session.
type piListState struct {
	Scanned, Size, MtimeNs int64
	Tail                   uint64
	Whole                  uint32
	Scan                   ScanState
	NotSession             string
	Inode                  stamp.Inode
	IndexedNs              int64
}

// ListCached is ListInfo through the index's state for the file: an
// unchanged file is not read, one that grew is scanned from where the
// index stopped (its scanned part unchanged), any other is read again.
func (backend) ListCached(path string, prev []byte, buf []byte) ([]byte, Info, []byte, error) {
	var ps piListState
	known := prev != nil && decodeState(prev, &ps)
	if known && ps.Scanned == ps.Size {
		// Unchanged by its stat alone: one stat, no open.
		if st, err := os.Stat(path); err == nil && stamp.ByStat(st, ps.Size, ps.MtimeNs, ps.Inode, ps.IndexedNs) == stamp.Same {
			if ps.NotSession != "" {
				return buf, Info{}, prev, &NotSession{Reason: ps.NotSession, Format: store.FormatPi}
			}
			info, err := ps.Scan.Result(float64(st.ModTime().UnixMilli()))
			return buf, info, prev, err
		}
	}
	// The token's time is taken before the file is looked at: a change
	// after it moves the change time past it.
	now := time.Now().UnixNano()
	f, st, err := readfile.OpenRegular(path)
	if err != nil {
		return buf, Info{}, nil, err
	}
	defer f.Close()
	size, mtimeNs, mtimeMs := st.Size(), st.ModTime().UnixNano(), float64(st.ModTime().UnixMilli())
	inode, haveInode := stamp.ChangeTime(st)
	if known && ps.Scanned <= size && ps.Scanned <= ps.Size {
		switch {
		case size == ps.Size && mtimeNs == ps.MtimeNs:
			v := stamp.ByStat(st, ps.Size, ps.MtimeNs, ps.Inode, ps.IndexedNs)
			if v == stamp.Changed || v == stamp.Unsure && !stamp.SameBytes(f, st, ps.Scanned, ps.Whole, ps.Tail) {
				break // changed in place: read again whole
			}
			if v == stamp.Unsure && haveInode {
				// Its bytes said: its stat is trusted from now on.
				ps.Inode, ps.IndexedNs = inode, now
				prev = encodeState(ps)
			}
			if ps.NotSession != "" {
				return buf, Info{}, prev, &NotSession{Reason: ps.NotSession, Format: store.FormatPi}
			}
			info, err := finishScan(ps.Scan, f, ps.Scanned, size, mtimeMs)
			return buf, info, prev, err
		case size > ps.Size && ps.NotSession == "":
			// Grown: scan on from the last whole line the index saw, when
			// the end of what it saw is still there.
			if h, err := stamp.TailHash(f, ps.Scanned); err == nil && h == ps.Tail {
				store.CountRead(false)
				ps.Inode, ps.IndexedNs = inode, now
				return scanOn(f, ps, size, mtimeNs, mtimeMs, buf)
			}
		}
	}
	store.CountRead(true)
	ps = piListState{Size: size, MtimeNs: mtimeNs, Inode: inode, IndexedNs: now}
	var allCRC uint32 // of the file's size bytes, for a file that is no session
	buf, info, err := scanOpen(f, size, mtimeMs, buf, func(data []byte, mtimeMs float64) (Info, error) {
		cut := int64(bytes.LastIndexByte(data, '\n') + 1)
		ps.Whole = crc32.Checksum(data[:cut], stamp.Castagnoli)
		allCRC = stamp.WholeCRC(data, cut, ps.Whole, size)
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
		ps.Scan, ps.Scanned, ps.Whole, ps.NotSession = ScanState{}, size, allCRC, ns.Reason
	case err != nil:
		return buf, info, nil, err // unread: nothing to keep
	}
	if ps.Tail, err = stamp.TailHash(f, ps.Scanned); err != nil {
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
	ps.Whole = crc32.Update(ps.Whole, stamp.Castagnoli, buf[:cut])
	ps.Scanned += int64(cut)
	ps.Size, ps.MtimeNs = size, mtimeNs
	if ps.Tail, err = stamp.TailHash(f, ps.Scanned); err != nil {
		return buf, info, nil, nil
	}
	return buf, info, encodeState(ps), nil
}

// finishScan is the record of an unchanged file: the kept scan, and its
// last line when that has no line ending (read again: it is short).
func finishScan(st ScanState, f *os.File, scanned, size int64, mtimeMs float64) (Info, error) {
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
const stateVersion = 4

// encodeState writes ps compactly (gob spent more time on its type
// descriptions than on the records).
func encodeState(ps piListState) []byte {
	e := stamp.Codec{B: make([]byte, 0, 256)}
	e.B = append(e.B, stateVersion)
	e.Int(ps.Scanned)
	e.Int(ps.Size)
	e.Int(ps.MtimeNs)
	e.B = binary.LittleEndian.AppendUint64(e.B, ps.Tail)
	e.Str(ps.NotSession)
	st := &ps.Scan
	e.Bools(st.Header, st.HasActivity, st.HasHeaderTime, st.HasAssistant)
	e.Float(st.LastActivity)
	e.Float(st.HeaderTime)
	e.Str(st.PrevID)
	e.Str(st.LatestModel)
	e.Str(st.AssistantModel)
	e.Str(st.Tips)
	in := &st.Info
	e.Str(in.Path)
	e.Str(in.Format)
	e.Str(in.ID)
	e.Str(string(in.IDJSON))
	e.Bools(in.NoStringID, in.HasParent, in.IDJSON != nil)
	e.Str(in.Cwd)
	e.Str(in.Name)
	e.Str(in.ParentSession)
	store.EncodeInfoContent(&e, in)
	e.B = binary.LittleEndian.AppendUint32(e.B, ps.Whole)
	e.B = binary.LittleEndian.AppendUint64(e.B, ps.Inode.Dev)
	e.B = binary.LittleEndian.AppendUint64(e.B, ps.Inode.Ino)
	e.Int(ps.Inode.CtimeNs)
	e.Int(ps.IndexedNs)
	return e.B
}

// decodeState reads what encodeState wrote; false for anything else.
func decodeState(b []byte, ps *piListState) bool {
	if len(b) == 0 || b[0] != stateVersion {
		return false
	}
	d := stamp.Codec{B: b[1:]}
	ps.Scanned, ps.Size, ps.MtimeNs = d.ReadInt(), d.ReadInt(), d.ReadInt()
	if len(d.B) < 8 {
		return false
	}
	ps.Tail, d.B = binary.LittleEndian.Uint64(d.B), d.B[8:]
	ps.NotSession = d.ReadStr()
	st := &ps.Scan
	f := d.ReadBools(4)
	st.Header, st.HasActivity, st.HasHeaderTime, st.HasAssistant = f[0], f[1], f[2], f[3]
	st.LastActivity, st.HeaderTime = d.ReadFloat(), d.ReadFloat()
	st.PrevID, st.LatestModel, st.AssistantModel, st.Tips = d.ReadStr(), d.ReadStr(), d.ReadStr(), d.ReadStr()
	in := &st.Info
	in.Path, in.Format, in.ID = d.ReadStr(), d.ReadStr(), d.ReadStr()
	idJSON := d.ReadStr()
	g := d.ReadBools(3)
	in.NoStringID, in.HasParent = g[0], g[1]
	if g[2] {
		in.IDJSON = []byte(idJSON)
	}
	in.Cwd, in.Name, in.ParentSession = d.ReadStr(), d.ReadStr(), d.ReadStr()
	store.DecodeInfoContent(&d, in)
	if len(d.B) < 20 {
		return false
	}
	le := binary.LittleEndian
	ps.Whole, ps.Inode.Dev, ps.Inode.Ino, d.B = le.Uint32(d.B), le.Uint64(d.B[4:]), le.Uint64(d.B[12:]), d.B[20:]
	ps.Inode.CtimeNs, ps.IndexedNs = d.ReadInt(), d.ReadInt()
	return !d.Bad && len(d.B) == 0
}

// CachedInfo is the record of a kept state, as it was when kept.
func (backend) CachedInfo(path string, state []byte) (Info, bool) {
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
