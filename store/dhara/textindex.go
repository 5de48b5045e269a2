package dhara

import (
	"bytes"
	"os"
	"path/filepath"

	"skein/internal/jsjson"
	"skein/model"
	"skein/store"
)

// The text index (package search) on a Dhara session folder.

// ReadText reads a session folder whole for the text index (its files are
// replaced, not only appended to); a record's place is an offset in
// entries.jsonl, or, below 0, -1-offset in archive.jsonl.
func (b backend) ReadText(path string, _ *store.TextState) (*store.TextPart, bool, error) {
	tok, err := store.ReadToken(b, path)
	if err != nil {
		return nil, false, err
	}
	files, err := ReadFiles(path)
	if err != nil {
		return nil, false, domainErr(err)
	}
	if after, ok := store.TextToken(b, path); !ok || after.Tail != tok.Tail {
		tok.Tail = 0 // it changed while it was read: read it again next time
	}
	s := Parse(files)
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
	return &store.TextPart{Session: sessionAt(path, s), State: tok, Lines: lines}, false, nil
}

// ReadEntries reads records alone: each a session of one entry (its
// tool name, which a result finds through its call, was kept when it was
// indexed).
func (backend) ReadEntries(path string, recs [][2]int64, fn func(i int, s *model.Session)) error {
	var names map[string]string // the tools of the calls, for results
	var files *Files            // read once, when a result needs its call
	open := map[string]*os.File{}
	defer func() {
		for _, f := range open {
			f.Close()
		}
	}()
	for i, r := range recs {
		name, off := EntriesFile, r[0]
		if off < 0 {
			name, off = ArchiveFile, -1-off
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
		s := Parse(Files{Entries: data})
		if len(s.Entries) == 1 && s.Entries[0].Type == TypeToolResult {
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
			fn(i, sessionAt(path, s))
		}
	}
	return nil
}

// callName is the tool of the call callID in the session folder path: its
// line found by its id in the files (read once), else by reading the
// session.
func callName(path, callID string, files **Files) string {
	if *files == nil {
		f, err := ReadFiles(path)
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
			one := Parse(Files{Entries: data[start : at+end]})
			if len(one.Entries) == 1 && one.Entries[0].ID == callID && one.Entries[0].Type == TypeToolCall {
				return one.Entries[0].ToolName
			}
			off = at + len(needle)
		}
	}
	if all := Parse(**files); all != nil {
		return all.ToolNames()[callID]
	}
	return ""
}
