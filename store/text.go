package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"skein/internal/cachefile"
	"skein/internal/jscan"
	"skein/model"
	"skein/store/pi"
)

// What the full-text index (package search) asks of a format: the change
// token of a session's file, and its entries read from where the index
// stopped, each with where its record lies so that one message can be read
// again alone, for a snippet or a check.

// TextState is what the text index keeps of a session's file: the change
// token (the size read, through the last whole line or a last line that
// parsed; the file's size, modification time and inode then, and when
// that was; CRC-32Cs of the read part whole and of its last 4 KB) and
// whether the file can be read on from where the index stopped (pi's
// current version: every line alone says all it holds).
type TextState struct {
	End, Size, MtimeNs int64
	Tail               uint64
	Whole, Rest        uint32 // Rest: of the bytes past End
	Dev, Ino           uint64
	CtimeNs, IndexedNs int64
	Appendable         bool
	// Format is the session's, found (Find) when it was read: Check
	// knows from it how to look at the file again without reading its
	// first lines.
	Format Format
}

func (t TextState) inode() inodeStamp { return inodeStamp{t.Dev, t.Ino, t.CtimeNs} }

// AppendTo writes the state to b.
func (t TextState) AppendTo(b []byte) []byte {
	for _, v := range []int64{t.End, t.Size, t.MtimeNs, int64(t.Tail), int64(t.Whole), int64(t.Rest), int64(t.Dev), int64(t.Ino), t.CtimeNs, t.IndexedNs} {
		b = binary.AppendVarint(b, v)
	}
	// One byte: whether it can be read on, and the format's code.
	flags := textFormatCode(t.Format) << 1
	if t.Appendable {
		flags |= 1
	}
	return append(b, flags)
}

// textFormats are the formats a text state names by a code (its index);
// any other is read as pi's are (0).
var textFormats = [...]Format{FormatPi, FormatDhara, FormatDhara05, FormatClaude, FormatCodex}

func textFormatCode(f Format) byte {
	for i, g := range textFormats {
		if g == f {
			return byte(i)
		}
	}
	return 0
}

// ReadTextState reads a state AppendTo wrote, and what follows it.
func ReadTextState(b []byte) (TextState, []byte, bool) {
	var v [10]int64
	for i := range v {
		x, n := binary.Varint(b)
		if n <= 0 {
			return TextState{}, nil, false
		}
		v[i], b = x, b[n:]
	}
	// A state written before it named its format has the code 0: it is
	// checked as pi's, which a session of another format fails, and read
	// again.
	if len(b) == 0 || int(b[0]>>1) >= len(textFormats) {
		return TextState{}, nil, false
	}
	return TextState{End: v[0], Size: v[1], MtimeNs: v[2], Tail: uint64(v[3]), Whole: uint32(v[4]), Rest: uint32(v[5]), Dev: uint64(v[6]),
		Ino: uint64(v[7]), CtimeNs: v[8], IndexedNs: v[9], Appendable: b[0]&1 == 1, Format: textFormats[b[0]>>1]}, b[1:], true
}

// Check reports whether the file is as the state found it: by one stat
// when that can be trusted (its size, times and inode as they were, the
// change older than the clock's slack when the state was taken), else by
// its bytes (sameBytes). The state returned is the one to keep: when the
// bytes said, with the inode as it is now, so that the next check may
// trust the stat.
func (t TextState) Check(path string) (TextState, bool) {
	if readWhole(t.Format) {
		return t.checkDhara(path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return t, false
	}
	switch byStat(st, t.Size, t.MtimeNs, t.inode(), t.IndexedNs) {
	case statSame:
		return t, true
	case statChanged:
		return t, false
	}
	now := time.Now().UnixNano()
	f, st, err := pi.OpenRegular(path)
	if err != nil {
		return t, false
	}
	defer f.Close()
	if byStat(st, t.Size, t.MtimeNs, t.inode(), t.IndexedNs) == statChanged || !sameBytes(f, st, t.End, t.Whole, t.Tail) {
		return t, false
	}
	in, ok := changeTime(st)
	if !ok {
		return t, true
	}
	// A last line that did not parse is in no entry, but it may be one now.
	if rest, err := rangeCRC(0, f, t.End, t.Size); err != nil || rest != t.Rest {
		return t, false
	}
	t.Dev, t.Ino, t.CtimeNs, t.IndexedNs = in.Dev, in.Ino, in.CtimeNs, now
	return t, true
}

// TextPart is a session's file read for the text index from an offset on:
// the session those bytes make (with the header, for the format's rules),
// where each entry's record lies in the file, and the state to keep.
type TextPart struct {
	Session *model.Session
	State   TextState
	// Lines holds, per entry, the offset and length of its record in the
	// file (-1: none, or not known).
	Lines [][2]int64
}

// ReadText reads the session at path for the text index: whole, or, with
// prev a state of the same file that grew since (its read part unchanged,
// in a format that can be read on), only the bytes after prev.End. The
// part's session then holds only the new entries. grown reports which.
func ReadText(path string, prev *TextState) (part *TextPart, grown bool, err error) {
	// The format by what the session is, once per read; the state keeps it.
	b, err := Find(path)
	if err != nil {
		return nil, false, err
	}
	if readWhole(b.Format()) {
		part, err := readDharaText(path, b)
		return part, false, err
	}
	// The token's time is taken before the file is looked at: a change
	// after it moves the change time past it.
	now := time.Now().UnixNano()
	f, st, err := pi.OpenRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	size := st.Size()
	in, _ := changeTime(st)
	state := TextState{Format: FormatPi, Size: size, MtimeNs: st.ModTime().UnixNano(), Dev: in.Dev, Ino: in.Ino, CtimeNs: in.CtimeNs, IndexedNs: now}
	from := int64(0)
	if prev != nil && prev.Appendable && prev.End <= size && prev.End <= prev.Size && size > prev.Size {
		if h, err := tailHash(f, prev.End); err == nil && h == prev.Tail {
			from = prev.End
		}
	}
	var header []byte
	if from > 0 {
		if header, err = readHeaderLine(f); err != nil {
			from, header = 0, nil
		}
	}
	data := make([]byte, len(header)+int(size-from))
	copy(data, header)
	body := data[len(header):]
	n, err := f.ReadAt(body, from)
	if err != nil && !(errors.Is(err, io.EOF) && int64(n) == size-from) {
		return nil, false, err
	}
	// Up to the last whole line, or a last line that is a whole entry: a
	// line being written is read when it is done.
	cut := bytes.LastIndexByte(body, '\n') + 1
	unterminated := false
	if cut < len(body) {
		if _, err := pi.ParseEntry(bytes.TrimRight(body[cut:], "\r"), 1); err == nil {
			cut, unterminated = len(body), true
		}
	}
	state.Rest = crc32.Checksum(body[cut:], castagnoli)
	body = body[:cut]
	data = data[:len(header)+cut]
	state.End = from + int64(cut)
	if from > 0 {
		state.Whole = crc32.Update(prev.Whole, castagnoli, body)
	} else {
		state.Whole = crc32.Checksum(body, castagnoli)
	}
	if state.Tail, err = tailHash(f, state.End); err != nil {
		return nil, false, err
	}
	s, err := pi.Parse(data)
	if err != nil {
		return nil, false, err
	}
	// A last entry without its line ending may go on with the next one
	// on the same line: the next read is of the whole file.
	state.Appendable = s.Header.Version >= 3 && !unterminated
	sess := piSession(path, s)
	lines := make([][2]int64, sess.Len())
	base := from - int64(len(header))
	for i := range lines {
		lines[i] = [2]int64{-1, -1}
		raw := sess.Raw(i)
		if len(raw) == 0 {
			continue
		}
		// The record is a part of data: its offset is where it starts in it.
		off := cap(data) - cap(raw)
		if off >= 0 && off < len(data) && &data[off] == &raw[0] {
			lines[i] = [2]int64{base + int64(off), int64(len(raw))}
		}
	}
	return &TextPart{Session: sess, State: state, Lines: lines}, from > 0, nil
}

// readHeaderLine is a file's header line, with a line ending: its first
// line that is not blank and is JSON, as pi's reader finds it (a
// byte-order mark and a carriage return left off).
func readHeaderLine(r io.ReaderAt) ([]byte, error) {
	var buf []byte
	chunk := make([]byte, 64<<10)
	var off int64
	for first := true; ; {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			n, err := r.ReadAt(chunk, off)
			off += int64(n)
			buf = append(buf, chunk[:n]...)
			if n > 0 {
				continue
			}
			if err == nil {
				err = io.EOF
			}
			if len(buf) == 0 {
				return nil, err
			}
			i = len(buf) // a last line without its ending
		}
		line := buf[:i]
		if first {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			first = false
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) > 0 && jscan.Valid(line) {
			return append(append([]byte(nil), line...), '\n'), nil
		}
		if i == len(buf) {
			return nil, errors.New("no header line")
		}
		buf = buf[i+1:]
		if off > 64<<20 {
			return nil, errors.New("no header line")
		}
	}
}

// ReadEntry reads one record of a session alone (at off, n bytes, as
// ReadText found it), with its file's header: the session holding only
// it, whose last entry it is. false: the bytes there are not that record
// any more.
func ReadEntry(path string, off, n int64) (*model.Session, bool) {
	var out *model.Session
	ok := ReadEntries(path, [][2]int64{{off, n}}, func(_ int, s *model.Session) { out = s }) == nil
	return out, ok && out != nil
}

// ReadEntries is ReadEntry for several records of one file, opened once:
// fn is called with each record's index in recs and its session, for
// those that parse.
func ReadEntries(path string, recs [][2]int64, fn func(i int, s *model.Session)) error {
	b, err := Find(path)
	if err != nil {
		return err
	}
	if readWhole(b.Format()) {
		return readDharaEntries(path, b, recs, fn)
	}
	f, st, err := pi.OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	header, err := readHeaderLine(f)
	if err != nil {
		return err
	}
	for i, r := range recs {
		off, n := r[0], r[1]
		if off < int64(len(header)) || n <= 0 || off+n > st.Size() {
			continue
		}
		// Each a session of its own bytes: what one keeps is never reused.
		data := make([]byte, len(header)+int(n))
		copy(data, header)
		if _, err := f.ReadAt(data[len(header):], off); err != nil {
			continue
		}
		if s, err := pi.Parse(data); err == nil && len(s.Entries) > 0 {
			fn(i, piSession(path, s))
		}
	}
	return nil
}

// MapFile maps a regular file of the cache folder read-only for as long
// as unmap is not called (nil data for an empty file); where files cannot
// be mapped it reads it. A name holding anything else, a link or a pipe,
// is refused (cachefile.ErrNotRegular) without waiting.
func MapFile(path string) (data []byte, unmap func(), err error) {
	f, st, err := cachefile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	if b, err := mmap(f, st.Size()); err == nil {
		return b, func() { munmap(b) }, nil
	}
	b, err := io.ReadAll(f)
	return b, func() {}, err
}

// WriteFileAtomic writes data to a temporary name beside path, synced, and
// renames it to path: a reader sees the old file or the new, never a part.
func WriteFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid()) + "." + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := writeSynced(tmp, data); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
