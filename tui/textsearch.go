package tui

import (
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"skein/search"
	"skein/store"
	"skein/tui/transcript"
)

// The list's / box searches the sessions' text too, as pi's /resume does:
// below the sessions whose name, first message, folder or id match come
// the sessions whose messages match, each with its best snippet. The
// search runs in the background a moment after the last key, through the
// full-text index (brought up to date first: the first time on a large
// store, with its progress on the filter line); a result for a filter
// that has changed since is dropped.

// textDelay is how long after a key the text search starts.
const textDelay = 150 * time.Millisecond

// textLimit is how many sessions the text search lists.
const textLimit = 200

// textSearch is the list's text search and its last results.
type textSearch struct {
	gen         int
	query       string       // the filter the hits are for
	hits        []search.Hit // each session's best match, best first
	busy        bool
	done, total int // indexing progress
	err         string
}

// textIndex is the full-text index, opened by the first search.
type textIndex struct {
	dir  string // "" for none: every file read
	once sync.Once
	x    *search.Index
	mu   sync.Mutex // one search at a time: a newer one waits for the last
}

func (t *textIndex) index() *search.Index {
	t.once.Do(func() {
		if t.dir != "" {
			t.x = search.OpenIndex(t.dir)
		}
	})
	return t.x
}

// textTickMsg starts the text search of a filter, if it is still the one.
type textTickMsg struct {
	gen    int
	filter string
}

// textEventMsg is the text search's progress, or its end (final).
type textEventMsg struct {
	gen         int
	done, total int
	final       bool
	query       string
	hits        []search.Hit
	next        <-chan textEventMsg
}

// textChanged schedules the text search of the filter as it is now.
func (l *listScreen) textChanged() tea.Cmd {
	l.text.gen++
	gen, filter := l.text.gen, strings.TrimSpace(l.filter)
	if _, rest := splitAgent(filter); strings.TrimSpace(rest) == "" {
		// Nothing to look for in the messages: agent:NAME alone narrows
		// the list only.
		filter = ""
	}
	if filter == "" {
		l.text.hits, l.text.query, l.text.busy, l.text.err = nil, "", false, ""
		return nil
	}
	return tea.Tick(textDelay, func(time.Time) tea.Msg { return textTickMsg{gen, filter} })
}

// textTick runs the search when the filter has not changed meanwhile.
func (l *listScreen) textTick(msg textTickMsg) tea.Cmd {
	if msg.gen != l.text.gen {
		return nil
	}
	q, err := search.Parse(msg.filter)
	if err != nil {
		l.text.hits, l.text.query, l.text.err = nil, msg.filter, err.Error()
		l.refilter()
		return nil
	}
	l.text.busy, l.text.err = true, ""
	files := make([]string, len(l.infos))
	for i, in := range l.infos {
		files[i] = in.Path
	}
	ti, gen := l.textIndex, msg.gen
	ch := make(chan textEventMsg, 1)
	go func() {
		ti.mu.Lock()
		defer ti.mu.Unlock()
		last := time.Time{}
		progress := func(done, total int) {
			if now := time.Now(); now.Sub(last) > 100*time.Millisecond {
				last = now
				select {
				case ch <- textEventMsg{gen: gen, done: done, total: total}:
				default: // the UI has not taken the last one yet
				}
			}
		}
		hits := search.Files(ti.index(), q, files, textLimit, true, progress)
		for {
			// The end must arrive: take back a progress the UI did not read.
			select {
			case ch <- textEventMsg{gen: gen, final: true, query: msg.filter, hits: hits}:
				close(ch)
				return
			case <-ch:
			}
		}
	}()
	return waitText(ch)
}

func waitText(ch <-chan textEventMsg) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		ev.next = ch
		return ev
	}
}

// textEvent takes the search's progress or its hits.
func (l *listScreen) textEvent(msg textEventMsg) tea.Cmd {
	if msg.gen != l.text.gen {
		if !msg.final {
			return waitText(msg.next) // drained, so that the search can end
		}
		return nil
	}
	if !msg.final {
		l.text.done, l.text.total = msg.done, msg.total
		return waitText(msg.next)
	}
	sel := l.selectedPath()
	l.text.busy, l.text.done, l.text.total = false, 0, 0
	l.text.hits, l.text.query = msg.hits, msg.query
	l.refilter()
	l.selectPath(sel)
	return l.previewCmd()
}

// textLine is the text search's state for the filter line.
func (l *listScreen) textLine() string {
	t := &l.text
	switch {
	case t.err != "" && t.query == strings.TrimSpace(l.filter):
		return "· " + t.err
	case t.busy && t.total > 0:
		return "· indexing " + itoa(t.done) + "/" + itoa(t.total) + " sessions…"
	case t.busy:
		return "· searching the messages…"
	case t.query != "" && t.query == strings.TrimSpace(l.filter):
		n := 0
		for _, r := range l.rows {
			if r.hit != nil {
				n++
			}
		}
		return "· " + itoa(n) + " more by their messages"
	}
	return ""
}

// textNote is the filter line's dim end: what comes before it, and the
// text search's state.
func (l *listScreen) textNote(before string) string {
	if t := l.textLine(); t != "" {
		before += "  " + transcript.OneLine(t)
	}
	if before == "" {
		return ""
	}
	return l.styles.Dim.Render(before)
}

// matchTerms are the texts a hit's snippet matched, folded, to highlight
// in the session it opens.
func matchTerms(h *search.Hit) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range h.Matches {
		if m[0] < 0 || m[1] > len(h.Snippet) || m[0] >= m[1] {
			continue
		}
		t := search.Fold(h.Snippet[m[0]:m[1]])
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// hitCell is a text match's title cell, w wide: where there is room the
// session's title, then the snippet, from far enough before its first
// match that the match shows with some of what leads to it.
func hitCell(h *search.Hit, in *store.Info, w int) string {
	cell := "⌕ "
	if w >= 40 {
		cell += truncate(transcript.OneLine(title(in)), w/4) + "  "
	}
	snip := h.Snippet
	room := w - utf8.RuneCountInString(cell)
	if len(h.Matches) > 0 && utf8.RuneCountInString(snip) > room {
		lead := max(10, room/3)
		from := h.Matches[0][0]
		for n := 0; from > 0 && n < lead; n++ {
			_, size := utf8.DecodeLastRuneInString(snip[:from])
			from -= size
		}
		if from > 0 {
			snip = "…" + snip[from:]
		}
	}
	return cell + transcript.OneLine(snip)
}
