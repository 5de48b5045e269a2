package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"skein/theme"
	"skein/tui/transcript"
)

type dialogKind int

const (
	dialogConfirm dialogKind = iota // enter/y accepts, esc/n cancels
	dialogInput                     // one line of text
	dialogEditor                    // text to review and edit; ctrl+s accepts
	dialogInfo                      // a note; esc closes
)

// dialog is a modal box: while open it takes every key.
type dialog struct {
	kind   dialogKind
	title  string
	body   string // plain text, sanitized when drawn
	hint   string
	input  textinput.Model
	editor textarea.Model
	// ok runs on accepting, with the input or editor's text.
	ok func(value string) tea.Cmd
	// cancel runs on escape (nil: just close).
	cancel func() tea.Cmd
	// keys are extra actions (y to copy in an info box, - and + to plan
	// again), each on a binding of the key map.
	keys []dialogKey
	// busy dialogs show progress and only take esc; other keys get a note.
	busy bool
}

// dialogKey is an extra action of a dialog.
type dialogKey struct {
	binding key.Binding
	run     func() tea.Cmd
}

func confirmDialog(title, body string, ok func(string) tea.Cmd) *dialog {
	return &dialog{kind: dialogConfirm, title: title, body: body, hint: "enter/y: yes · esc/n: no", ok: ok}
}

func inputDialog(title, body, value string, ok func(string) tea.Cmd) *dialog {
	in := textinput.New()
	in.Prompt = "> "
	in.SetValue(value)
	in.CursorEnd()
	in.Focus()
	return &dialog{kind: dialogInput, title: title, body: body, hint: "enter: save · esc: cancel", input: in, ok: ok}
}

func editorDialog(title, body, value string, ok func(string) tea.Cmd) *dialog {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.SetValue(value)
	ta.Focus()
	return &dialog{kind: dialogEditor, title: title, body: body, hint: "ctrl+s: write it · esc: cancel", editor: ta, ok: ok}
}

func infoDialog(title, body string) *dialog {
	return &dialog{kind: dialogInfo, title: title, body: body, hint: "esc: close"}
}

// update handles a key with the key map's dialog bindings; done says the
// dialog closes.
func (d *dialog) update(msg tea.KeyPressMsg, k KeyMap) (cmd tea.Cmd, done bool) {
	if key.Matches(msg, k.Cancel) {
		if d.cancel != nil {
			return d.cancel(), true
		}
		return nil, true
	}
	if d.busy {
		// Answered, not dropped: the person learns why nothing happens.
		return status(transcript.OneLine(d.title) + " · " + d.hint), false
	}
	if d.kind != dialogInput && d.kind != dialogEditor {
		for _, x := range d.keys {
			if key.Matches(msg, x.binding) {
				return x.run(), false
			}
		}
	}
	switch d.kind {
	case dialogConfirm:
		switch {
		case key.Matches(msg, k.Yes):
			return d.ok(""), true
		case key.Matches(msg, k.No):
			return nil, true
		}
	case dialogInput:
		if key.Matches(msg, k.Open) {
			return d.ok(d.input.Value()), true
		}
		var c tea.Cmd
		d.input, c = d.input.Update(msg)
		return c, false
	case dialogEditor:
		if key.Matches(msg, k.Save) {
			return d.ok(d.editor.Value()), true
		}
		var c tea.Cmd
		d.editor, c = d.editor.Update(msg)
		return c, false
	case dialogInfo:
		if key.Matches(msg, k.Open) || msg.String() == "q" {
			return nil, true
		}
	}
	return nil, false
}

// view draws the dialog centred over a screen of w x h.
func (d *dialog) view(st theme.Styles, w, h int) string {
	bw := min(w-4, 100)
	if d.kind == dialogEditor {
		bw = w - 4
	}
	inner := max(10, bw-4)
	var b strings.Builder
	b.WriteString(st.Title.Render(transcript.OneLine(d.title)) + "\n\n")
	for _, line := range strings.Split(transcript.Sanitize(d.body), "\n") {
		if line == "" {
			b.WriteString("\n")
			continue
		}
		for _, wl := range wrapLines(line, inner, 1000) {
			b.WriteString(wl + "\n")
		}
	}
	switch d.kind {
	case dialogInput:
		d.input.SetWidth(inner - 3)
		b.WriteString("\n" + d.input.View() + "\n")
	case dialogEditor:
		d.editor.SetWidth(inner)
		d.editor.SetHeight(max(5, h-strings.Count(b.String(), "\n")-10))
		b.WriteString("\n" + d.editor.View() + "\n")
	}
	b.WriteString("\n" + st.Muted.Render(d.hint))
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(st.Palette.Accent).Padding(0, 1).Width(bw).Render(b.String())
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}
