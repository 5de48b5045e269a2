package tui

import (
	"os"
	"skein/internal/redact"
	"time"

	tea "charm.land/bubbletea/v2"

	"skein/model"
	"skein/store"
	"skein/tui/transcript"
)

// scanMsg carries a batch of listed sessions while the store is scanned.
type scanMsg struct {
	infos       []store.Info
	provisional bool            // the index's records, shown while the files are checked
	left        []store.Problem // files and folders left out, and why
	done, total int
	finished    bool
	next        <-chan scanMsg
}

// scanStore discovers and lists the sessions under roots in the background,
// streaming batches so that the list fills while it is read.
func scanStore(roots []string) tea.Cmd {
	ch := make(chan scanMsg, 16)
	go func() {
		// The index's records first, at once: the first screen of a large
		// store; the scan then checks every file and replaces them.
		if cached := store.Cached(roots); len(cached) > 0 {
			ch <- scanMsg{infos: cached, provisional: true}
		}
		files, err := store.Discover(roots)
		unreadable := store.Problems(err, true)
		if len(files) == 0 {
			ch <- scanMsg{left: unreadable, finished: true}
			close(ch)
			return
		}
		store.Scan(files, 80*time.Millisecond, func(batch []store.Info, left []store.Problem, done, total int) {
			ch <- scanMsg{infos: batch, left: append(unreadable, left...), done: done, total: total, finished: done == total}
			unreadable = nil
		})
		close(ch)
	}()
	return waitScan(ch)
}

func waitScan(ch <-chan scanMsg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		msg.next = ch
		return msg
	}
}

// sessionLoadedMsg is a session read in full, with its totals.
type sessionLoadedMsg struct {
	path  string
	s     *model.Session
	stats model.Stats
	view  *model.TreeView // the tree laid out, in the load's goroutine
	err   error
	live  bool // read again because the file changed: keep the reader's place
	own   bool // changed by skein's own write: nothing new to point out
}

// ownWrite marks a reading again as after skein's own write.
func ownWrite(load tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		msg := load()
		if m, ok := msg.(sessionLoadedMsg); ok {
			m.own = true
			return m
		}
		return msg
	}
}

// followSession reads the open session again after its file changed, its
// tree laid out with the filter and folds the pane has (the folds are of
// entries, which an append leaves where they are).
func followSession(path string, filter model.TreeFilter, folded map[int]bool) tea.Cmd {
	return func() tea.Msg {
		s, err := store.Open(path)
		if err != nil {
			return sessionLoadedMsg{path: path, err: err, live: true}
		}
		stats, v := statsAndTree(s, filter, folded)
		return sessionLoadedMsg{path: path, s: s, stats: stats, view: v, live: true}
	}
}

// statsAndTree adds up a session and lays its tree out, at once on two
// cores: each reads every message.
func statsAndTree(s *model.Session, filter model.TreeFilter, folded map[int]bool) (model.Stats, *model.TreeView) {
	var stats model.Stats
	done := make(chan struct{})
	go func() {
		defer close(done)
		stats = s.Stats()
	}()
	v := s.NewTreeView(s.Leaf(), filter)
	if len(folded) > 0 {
		v = v.With(filter, folded)
	}
	<-done
	return stats, v
}

// tailSize is how much of a large session is read for its first screen.
const tailSize = 512 << 10

// tailLoadedMsg is the end of a large session, read first so that its last
// screen shows at once while the whole file loads.
type tailLoadedMsg struct {
	path string
	s    *model.Session
}

// loadSession reads and indexes a session off the UI goroutine; a large one
// also has its tail read first.
func loadSession(path string) tea.Cmd {
	full := func() tea.Msg {
		s, err := store.Open(path)
		if err != nil {
			return sessionLoadedMsg{path: path, err: err}
		}
		stats, view := statsAndTree(s, model.FilterDefault, nil)
		return sessionLoadedMsg{path: path, s: s, stats: stats, view: view}
	}
	tail := func() tea.Msg {
		s, err := store.OpenTail(path, tailSize)
		if err != nil {
			return nil
		}
		return tailLoadedMsg{path: path, s: s}
	}
	// The size is asked here, in the command, not in Update.
	return func() tea.Msg {
		if fileSize(path) < 4*tailSize {
			return full()
		}
		return tea.BatchMsg{tail, full}
	}
}

func fileSize(path string) int64 {
	if st, err := os.Stat(path); err == nil {
		return st.Size()
	}
	return 0
}

// previewMsg is what the list's preview pane shows of a session.
type previewMsg struct {
	path  string
	stats model.Stats
	lines []previewLine
	// secrets says the secrets the session holds ("3: 2 openai-key, 1
	// jwt"), "" for none: what an export would redact.
	secrets string
	err     error
}

type previewLine struct {
	role, text string
}

// loadPreview reads a session for the preview pane: totals and the first
// exchanges of its active branch.
func loadPreview(path string) tea.Cmd {
	return func() tea.Msg {
		s, err := store.Open(path)
		if err != nil {
			return previewMsg{path: path, err: err}
		}
		msg := previewMsg{path: path, stats: s.Stats()}
		counts := map[redact.Kind]int{}
		for _, sec := range s.Secrets() {
			counts[sec.Kind]++
		}
		if n, list := redact.Tally(func(k redact.Kind) int { return counts[k] }); n > 0 {
			msg.secrets = transcript.Count(n, "secret", "secrets") + ": " + list
		}
		ctx := s.BuildHistory(s.Leaf())
		for _, m := range ctx.Messages {
			e := s.Entry(m.Entry)
			if m.Kind != model.KindMessage || (e.Role != model.RoleUser && e.Role != model.RoleAssistant) {
				continue
			}
			mm := s.Message(m)
			if mm.Injected {
				continue // the agent's own context, not the conversation
			}
			text := transcript.Plain(mm.Text("\n"))
			if text == "" {
				continue
			}
			msg.lines = append(msg.lines, previewLine{e.Role, text})
			if len(msg.lines) == 6 {
				break
			}
		}
		return msg
	}
}

// previewDueMsg fires when the selection has rested long enough to preview.
type previewDueMsg struct{ path string }

func previewAfter(path string, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return previewDueMsg{path} })
}

// statusClearMsg clears the status line if it still shows message id.
type statusClearMsg struct{ id int }
