package tui

import (
	tea "charm.land/bubbletea/v2"

	"skein/theme"
)

// shared is what every component of the UI works with, embedded in each
// (as soft-serve's common): the key map, the styles of the terminal's
// theme, whether to colour, and the home folder that paths are shortened
// against. There is one, the Model's: a change of theme reaches every
// component at once.
type shared struct {
	keys   KeyMap
	styles theme.Styles
	color  bool
	home   string
	// textIndex is the full-text index the list's search goes through.
	textIndex *textIndex
	// posted are messages for the root to take before the next message
	// (post).
	posted []tea.Msg
}

// post gives msg to the root as soon as the current message is handled,
// before the next key: a dialog a key opens, or a session Enter opens, is
// there for the key typed right after it. A command's message would come
// after keys already typed (f then y at once: the y would reach the
// session screen, and the fork dialog would wait).
func (sh *shared) post(msg tea.Msg) { sh.posted = append(sh.posted, msg) }
