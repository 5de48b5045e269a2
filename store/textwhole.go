package store

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"time"

	"skein/internal/readfile"
	"skein/internal/stamp"
	"skein/model"
)

// The text index on a session of a format that is not a TextReader, or
// that reads its sessions whole when they changed (a Dhara folder's files
// and a Dhara 0.5 file are replaced, not only appended to; Claude Code
// merges a reply's lines and Codex pairs calls by id, so that an entry is
// not one record): its token is its files' stats, and, by default, a
// record's place is its entry's index.

// TextToken is the change token of b's session at path, read whole: its
// files' stats (StampFiles) hashed into Tail, their sizes and the latest
// mtime beside it.
func TextToken(b Backend, path string) (TextState, bool) {
	t := TextState{IndexedNs: time.Now().UnixNano(), Format: b.Format()}
	return t, tokenOf(&t, StampFiles(b, path))
}

func tokenOf(t *TextState, files []string) bool {
	var b []byte
	for _, f := range files {
		st, err := os.Stat(f)
		if errors.Is(err, fs.ErrNotExist) {
			b = append(b, 0)
			continue
		}
		if err != nil {
			return false
		}
		in, _ := stamp.ChangeTime(st)
		b = binary.AppendVarint(b, st.Size())
		b = binary.AppendVarint(b, st.ModTime().UnixNano())
		b = binary.AppendUvarint(b, in.Dev)
		b = binary.AppendUvarint(b, in.Ino)
		b = binary.AppendVarint(b, in.CtimeNs)
		t.CtimeNs = max(t.CtimeNs, in.CtimeNs)
		t.Size += st.Size()
		t.MtimeNs = max(t.MtimeNs, st.ModTime().UnixNano())
	}
	t.Tail = uint64(crc32.Checksum(b, stamp.Castagnoli))<<32 | uint64(crc32.ChecksumIEEE(b))
	return true
}

// ReadToken is the token of b's session at path about to be read whole,
// with the CRC-32C of its files' bytes in Whole: taken before the read, so
// that a change during it leaves a CRC that differs from the bytes next
// time. A session it cannot read is a *NotSession.
func ReadToken(b Backend, path string) (TextState, error) {
	t, ok := TextToken(b, path)
	if ok {
		t.Whole, ok = bytesCRC(StampFiles(b, path))
	}
	if !ok {
		return t, &NotSession{Reason: "cannot read " + path}
	}
	return t, nil
}

// bytesCRC is the CRC-32C of files' sizes and bytes (a missing one counts
// as absent, not as empty).
func bytesCRC(files []string) (uint32, bool) {
	var c uint32
	for _, p := range files {
		f, st, err := readfile.OpenRegular(p)
		if errors.Is(err, fs.ErrNotExist) {
			c = crc32.Update(c, stamp.Castagnoli, []byte{0})
			continue
		}
		if err != nil {
			return 0, false
		}
		c = crc32.Update(c, stamp.Castagnoli, binary.AppendVarint([]byte{1}, st.Size()))
		c, err = stamp.RangeCRC(c, f, 0, st.Size())
		f.Close()
		if err != nil {
			return 0, false
		}
	}
	return c, true
}

// checkWhole is Check for a session read whole: its files' stats as they
// were, and, when the last change was too recent to trust them, its
// bytes' CRC.
func checkWhole(t TextState, files []string) (TextState, bool) {
	tok := TextState{IndexedNs: time.Now().UnixNano(), Format: t.Format}
	if ok := tokenOf(&tok, files); !ok || tok.Tail != t.Tail || tok.Size != t.Size || tok.MtimeNs != t.MtimeNs {
		return t, false
	}
	if t.IndexedNs-t.CtimeNs > stamp.Slack {
		return t, true
	}
	if c, ok := bytesCRC(files); !ok || c != t.Whole {
		return t, false
	}
	t.IndexedNs = tok.IndexedNs
	return t, true
}

// readWholeText reads a session of a whole format for the text index.
func readWholeText(path string, b Backend) (*TextPart, error) {
	tok, err := ReadToken(b, path)
	if err != nil {
		return nil, err
	}
	s, err := b.Open(path)
	if err != nil {
		return nil, err
	}
	lines := make([][2]int64, s.Len())
	for i := range lines {
		lines[i] = [2]int64{int64(i), int64(len(s.Raw(i)))}
	}
	return &TextPart{Session: s, State: tok, Lines: lines}, nil
}

// readWholeEntries gives each record (an entry's index) as the last entry
// of the session cut after it.
func readWholeEntries(path string, b Backend, recs [][2]int64, fn func(i int, s *model.Session)) error {
	s, err := b.Open(path)
	if err != nil {
		return err
	}
	for k, r := range recs {
		if i := int(r[0]); i >= 0 && i < s.Len() && int64(len(s.Raw(i))) == r[1] {
			fn(k, model.NewSession(prefix{s.Source, i + 1}, s.Info))
		}
	}
	return nil
}

// prefix is a session's first n entries.
type prefix struct {
	model.Source
	n int
}

func (p prefix) Len() int { return p.n }
