package tui

import "skein/theme"

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
}
