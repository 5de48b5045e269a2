package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/model"
	"skein/store"
)

// readOnly is a format that supports no action: its sessions are pi files
// under a folder named readonly-format, read through store.Parse.
type readOnly struct{}

func (readOnly) Format() store.Format     { return "readonly-format" }
func (readOnly) Wording() store.Wording   { return store.Wording{Agent: "readonly-format"} }
func (readOnly) Claims(path string) bool  { return strings.Contains(path, "readonly-format") }
func (readOnly) Detect([]byte, bool) bool { return false }
func (readOnly) Open(p string) (*model.Session, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	s, err := store.Parse(data)
	if err != nil {
		return nil, err
	}
	s.Info.Path, s.Info.Format = p, "readonly-format"
	return s, nil
}
func (r readOnly) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	s, err := r.Open(path)
	if err != nil {
		return buf, store.Info{}, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return buf, store.Info{}, err
	}
	info := s.Info
	info.Name, info.Entries, info.Branches = s.Name(), s.Len(), 1
	info.Modified = float64(st.ModTime().UnixMilli())
	info.Created = info.Modified
	for i := range s.Len() {
		if e := s.Entry(i); e.Kind == model.EntryMessage {
			info.MessageCount++
			if m := s.EntryMessage(i); info.FirstMessage == "" && e.Role == model.RoleUser {
				info.FirstMessage = m.Text(" ")
			}
		}
	}
	return buf, info, nil
}
func (r readOnly) SessionID(p string) (string, error) {
	s, err := r.Open(p)
	if err != nil {
		return "", err
	}
	return s.Info.ID, nil
}

// A format that cannot do an action says so, through the store interface,
// and the TUI shows the action as unavailable: in help, and with its reason
// when the key is pressed; nothing is written and no dialog opens.
func TestUnsupportedActionsAreUnavailable(t *testing.T) {
	t.Cleanup(store.Register(readOnly{}))
	root := storeCopyTo(t, filepath.Join(t.TempDir(), "readonly-format"))
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Cache: Redis vs SQLite")
	path := m.session.info.Path
	before, _ := os.ReadFile(path)
	for _, k := range []string{"f", "L", "R", "c", "P"} {
		run(m, press(m, k))
		if dlg(m) != nil {
			t.Fatalf("%s opened a dialog on a read-only format", k)
		}
		if v := plain(m); !strings.Contains(v, "readonly-format sessions do not support") {
			t.Errorf("%s: no reason on screen:\n%s", k, v)
		}
		run(m, press(m, "esc")) // dismisses the error, and does nothing else
		if m.errText != "" || m.session == nil {
			t.Fatalf("esc: error %q, session screen %v", m.errText, m.session != nil)
		}
	}
	run(m, press(m, "?"))
	help := plain(m)
	for _, want := range []string{"fork here (unavailable)", "compact (unavailable)", "label (unavailable)", "rename (unavailable)", "resume in readonly-format (unavailable)"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "replay (unavailable)") {
		t.Error("replay is marked unavailable: it writes nothing")
	}
	run(m, press(m, "?"))
	run(m, press(m, "esc")) // back to the list
	run(m, press(m, "?"))
	if v := plain(m); !strings.Contains(v, "delete (to trash) (unavailable)") {
		t.Errorf("the list's help does not mark delete:\n%s", v)
	}
	run(m, press(m, "?"))
	run(m, press(m, "d"))
	if dlg(m) != nil || !strings.Contains(m.errText, "readonly-format sessions do not support deleting") {
		t.Errorf("delete from the list: dialog %v, error %q", dlg(m) != nil, m.errText)
	}
	if after, err := os.ReadFile(path); err != nil || string(after) != string(before) {
		t.Error("the session changed")
	}
	// A pi session's help marks nothing.
	m2 := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m2, "Cache: Redis vs SQLite")
	run(m2, press(m2, "?"))
	if strings.Contains(plain(m2), "(unavailable)") {
		t.Error("a pi session's action is marked unavailable")
	}
}
