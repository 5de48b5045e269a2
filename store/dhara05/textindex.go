package dhara05

import (
	"os"
	"skein/internal/readfile"
	"skein/model"
	"skein/store"
)

// ReadText reads a file whole for the text index (Dhara rewrites it on
// every save); its records are its lines.
func (b oneFile) ReadText(path string, _ *store.TextState) (*store.TextPart, bool, error) {
	tok, err := store.ReadToken(b, path)
	if err != nil {
		return nil, false, err
	}
	data, err := readfile.Regular(path)
	if err != nil {
		return nil, false, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, false, &store.NotSession{Reason: err.Error()}
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
	return &store.TextPart{Session: s.Domain(model.SessionInfo{Path: path, Format: Format}), State: tok, Lines: lines}, false, nil
}

// ReadEntries reads each record (a line) alone.
func (oneFile) ReadEntries(path string, recs [][2]int64, fn func(i int, s *model.Session)) error {
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
		if s, err := Parse(data); err == nil && len(s.Entries) == 1 {
			fn(i, s.Domain(model.SessionInfo{Path: path, Format: Format}))
		}
	}
	return nil
}
