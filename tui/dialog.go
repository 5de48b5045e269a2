package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/theme"
	"skein/tui/transcript"
)

// Dialog is a modal box. The open ones are a stack over the screen; the
// top one takes every key while it is open.
type Dialog interface {
	// Update handles a key with the key map's bindings; done says the
	// dialog closes.
	Update(msg tea.KeyPressMsg, k KeyMap) (cmd tea.Cmd, done bool)
	// View draws the dialog centred over a screen of w x h.
	View(st theme.Styles, w, h int) string
	// frame is what every dialog has: title, text, hint, extra keys.
	frame() *dialogFrame
}

// dialogFrame is the part every dialog shares.
type dialogFrame struct {
	title string
	body  string // plain text, sanitized when drawn
	hint  string
	// ok runs on accepting, with the input or editor's text.
	ok func(value string) tea.Cmd
	// cancel runs on escape (nil: just close).
	cancel func() tea.Cmd
	// keys are extra actions (y to copy in an info box, - and + to plan
	// again), each on a binding of the key map.
	keys []dialogKey
	// busy dialogs show progress and only take esc; other keys get a note.
	busy bool
	// waits says the dialog that takes this one's place comes in a moment
	// (a plan being made): the keys but esc wait for it, in queued.
	waits  bool
	queued []tea.KeyPressMsg
	// over is a dialog to open over this one, asked for by its Update: the
	// root opens it at once, so that it takes the next key.
	over Dialog
}

// maxQueued is the most keys a busy dialog keeps for the next.
const maxQueued = 32

func (f *dialogFrame) frame() *dialogFrame { return f }

// dialogKey is an extra action of a dialog.
type dialogKey struct {
	binding key.Binding
	run     func() tea.Cmd
	closes  bool // the dialog closes when the key runs
}

// common handles what every dialog does with a key: esc cancels, a busy
// dialog says why it ignores the rest, an extra key runs (unless the
// dialog takes text). handled says the key was taken.
func (f *dialogFrame) common(msg tea.KeyPressMsg, k KeyMap, takesText bool) (cmd tea.Cmd, done, handled bool) {
	if key.Matches(msg, k.Cancel) {
		if f.cancel != nil {
			return f.cancel(), true, true
		}
		return nil, true, true
	}
	if f.waits && len(f.queued) < maxQueued {
		f.queued = append(f.queued, msg)
		return nil, false, true
	}
	if f.busy {
		// Answered, not dropped: the person learns why nothing happens.
		return status(transcript.OneLine(f.title) + " · " + f.hint), false, true
	}
	if !takesText {
		for _, x := range f.keys {
			if key.Matches(msg, x.binding) {
				return x.run(), x.closes, true
			}
		}
	}
	return nil, false, false
}

// render draws the frame with extra (an input, an editor) under its text.
func (f *dialogFrame) render(st theme.Styles, w, h, bw int, extra func(inner, used int) string) string {
	inner := max(10, bw-4)
	var body []string
	for _, line := range strings.Split(transcript.Sanitize(f.body), "\n") {
		if line == "" {
			body = append(body, "")
			continue
		}
		body = append(body, wrapLines(line, inner, 1000)...)
	}
	ex := ""
	if extra != nil {
		ex = extra(inner, len(body)+2)
	}
	// A box taller than the screen keeps its title, its input and its keys:
	// the text is cut, and says so.
	fixed := 2 + 2 + 2 // the border, the title and its gap, the keys and theirs
	if ex != "" {
		fixed += strings.Count(ex, "\n") + 2
	}
	if room := h - fixed; len(body) > room {
		room = max(1, room)
		body = append(body[:room-1:room-1], st.Dim.Render("… (more in a larger terminal)"))
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(transcript.OneLine(f.title)) + "\n\n")
	for _, l := range body {
		b.WriteString(l + "\n")
	}
	if ex != "" {
		b.WriteString("\n" + ex + "\n")
	}
	b.WriteString("\n" + st.Muted.Render(f.hint))
	// The box alone: the root draws it over the screen it belongs to
	// (overlay), which stays in sight around it.
	return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(st.Palette.Accent).Padding(0, 1).Width(bw).Render(b.String())
}

// overlay draws box centred over under, a screen w wide and h high: the
// screen stays in sight around the box. A box as large as the screen (a
// picker, the stats) takes its place.
func overlay(under, box string, w, h int) string {
	bl := strings.Split(box, "\n")
	bw := 0
	for _, l := range bl {
		bw = max(bw, ansi.StringWidth(l))
	}
	if len(bl) >= h {
		return box // a view of the whole screen (a picker, the stats)
	}
	ul := strings.Split(strings.TrimSuffix(under, "\n"), "\n")
	for len(ul) < h {
		ul = append(ul, "")
	}
	ul = ul[:h]
	x, y := max(0, (w-bw)/2), max(0, (h-len(bl))/2)
	for i, b := range bl {
		if y+i >= h {
			break
		}
		l := ul[y+i]
		if n := ansi.StringWidth(l); n < w {
			l += strings.Repeat(" ", w-n)
		}
		b += strings.Repeat(" ", max(0, bw-ansi.StringWidth(b)))
		// Each side ends its styles, so that none runs into the box.
		ul[y+i] = ansi.Cut(l, 0, x) + "\x1b[m" + b + "\x1b[m" + ansi.Cut(l, x+bw, w)
	}
	return strings.Join(ul, "\n")
}

// confirmBox asks yes or no: enter/y accepts, esc/n cancels.
type confirmBox struct{ dialogFrame }

func confirmDialog(title, body string, ok func(string) tea.Cmd) *confirmBox {
	return &confirmBox{dialogFrame{title: title, body: body, hint: "enter/y: yes · esc/n: no", ok: ok}}
}

func (d *confirmBox) Update(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	if cmd, done, ok := d.common(msg, k, false); ok {
		return cmd, done
	}
	switch {
	case key.Matches(msg, k.Yes):
		return d.ok(""), true
	case key.Matches(msg, k.No):
		return nil, true
	}
	return nil, false
}

func (d *confirmBox) View(st theme.Styles, w, h int) string {
	return d.render(st, w, h, min(w-4, 100), nil)
}

// inputBox takes one line of text; enter accepts it.
type inputBox struct {
	dialogFrame
	input textinput.Model
}

func inputDialog(title, body, value string, ok func(string) tea.Cmd) *inputBox {
	in := textinput.New()
	in.Prompt = "> "
	in.SetValue(value)
	in.CursorEnd()
	in.Focus()
	return &inputBox{dialogFrame{title: title, body: body, hint: "enter: save · esc: cancel", ok: ok}, in}
}

func (d *inputBox) Update(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	if cmd, done, ok := d.common(msg, k, true); ok {
		return cmd, done
	}
	if key.Matches(msg, k.Open) {
		return d.ok(d.input.Value()), true
	}
	var c tea.Cmd
	d.input, c = d.input.Update(msg)
	return c, false
}

func (d *inputBox) View(st theme.Styles, w, h int) string {
	return d.render(st, w, h, min(w-4, 100), func(inner, _ int) string {
		d.input.SetWidth(inner - 3)
		return d.input.View()
	})
}

// editorBox is text to review and edit; ctrl+s accepts it.
type editorBox struct {
	dialogFrame
	editor   textarea.Model
	original string // esc asks first when the text is no longer this
}

func editorDialog(title, body, value string, ok func(string) tea.Cmd) *editorBox {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.SetValue(value)
	ta.Focus()
	return &editorBox{dialogFrame{title: title, body: body, hint: "ctrl+s: write it · esc: cancel", ok: ok}, ta, value}
}

// closeDialogMsg closes a dialog that is not on top (the editor under the
// question whether to throw its edits away).
type closeDialogMsg struct{ d Dialog }

func (d *editorBox) Update(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	if key.Matches(msg, k.Cancel) && d.editor.Value() != d.original {
		ask := confirmDialog("Throw away your edits?", "The summary was edited. Closing the editor loses the edits, and nothing is written.", func(string) tea.Cmd {
			return func() tea.Msg { return closeDialogMsg{d} }
		})
		d.over = ask
		return nil, false
	}
	if cmd, done, ok := d.common(msg, k, true); ok {
		return cmd, done
	}
	if key.Matches(msg, k.Save) {
		return d.ok(d.editor.Value()), true
	}
	var c tea.Cmd
	d.editor, c = d.editor.Update(msg)
	return c, false
}

func (d *editorBox) View(st theme.Styles, w, h int) string {
	return d.render(st, w, h, w-4, func(inner, used int) string {
		d.editor.SetWidth(inner)
		d.editor.SetHeight(max(5, h-used-10))
		return d.editor.View()
	})
}

// infoBox is a note; enter, q or esc closes it.
type infoBox struct{ dialogFrame }

func infoDialog(title, body string) *infoBox {
	return &infoBox{dialogFrame{title: title, body: body, hint: "esc: close"}}
}

func (d *infoBox) Update(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	if cmd, done, ok := d.common(msg, k, false); ok {
		return cmd, done
	}
	if key.Matches(msg, k.Open) || msg.String() == "q" {
		return nil, true
	}
	return nil, false
}

func (d *infoBox) View(st theme.Styles, w, h int) string {
	return d.render(st, w, h, min(w-4, 100), nil)
}
