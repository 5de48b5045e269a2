package pi

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"time"

	"skein/internal/jscan"
	"skein/internal/readfile"
	"skein/internal/stamp"
	"skein/model"
	"skein/store"
)

// The text index (package search) on a pi file: pi's current version is
// read on from where the index stopped (every line alone says all it
// holds), and a record is read alone with the file's header.

// Check reports whether the file is as the state found it: by one stat
// when that can be trusted (its size, times and inode as they were, the
// change older than the clock's slack when the state was taken), else by
// its bytes (stamp.SameBytes). The state returned is the one to keep: when the
// bytes said, with the inode as it is now, so that the next check may
// trust the stat.
func (backend) CheckText(t store.TextState, path string) (store.TextState, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return t, false
	}
	switch stamp.ByStat(st, t.Size, t.MtimeNs, t.Inode(), t.IndexedNs) {
	case stamp.Same:
		return t, true
	case stamp.Changed:
		return t, false
	}
	now := time.Now().UnixNano()
	f, st, err := readfile.OpenRegular(path)
	if err != nil {
		return t, false
	}
	defer f.Close()
	if stamp.ByStat(st, t.Size, t.MtimeNs, t.Inode(), t.IndexedNs) == stamp.Changed || !stamp.SameBytes(f, st, t.End, t.Whole, t.Tail) {
		return t, false
	}
	in, ok := stamp.ChangeTime(st)
	if !ok {
		return t, true
	}
	// A last line that did not parse is in no entry, but it may be one now.
	if rest, err := stamp.RangeCRC(0, f, t.End, t.Size); err != nil || rest != t.Rest {
		return t, false
	}
	t.Dev, t.Ino, t.CtimeNs, t.IndexedNs = in.Dev, in.Ino, in.CtimeNs, now
	return t, true
}

// ReadText reads the session at path for the text index: whole, or, with
// prev a state of the same file that grew since (its read part unchanged,
// in a format that can be read on), only the bytes after prev.End. The
// part's session then holds only the new entries. grown reports which.
func (backend) ReadText(path string, prev *store.TextState) (part *store.TextPart, grown bool, err error) {
	// The token's time is taken before the file is looked at: a change
	// after it moves the change time past it.
	now := time.Now().UnixNano()
	f, st, err := readfile.OpenRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	size := st.Size()
	in, _ := stamp.ChangeTime(st)
	state := store.TextState{Format: store.FormatPi, Size: size, MtimeNs: st.ModTime().UnixNano(), Dev: in.Dev, Ino: in.Ino, CtimeNs: in.CtimeNs, IndexedNs: now}
	from := int64(0)
	if prev != nil && prev.Appendable && prev.End <= size && prev.End <= prev.Size && size > prev.Size {
		if h, err := stamp.TailHash(f, prev.End); err == nil && h == prev.Tail {
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
		if _, err := ParseEntry(bytes.TrimRight(body[cut:], "\r"), 1); err == nil {
			cut, unterminated = len(body), true
		}
	}
	state.Rest = crc32.Checksum(body[cut:], stamp.Castagnoli)
	body = body[:cut]
	data = data[:len(header)+cut]
	state.End = from + int64(cut)
	if from > 0 {
		state.Whole = crc32.Update(prev.Whole, stamp.Castagnoli, body)
	} else {
		state.Whole = crc32.Checksum(body, stamp.Castagnoli)
	}
	if state.Tail, err = stamp.TailHash(f, state.End); err != nil {
		return nil, false, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, false, err
	}
	// A last entry without its line ending may go on with the next one
	// on the same line: the next read is of the whole file.
	state.Appendable = s.Header.Version >= 3 && !unterminated
	sess := sessionAt(path, s)
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
	return &store.TextPart{Session: sess, State: state, Lines: lines}, from > 0, nil
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

// ReadEntries is ReadEntry for several records of one file, opened once:
// fn is called with each record's index in recs and its session, for
// those that parse.
func (backend) ReadEntries(path string, recs [][2]int64, fn func(i int, s *model.Session)) error {
	f, st, err := readfile.OpenRegular(path)
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
		if s, err := Parse(data); err == nil && len(s.Entries) > 0 {
			fn(i, sessionAt(path, s))
		}
	}
	return nil
}
