package tui

import (
	"charm.land/bubbles/v2/key"

	"skein/store"
)

// KeyMap holds every binding; screens pick the ones they show.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Open, Back, Quit, ForceQuit, Help       key.Binding
	Filter, ClearFilter, Sort, Project      key.Binding
	Agent                                   key.Binding
	CopyPath, CopyMessage                   key.Binding
	FocusNext                               key.Binding
	Fold, Unfold, PrevBranch, NextBranch    key.Binding
	TreeFilter                              key.Binding
	NextMessage, PrevMessage                key.Binding
	Thinking, Expand, History               key.Binding
	Fork, Compact, Replay, Label, Rename    key.Binding
	Export                                  key.Binding
	ExportHTML, ExportMarkdown, ExportJSON  key.Binding
	ExportKeepSecrets                       key.Binding
	Delete, Resume, Search, Problems        key.Binding
	Stats                                   key.Binding
	Import                                  key.Binding
	Mark, Compare                           key.Binding

	// The file picker's keys (with Up, Down, Top, Bottom, the pages, Open
	// and Back).
	PickInto, PickUp, PickHidden key.Binding

	// The replay's keys.
	PlayPause, StepNext, StepPrev, ReplayStart, ReplayEnd, Faster, Slower key.Binding

	// The dialogs' keys.
	Yes, No, Save, Cancel, CopyCommand, KeepFewer, KeepMore, ForkBefore, OpenNew key.Binding
}

// DefaultKeyMap is skein's keys: vim and arrows alike.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:         key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:      key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		PageUp:      key.NewBinding(key.WithKeys("pgup", "ctrl+b", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:        key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("q/esc", "back")),
		Quit:        key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Project:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "this project only")),
		Agent:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "one agent (each in turn)")),
		CopyPath:    key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy path")),
		CopyMessage: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy message")),
		FocusNext:   key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "switch pane")),
		Fold:        key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("←/h", "fold")),
		Unfold:      key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("→/l", "unfold")),
		PrevBranch:  key.NewBinding(key.WithKeys("["), key.WithHelp("[", "prev branch point")),
		NextBranch:  key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next branch point")),
		TreeFilter:  key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "tree filter")),
		NextMessage: key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/prev message")),
		PrevMessage: key.NewBinding(key.WithKeys("N")),
		Thinking:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "thinking")),
		Expand:      key.NewBinding(key.WithKeys("e", "space"), key.WithHelp("e", "expand tools, prompts, edits")),
		History:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "original history")),
		Fork:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "fork here")),
		Compact:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compact")),
		Replay:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "replay")),
		Label:       key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "label")),
		Rename:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "rename")),
		Export:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export (html, markdown, json)")),
		// The export dialog's keys, after x.
		ExportHTML:        key.NewBinding(key.WithKeys("h"), key.WithHelp("x h", "export html")),
		ExportMarkdown:    key.NewBinding(key.WithKeys("m"), key.WithHelp("x m", "export markdown")),
		ExportJSON:        key.NewBinding(key.WithKeys("j"), key.WithHelp("x j", "export json")),
		ExportKeepSecrets: key.NewBinding(key.WithKeys("k"), key.WithHelp("x k", "keep secrets")),
		Delete:            key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delete (to trash)")),
		Resume:            key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "resume in pi")),
		Problems:          key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "problems")),
		Search:            key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search (n/N: matches)")),
		Stats:             key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "stats")),
		Import:            key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "import a file")),
		Mark:              key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark to compare")),
		Compare:           key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "compare with the mark")),

		PickInto:   key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("→/l", "into the folder")),
		PickUp:     key.NewBinding(key.WithKeys("h", "left", "backspace"), key.WithHelp("←/h", "up a folder")),
		PickHidden: key.NewBinding(key.WithKeys("."), key.WithHelp(".", "hidden files")),

		PlayPause:   key.NewBinding(key.WithKeys("space", "p"), key.WithHelp("space/p", "play/pause")),
		StepNext:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next step")),
		StepPrev:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous step")),
		ReplayStart: key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "first step")),
		ReplayEnd:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "last step")),
		Faster:      key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:      key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),

		Yes:         key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter/y", "yes")),
		No:          key.NewBinding(key.WithKeys("n", "q"), key.WithHelp("n", "no")),
		Save:        key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "write the summary")),
		Cancel:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel, close")),
		CopyCommand: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the resume command")),
		KeepFewer:   key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "keep fewer tokens")),
		KeepMore:    key.NewBinding(key.WithKeys("+"), key.WithHelp("+", "keep more tokens")),
		ForkBefore:  key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "fork before this user message")),
		OpenNew:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the fork just made")),
	}
}

// listHelp is the list screen's keys: the short line, then the full help.
func (k KeyMap) listHelp() ([]key.Binding, [][]key.Binding) {
	return []key.Binding{k.Help, k.Open, k.Filter, k.Sort, k.Project, k.Agent, k.Quit},
		[][]key.Binding{
			{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown},
			{k.Open, k.Filter, k.ClearFilter, k.Sort, k.Project, k.Agent, k.Import},
			{k.Resume, k.Delete, k.CopyPath, k.Stats, k.Problems, k.Mark, k.Compare},
			{k.Help, k.Quit, k.ForceQuit},
		}
}

// replayHelp is the replay's keys.
func (k KeyMap) replayHelp() ([]key.Binding, [][]key.Binding) {
	back := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave the replay"))
	return []key.Binding{k.Help, k.PlayPause, k.StepNext, k.StepPrev, k.Faster, k.Slower, back},
		[][]key.Binding{
			{k.PlayPause, k.StepNext, k.StepPrev},
			{k.ReplayStart, k.ReplayEnd, k.Faster, k.Slower},
			{k.Help, back, k.ForceQuit},
		}
}

// sessionHelp is the session screen's keys.
func (k KeyMap) sessionHelp(treeFocused bool) ([]key.Binding, [][]key.Binding) {
	// ? first: a narrow footer cuts the end.
	short := []key.Binding{k.Help, k.FocusNext, k.NextMessage, k.Expand, k.Thinking, k.Back}
	if treeFocused {
		short = []key.Binding{k.Help, k.FocusNext, k.Fold, k.Unfold, k.TreeFilter, k.NextBranch, k.Back}
	}
	return short, [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown},
		{k.FocusNext, k.Fold, k.Unfold, k.PrevBranch, k.NextBranch, k.TreeFilter},
		{k.Search, k.NextMessage, k.Expand, k.Thinking, k.History, k.CopyMessage, k.CopyPath},
		{k.Resume, k.Fork, k.Compact, k.Replay, k.Label, k.Rename, k.Export},
		{k.ExportHTML, k.ExportMarkdown, k.ExportJSON, k.ExportKeepSecrets},
		{k.Stats, k.Problems, k.Mark, k.Compare, k.Help, k.Back, k.ForceQuit},
		// The replay's keys are in its own help, r then ?.
		{k.Yes, k.No, k.Save, k.Cancel, k.CopyCommand, k.ForkBefore, k.OpenNew, k.KeepFewer, k.KeepMore},
	}
}

// writeKey is a key that asks a session's format for an action.
type writeKey struct {
	b   key.Binding
	act store.Action
}

// writes are the keys that ask the format for an action (all write but
// resume), with the action each asks for.
func (k KeyMap) writes() []writeKey {
	return []writeKey{{k.Fork, store.ActFork}, {k.Compact, store.ActCompact}, {k.Label, store.ActLabel},
		{k.Rename, store.ActRename}, {k.Delete, store.ActDelete}, {k.Resume, store.ActResume}}
}

// unavailable marks, in help, the keys whose action the session's format
// (its backend b, from its list record: no IO here, in View) does not
// support.
func unavailable(k KeyMap, be store.Backend, keys []key.Binding) []key.Binding {
	out := make([]key.Binding, len(keys))
	agent := store.WordingOf(be).Agent
	for i, b := range keys {
		out[i] = b
		desc := b.Help().Desc
		if b.Help() == k.Resume.Help() && agent != "pi" {
			desc = "resume in " + agent
			out[i] = key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
		}
		for _, w := range k.writes() {
			if b.Help() == w.b.Help() && !store.Can(be, w.act) {
				out[i] = key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc+" (unavailable)"))
			}
		}
	}
	return out
}

func unavailableRows(k KeyMap, b store.Backend, rows [][]key.Binding) [][]key.Binding {
	out := make([][]key.Binding, len(rows))
	for i, r := range rows {
		out[i] = unavailable(k, b, r)
	}
	return out
}
