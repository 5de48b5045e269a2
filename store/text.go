package store

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"skein/internal/cachefile"
	"skein/internal/readfile"
	"skein/internal/stamp"
	"skein/model"
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

// Inode is the inode the state found the file at.
func (t TextState) Inode() stamp.Inode {
	return stamp.Inode{Dev: t.Dev, Ino: t.Ino, CtimeNs: t.CtimeNs}
}

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

// textFormats are the formats a text state names by a code (its index):
// the names the index has written since it named formats (a format skein
// comes to read takes the next code); any other is 0.
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

// Check reports whether the session is as the state found it (see
// TextChecker; a session of a format that is read whole, by its files'
// stats and, when they changed too recently to be trusted, its bytes).
// The state returned is the one to keep.
func (t TextState) Check(path string) (TextState, bool) {
	b := ForFormat(t.Format)
	if c, ok := b.(TextChecker); ok {
		return c.CheckText(t, path)
	}
	return checkWhole(t, StampFiles(b, path))
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
// in a format that can be read on: a TextReader), only the bytes after
// prev.End. The part's session then holds only the new entries. grown
// reports which.
func ReadText(path string, prev *TextState) (part *TextPart, grown bool, err error) {
	// The format by what the session is, once per read; the state keeps it.
	b, err := Find(path)
	if err != nil {
		return nil, false, err
	}
	if r, ok := b.(TextReader); ok {
		return r.ReadText(path, prev)
	}
	part, err = readWholeText(path, b)
	return part, false, err
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
	if r, ok := b.(TextReader); ok {
		return r.ReadEntries(path, recs, fn)
	}
	return readWholeEntries(path, b, recs, fn)
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
	if b, err := readfile.Map(f, st.Size()); err == nil {
		return b, func() { readfile.Unmap(b) }, nil
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
