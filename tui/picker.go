package tui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/internal/sanitize"
	"skein/store"
	"skein/store/convert"
	"skein/theme"
	"skein/tui/transcript"
)

// The list's i: a picker of the folder's files and folders, from the
// folder skein was started in, and the import of the file chosen.
//
// The picker is skein's own rather than bubbles' filepicker, whose keys it
// follows: filepicker draws a symlink's target raw (a name holding ESC
// would reach the terminal as a live sequence), lists sockets, pipes and
// devices with no way to leave them out, reads the disk in View and Update,
// indexes past the end of a folder that shrank between two reads, keeps
// the old folder's files listed under a folder it could not read, and pulls
// in a dependency (go-humanize) skein's module does not have.

// pickEntry is a file or folder the picker lists.
type pickEntry struct {
	name string
	dir  bool
	size int64
}

// filePicker is the dialog of i.
type filePicker struct {
	dialogFrame
	home    string
	dir     string      // the folder shown; "" until the first read answers
	entries []pickEntry // its folders, then its files, by name
	cursor  int
	offset  int
	rows    int    // the rows the last View showed, for paging
	hidden  bool   // names starting with a dot are listed
	err     string // why the folder last asked for could not be read
	seq     int    // the read asked for last; an older answer is dropped
	reading bool
	// queued are the keys pressed while a read was under way, applied to
	// the folder it brings (l then j then enter goes into the folder,
	// down, and picks the file there).
	queued []tea.KeyPressMsg
	// choose starts the import of the file at path.
	choose func(path string) tea.Cmd
	keys   KeyMap // for the line of keys, which View fits to the width
}

// pickerReadMsg is a folder read for the picker p.
type pickerReadMsg struct {
	p       *filePicker
	seq     int
	dir     string
	entries []pickEntry
	sel     string // the entry to put the cursor on (the folder come up from)
	err     error
}

// newFilePicker opens on dir ("" for the working folder); the command
// reads it.
func newFilePicker(k KeyMap, dir, home string, choose func(string) tea.Cmd) (*filePicker, tea.Cmd) {
	p := &filePicker{home: home, choose: choose, keys: k}
	p.title = "Import a session from a file"
	p.hint = pickerHint(k, false, 100)
	return p, p.read(dir, "")
}

// pickerHint is the picker's line of keys, shorter in a box narrower than
// 70.
func pickerHint(k KeyMap, hidden bool, width int) string {
	if width < 70 {
		return fmt.Sprintf("%s: import · %s %s: folders · %s: hidden · %s: close",
			k.Open.Help().Key, k.PickUp.Help().Key, k.PickInto.Help().Key, k.PickHidden.Help().Key, k.Back.Help().Key)
	}
	dots := "show hidden files"
	if hidden {
		dots = "hide hidden files"
	}
	return fmt.Sprintf("%s: import (or open a folder) · %s: %s · %s: %s · %s: %s · %s: close",
		k.Open.Help().Key, k.PickInto.Help().Key, k.PickInto.Help().Desc, k.PickUp.Help().Key, k.PickUp.Help().Desc,
		k.PickHidden.Help().Key, dots, k.Back.Help().Key)
}

// read asks for the folder dir, the cursor then on the entry named sel.
func (p *filePicker) read(dir, sel string) tea.Cmd {
	p.seq++
	p.reading = true
	seq, hidden := p.seq, p.hidden
	return func() tea.Msg {
		msg := pickerReadMsg{p: p, seq: seq, dir: dir, sel: sel}
		if msg.dir == "" {
			wd, err := os.Getwd()
			if err != nil {
				msg.err = err
				return msg
			}
			msg.dir = wd
		}
		if abs, err := filepath.Abs(msg.dir); err == nil {
			msg.dir = abs
		}
		msg.entries, msg.err = readFolder(msg.dir, hidden)
		return msg
	}
}

// readFolder lists dir's regular files and folders (a symbolic link as what
// it points to, when that is one of them), folders first, then by name;
// names that start with a dot only when hidden is set.
func readFolder(dir string, hidden bool) ([]pickEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]pickEntry, 0, len(des))
	for _, d := range des {
		name := d.Name()
		if !hidden && strings.HasPrefix(name, ".") {
			continue
		}
		var info fs.FileInfo
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			info, err = os.Stat(filepath.Join(dir, name))
		case t.IsDir():
			out = append(out, pickEntry{name: name, dir: true})
			continue
		case t.IsRegular():
			info, err = d.Info()
		default:
			continue // a socket, a pipe, a device
		}
		switch {
		case err != nil:
		case info.IsDir():
			out = append(out, pickEntry{name: name, dir: true})
		case info.Mode().IsRegular():
			out = append(out, pickEntry{name: name, size: info.Size()})
		}
	}
	slices.SortFunc(out, func(a, b pickEntry) int {
		switch {
		case a.dir != b.dir && a.dir:
			return -1
		case a.dir != b.dir:
			return 1
		}
		if c := strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return out, nil
}

// Update takes a key. esc and q close the picker at once; any other key
// pressed while a folder is read waits for it.
func (p *filePicker) Update(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	if key.Matches(msg, k.Back) {
		return nil, true
	}
	if p.reading {
		p.queued = append(p.queued, msg)
		return nil, false
	}
	return p.key(msg, k)
}

func (p *filePicker) key(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, k.Up):
		p.cursor--
	case key.Matches(msg, k.Down):
		p.cursor++
	case key.Matches(msg, k.Top):
		p.cursor = 0
	case key.Matches(msg, k.Bottom):
		p.cursor = len(p.entries) - 1
	case key.Matches(msg, k.PageUp):
		p.cursor -= max(1, p.rows)
	case key.Matches(msg, k.PageDown):
		p.cursor += max(1, p.rows)
	case key.Matches(msg, k.PickUp):
		if parent := filepath.Dir(p.dir); p.dir != "" && parent != p.dir {
			return p.read(parent, filepath.Base(p.dir)), false
		}
	case key.Matches(msg, k.PickHidden):
		p.hidden = !p.hidden
		sel := ""
		if e := p.selected(); e != nil {
			sel = e.name
		}
		return p.read(p.dir, sel), false
	case key.Matches(msg, k.PickInto, k.Open):
		e := p.selected()
		switch {
		case e == nil:
		case e.dir:
			return p.read(filepath.Join(p.dir, e.name), ""), false
		case key.Matches(msg, k.Open):
			return p.choose(filepath.Join(p.dir, e.name)), true
		}
	}
	p.cursor = max(0, min(p.cursor, len(p.entries)-1))
	return nil, false
}

func (p *filePicker) selected() *pickEntry {
	if p.cursor < 0 || p.cursor >= len(p.entries) {
		return nil
	}
	return &p.entries[p.cursor]
}

// loaded takes a folder read, then the keys pressed meanwhile; done says
// one of them chose a file (the picker closes).
func (p *filePicker) loaded(msg pickerReadMsg, k KeyMap) (cmd tea.Cmd, done bool) {
	if msg.seq != p.seq {
		return nil, false
	}
	p.reading = false
	if msg.err != nil {
		// The folder shown stays; the first one is the one asked for.
		p.err = "cannot read the folder: " + msg.err.Error()
		if p.dir == "" {
			p.dir = msg.dir
		}
	} else {
		p.dir, p.entries, p.err = msg.dir, msg.entries, ""
		p.cursor, p.offset = 0, 0
		for i, e := range p.entries {
			if e.name == msg.sel {
				p.cursor = i
			}
		}
	}
	for len(p.queued) > 0 && !p.reading {
		next := p.queued[0]
		p.queued = p.queued[1:]
		if cmd, done := p.key(next, k); cmd != nil || done {
			return cmd, done
		}
	}
	return nil, false
}

// move moves the cursor by d (the mouse wheel).
func (p *filePicker) move(d int) {
	p.cursor = max(0, min(p.cursor+d, len(p.entries)-1))
}

// View draws the folder, a line of what is in it and as many entries as
// fit, every name from the disk sanitized.
func (p *filePicker) View(st theme.Styles, w, h int) string {
	bw := min(w-4, 100)
	inner := max(10, bw-4)
	where := "…"
	if p.dir != "" {
		where = fitLeft(sanitize.Inline(shortPath(p.dir, p.home)), inner)
	}
	p.body = where
	p.hint = pickerHint(p.keys, p.hidden, inner)
	hintLines := strings.Count(lipglossWrap(p.hint, inner), "\n") + 1
	return p.render(st, w, h, bw, func(inner, used int) string {
		// The box: its border, the title, the body, a gap, this, a gap, the hint.
		room := max(1, h-used-hintLines-4)
		var lines []string
		note := ""
		switch {
		case p.err != "":
			note = st.Error.Render(truncate(transcript.OneLine(p.err), inner))
		case p.reading && p.entries == nil:
			note = st.Dim.Render("reading…")
		case len(p.entries) == 0:
			note = st.Muted.Render("no files or folders here")
		case room >= 6:
			nd := 0
			for _, e := range p.entries {
				if e.dir {
					nd++
				}
			}
			note = st.Muted.Render(transcript.Count(nd, "folder", "folders") + " · " + transcript.Count(len(p.entries)-nd, "file", "files"))
		}
		if note != "" {
			lines = append(lines, note)
			room = max(1, room-1)
		}
		p.rows = room
		if p.cursor < p.offset {
			p.offset = p.cursor
		}
		if p.cursor >= p.offset+room {
			p.offset = p.cursor - room + 1
		}
		p.offset = max(0, min(p.offset, len(p.entries)-room))
		const sizeW = 9
		nameW := inner - 2 - sizeW
		for i := p.offset; i < len(p.entries) && i < p.offset+room; i++ {
			e := p.entries[i]
			name, size := sanitize.Inline(e.name), ""
			if e.dir {
				name += "/"
			} else {
				size = fileSizeText(e.size)
			}
			line := "  " + pad(truncate(name, nameW), nameW) + padLeft(size, sizeW)
			switch {
			case i == p.cursor:
				line = selectedRow(st.Selected, "> "+line[2:], inner)
			case e.dir:
				line = st.Accent.Render(line)
			}
			lines = append(lines, line)
		}
		for len(lines) < room+boolInt(note != "") {
			lines = append(lines, "")
		}
		return strings.Join(lines, "\n")
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lipglossWrap wraps text as a box of width w does, to count its lines.
func lipglossWrap(s string, w int) string { return ansi.Wrap(s, w, "") }

// fitLeft keeps the end of s (a path's last folders) within width w.
func fitLeft(s string, w int) string {
	if n := ansi.StringWidth(s); n > w {
		return ansi.TruncateLeft(s, n-w+1, "…")
	}
	return s
}

// fileSizeText is a size as a listing shows it: 512 B, 4.1 kB, 12 MB.
func fileSizeText(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, unit := range []string{"kB", "MB", "GB", "TB"} {
		f /= 1000
		if f < 999.5 || unit == "TB" {
			if f < 9.95 {
				return fmt.Sprintf("%.1f %s", f, unit)
			}
			return fmt.Sprintf("%.0f %s", f, unit)
		}
	}
	return ""
}

// importFile imports the file at path into Dhara's store in the background
// (the footer says so meanwhile) and lists, selects and opens what it
// wrote; home is the UI's, for the store's Env and the status's paths.
func importFile(path, home string) tea.Cmd {
	name := sanitize.Inline(filepath.Base(path))
	start := startWrite("importing "+name, func(store.WriteOption) actionDoneMsg {
		results, err := convert.ImportFile(path, convert.Options{Env: appEnv(home)})
		msg := actionDoneMsg{status: importStatus(name, results, err, home)}
		for _, r := range results {
			if in := listRecord(r.Path); in != nil {
				msg.imported = append(msg.imported, *in)
			}
		}
		return msg
	})
	return func() tea.Msg {
		msg := start()
		if ws, ok := msg.(writeStartedMsg); ok {
			ws.w.importing = true
		}
		return msg
	}
}

// importStatus is the status line after an import of the file name: what
// it wrote or found, or why it failed.
func importStatus(name string, results []convert.Result, err error, home string) string {
	short := func(p string) string { return shortPath(p, home) }
	var s string
	switch {
	case len(results) == 0:
		if err == nil {
			return "nothing imported from " + name
		}
		return "import failed: " + name + ": " + importError(err)
	case len(results) == 1:
		r := results[0]
		switch {
		case r.Already:
			s = "already imported: " + short(r.Path)
		case r.Earlier != "":
			s = "the file changed since it was imported into " + short(r.Earlier) + ": imported anew"
		default:
			s = "imported " + name + " as " + r.Format + " into " + short(r.Path)
		}
	default:
		already := 0
		for _, r := range results {
			if r.Already {
				already++
			}
		}
		switch {
		case already == len(results):
			s = "already imported: " + transcript.Count(len(results), "conversation", "conversations")
		case already > 0:
			s = fmt.Sprintf("imported %s (%d already imported)", transcript.Count(len(results)-already, "conversation", "conversations"), already)
		default:
			s = "imported " + transcript.Count(len(results), "conversation", "conversations")
		}
	}
	if err != nil {
		s += " · then failed: " + importError(err)
	}
	return s
}

// importError is an import's error for the UI.
func importError(err error) string { return err.Error() }
