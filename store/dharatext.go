package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"skein/internal/jsjson"
	"skein/model"
	"skein/store/dhara"
	"skein/store/dhara05"
	"skein/store/pi"
)

// The text index on a Dhara session folder. A folder is read whole when
// any of its files changed (they are replaced, not only appended to; a
// session's text is small beside a pi file's, and the archive move
// rewrites entries.jsonl). A record's place is an offset in entries.jsonl,
// or, below 0, -1-offset in archive.jsonl.

// readWhole reports whether the text index reads a session of format f
// whole whenever it changed: Dhara's folders and 0.5 files (rewritten,
// not only appended to), and the file formats whose entries are not one
// record each (wholeFormat).
func readWhole(f Format) bool {
	return f == FormatDhara || f == FormatDhara05 || wholeFormat(f)
}

// wholeFormat reports whether f is a file format whose entries are not one
// record each (Claude Code merges a reply's lines; Codex pairs calls by
// id): a record's place is its entry's index.
func wholeFormat(f Format) bool { return f == FormatClaude || f == FormatCodex }

// dharaTextToken is the folder's change token: the four files' stats
// hashed into Tail, entries.jsonl's size and the latest mtime beside it.
func dharaTextToken(path string, format Format) (TextState, bool) {
	t := TextState{IndexedNs: time.Now().UnixNano(), Format: format}
	var b []byte
	files := dharaFiles[:]
	if format != FormatDhara {
		files = []string{""}
	}
	for _, f := range files {
		st, err := os.Stat(filepath.Join(path, f))
		if errors.Is(err, fs.ErrNotExist) {
			b = append(b, 0)
			continue
		}
		if err != nil {
			return t, false
		}
		in, _ := changeTime(st)
		b = binary.AppendVarint(b, st.Size())
		b = binary.AppendVarint(b, st.ModTime().UnixNano())
		b = binary.AppendUvarint(b, in.Dev)
		b = binary.AppendUvarint(b, in.Ino)
		b = binary.AppendVarint(b, in.CtimeNs)
		t.CtimeNs = max(t.CtimeNs, in.CtimeNs)
		t.Size += st.Size()
		t.MtimeNs = max(t.MtimeNs, st.ModTime().UnixNano())
	}
	t.Tail = uint64(crc32.Checksum(b, castagnoli))<<32 | uint64(crc32.ChecksumIEEE(b))
	return t, true
}

// tokenFiles are the files of a session whose stats make its token: a
// Dhara folder's four, or the one file.
func tokenFiles(path string, format Format) []string {
	if format != FormatDhara {
		return []string{path}
	}
	out := make([]string, len(dharaFiles))
	for i, f := range dharaFiles {
		out[i] = filepath.Join(path, f)
	}
	return out
}

// dharaReadToken is the token of a session about to be read whole, with
// the CRC-32C of its files' bytes in Whole: taken before the read, so that
// a change during it leaves a CRC that differs from the bytes next time.
func dharaReadToken(path string, format Format) (TextState, bool) {
	t, ok := dharaTextToken(path, format)
	if ok {
		t.Whole, ok = bytesCRC(tokenFiles(path, format))
	}
	return t, ok
}

// bytesCRC is the CRC-32C of files' sizes and bytes (a missing one counts
// as absent, not as empty).
func bytesCRC(files []string) (uint32, bool) {
	var c uint32
	for _, p := range files {
		f, st, err := pi.OpenRegular(p)
		if errors.Is(err, fs.ErrNotExist) {
			c = crc32.Update(c, castagnoli, []byte{0})
			continue
		}
		if err != nil {
			return 0, false
		}
		c = crc32.Update(c, castagnoli, binary.AppendVarint([]byte{1}, st.Size()))
		c, err = rangeCRC(c, f, 0, st.Size())
		f.Close()
		if err != nil {
			return 0, false
		}
	}
	return c, true
}

// checkDhara is Check for a session read whole: its files' stats as they
// were, and, when the last change was too recent to trust them, its
// bytes' CRC.
func (t TextState) checkDhara(path string) (TextState, bool) {
	tok, ok := dharaTextToken(path, t.Format)
	if !ok || tok.Tail != t.Tail || tok.Size != t.Size || tok.MtimeNs != t.MtimeNs {
		return t, false
	}
	if t.IndexedNs-t.CtimeNs > ctimeSlack {
		return t, true
	}
	if c, ok := bytesCRC(tokenFiles(path, t.Format)); !ok || c != t.Whole {
		return t, false
	}
	t.IndexedNs = tok.IndexedNs
	return t, true
}

// readDharaText reads a session the text index reads whole (readWhole),
// of b's format.
func readDharaText(path string, b Backend) (*TextPart, error) {
	switch f := b.Format(); {
	case f == FormatDhara05:
		return readDhara05Text(path)
	case wholeFormat(f):
		return readWholeText(path, b)
	}
	tok, ok := dharaReadToken(path, FormatDhara)
	if !ok {
		return nil, &NotSession{Reason: "cannot read " + path}
	}
	files, err := dhara.ReadFiles(path)
	if err != nil {
		return nil, dharaErr(err)
	}
	if after, ok := dharaTextToken(path, FormatDhara); !ok || after.Tail != tok.Tail {
		tok.Tail = 0 // it changed while it was read: read it again next time
	}
	s := dhara.Parse(files)
	lines := make([][2]int64, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		lines[i] = [2]int64{-1, -1}
		if len(e.Raw) == 0 {
			continue
		}
		if e.Archived {
			lines[i] = [2]int64{-1 - int64(e.Off), int64(len(e.Raw))}
		} else {
			lines[i] = [2]int64{int64(e.Off), int64(len(e.Raw))}
		}
	}
	return &TextPart{Session: dharaSession(path, s), State: tok, Lines: lines}, nil
}

// readDharaEntries reads records alone: each a session of one entry (its
// tool name, which a result finds through its call, was kept when it was
// indexed).
func readDharaEntries(path string, b Backend, recs [][2]int64, fn func(i int, s *model.Session)) error {
	switch f := b.Format(); {
	case f == FormatDhara05:
		return readDhara05Entries(path, recs, fn)
	case wholeFormat(f):
		return readWholeEntries(path, b, recs, fn)
	}
	var names map[string]string // the tools of the calls, for results
	var files *dhara.Files      // read once, when a result needs its call
	open := map[string]*os.File{}
	defer func() {
		for _, f := range open {
			f.Close()
		}
	}()
	for i, r := range recs {
		name, off := dhara.EntriesFile, r[0]
		if off < 0 {
			name, off = dhara.ArchiveFile, -1-off
		}
		f, ok := open[name]
		if !ok {
			var err error
			if f, err = os.Open(filepath.Join(path, name)); err != nil {
				continue
			}
			open[name] = f
		}
		if r[1] <= 0 || r[1] > 1<<30 {
			continue
		}
		data := make([]byte, r[1])
		if _, err := f.ReadAt(data, off); err != nil {
			continue
		}
		s := dhara.Parse(dhara.Files{Entries: data})
		if len(s.Entries) == 1 && s.Entries[0].Type == dhara.TypeToolResult {
			if names == nil {
				names = map[string]string{}
			}
			call := s.Entries[0].Ref
			if _, ok := names[call]; !ok {
				names[call] = callName(path, call, &files)
			}
			s.CallNames = names
		}
		if len(s.Entries) == 1 {
			fn(i, dharaSession(path, s))
		}
	}
	return nil
}

// A Dhara 0.5 file is read whole for the text index (Dhara rewrites it on
// every save); its records are its lines.
func readDhara05Text(path string) (*TextPart, error) {
	tok, ok := dharaReadToken(path, FormatDhara05)
	if !ok {
		return nil, &NotSession{Reason: "cannot read " + path}
	}
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := dhara05.Parse(data)
	if err != nil {
		return nil, &NotSession{Reason: err.Error()}
	}
	lines := make([][2]int64, len(s.Entries))
	for i := range s.Entries {
		raw := s.Entries[i].Raw
		lines[i] = [2]int64{-1, -1}
		off := cap(data) - cap(raw)
		if len(raw) > 0 && off >= 0 && off < len(data) && &data[off] == &raw[0] {
			lines[i] = [2]int64{int64(off), int64(len(raw))}
		}
	}
	return &TextPart{Session: s.Domain(model.SessionInfo{Path: path, Format: string(FormatDhara05)}), State: tok, Lines: lines}, nil
}

func readDhara05Entries(path string, recs [][2]int64, fn func(i int, s *model.Session)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for i, r := range recs {
		if r[0] < 0 || r[1] <= 0 || r[1] > 1<<30 {
			continue
		}
		data := make([]byte, r[1])
		if _, err := f.ReadAt(data, r[0]); err != nil {
			continue
		}
		if s, err := dhara05.Parse(data); err == nil && len(s.Entries) == 1 {
			fn(i, s.Domain(model.SessionInfo{Path: path, Format: string(FormatDhara05)}))
		}
	}
	return nil
}

// callName is the tool of the call callID in the session folder path: its
// line found by its id in the files (read once), else by reading the
// session.
func callName(path, callID string, files **dhara.Files) string {
	if *files == nil {
		f, err := dhara.ReadFiles(path)
		if err != nil {
			return ""
		}
		*files = &f
	}
	needle := append(append([]byte(`"id":`), jsjson.AppendString(nil, callID)...), ',')
	for _, data := range [][]byte{(*files).Entries, (*files).Archive} {
		for off := 0; ; {
			k := bytes.Index(data[off:], needle)
			if k < 0 {
				break
			}
			at := off + k
			start := bytes.LastIndexByte(data[:at], '\n') + 1
			end := bytes.IndexByte(data[at:], '\n')
			if end < 0 {
				end = len(data) - at
			}
			one := dhara.Parse(dhara.Files{Entries: data[start : at+end]})
			if len(one.Entries) == 1 && one.Entries[0].ID == callID && one.Entries[0].Type == dhara.TypeToolCall {
				return one.Entries[0].ToolName
			}
			off = at + len(needle)
		}
	}
	if all := dhara.Parse(**files); all != nil {
		return all.ToolNames()[callID]
	}
	return ""
}

// readWholeText reads a session of a whole format for the text index.
func readWholeText(path string, b Backend) (*TextPart, error) {
	tok, ok := dharaReadToken(path, b.Format())
	if !ok {
		return nil, &NotSession{Reason: "cannot read " + path}
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
