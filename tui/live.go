package tui

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"skein/store"
)

// Live: the list and the open session follow files as agents append to
// them. A watcher goroutine gets the file system's notifications
// (fsnotify) for the store's folders; a folder it cannot watch is polled.
// It sends the paths that changed, at most every settle, so that an agent
// writing a line a millisecond costs a re-read a moment, not one a line.

// settle is how long changes are gathered before they are told.
const settle = 300 * time.Millisecond

// pollEvery is how often a folder the watcher could not watch is looked at.
const pollEvery = 2 * time.Second

// changesMsg is session files that changed, were made or were removed.
type changesMsg struct {
	paths []string
	next  <-chan []string
}

// watch starts following the folders of roots (the roots and the folders
// in them, where pi keeps a folder per project) and returns the first
// batch of changes when one comes.
func watch(roots []string) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan []string, 1)
		go follow(roots, ch)
		return waitChanges(ch)()
	}
}

func waitChanges(ch <-chan []string) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		paths, ok := <-ch
		if !ok {
			return nil
		}
		return changesMsg{paths, ch}
	}
}

// follow runs the watcher: it never returns while the program runs.
func follow(roots []string, out chan<- []string) {
	dirs := watchedDirs(roots)
	w, err := fsnotify.NewWatcher()
	var polled []string
	if err != nil {
		polled = dirs
	} else {
		for _, d := range dirs {
			if w.Add(d) != nil {
				polled = append(polled, d)
			}
		}
	}
	var events <-chan fsnotify.Event
	if w != nil {
		events = w.Events
	}
	seen := map[string]fileStamp{}
	for _, d := range polled {
		stampDir(d, seen, nil)
	}
	pending := map[string]bool{}
	var flush <-chan time.Time
	poll := time.NewTicker(pollEvery)
	defer poll.Stop()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if ev.Op&fsnotify.Create != 0 && isDir(ev.Name) && w != nil && !strings.HasPrefix(filepath.Base(ev.Name), ".") {
				// A new folder (a project's, a day's): follow it too, and the
				// folders made in it before it was followed, and what is in
				// them.
				for _, d := range subDirs(ev.Name, watchDepth-1) {
					if w.Add(d) != nil {
						polled = append(polled, d)
					}
					for _, f := range store.SessionFiles(d) {
						if p, ok := store.SessionOf(f); ok {
							pending[p] = true
						}
					}
				}
			}
			if p, ok := store.SessionOf(ev.Name); ok {
				pending[p] = true
			} else if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && filepath.Ext(ev.Name) == "" {
				pending[ev.Name] = true // perhaps a Dhara session folder, gone
			}
		case <-poll.C:
			for _, d := range polled {
				stampDir(d, seen, pending)
			}
		case <-flush:
			paths := make([]string, 0, len(pending))
			for p := range pending {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			clear(pending)
			flush = nil
			out <- paths
			continue
		}
		if len(pending) > 0 && flush == nil {
			flush = time.After(settle)
		}
	}
}

// watchedDirs are the roots that are folders and the folders in them; a
// root that is a file is followed through its folder.
func watchedDirs(roots []string) []string {
	var dirs []string
	for _, r := range roots {
		if !isDir(r) {
			r = filepath.Dir(r)
		}
		dirs = append(dirs, subDirs(r, watchDepth)...)
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// watchDepth is how deep under a root folders are followed: pi's and
// Claude Code's folder per project (and a session's sub-agents under it),
// Codex's sessions/YYYY/MM/DD.
const watchDepth = 3

// subDirs is dir and the folders under it, depth levels down.
func subDirs(dir string, depth int) []string {
	out := []string{dir}
	if depth == 0 {
		return out
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, subDirs(filepath.Join(dir, e.Name()), depth-1)...)
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// fileStamp is what polling compares.
type fileStamp struct {
	size  int64
	mtime time.Time
}

// stampDir notes the session files of dir, and marks in changed (when not
// nil) those that are new, changed or gone since seen last noted them.
func stampDir(dir string, seen map[string]fileStamp, changed map[string]bool) {
	now := map[string]bool{}
	mark := func(p string) {
		if s, ok := store.SessionOf(p); ok && changed != nil {
			changed[s] = true
		}
	}
	for _, p := range store.SessionFiles(dir) {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		now[p] = true
		s := fileStamp{st.Size(), st.ModTime()}
		if old, ok := seen[p]; !ok || old != s {
			mark(p)
		}
		seen[p] = s
	}
	for p := range seen {
		if filepath.Dir(p) == dir && !now[p] {
			delete(seen, p)
			mark(p)
		}
	}
}

// relistedMsg is a changed file's list record read again: nil when it is
// not a session (yet); gone when the file is.
type relistedMsg struct {
	path string
	info *store.Info
	gone bool
	err  error // why it is not listed, when it is there but not
}

// relist reads the list records of changed files, one message each.
func relist(paths []string) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(paths))
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), ".") {
			// A writer's temporary folder (an import's .import-ID-PID-RAND, renamed
			// into place once whole). Read while it was being written, it
			// was listed, and stayed listed beside the session when that
			// read came back after the one that found it gone.
			continue
		}
		cmds = append(cmds, func() tea.Msg {
			_, err := os.Lstat(p)
			in, why := listRecordWhy(p)
			return relistedMsg{p, in, os.IsNotExist(err), why}
		})
	}
	return tea.Batch(cmds...)
}

// changed takes a batch of changed files: the list's records are read
// again, and the open session when it is one of them.
func (m *Model) changed(msg changesMsg) tea.Cmd {
	cmds := []tea.Cmd{waitChanges(msg.next), relist(msg.paths)}
	if ss := m.session; ss != nil && ss.s != nil && !ss.loading && slices.Contains(msg.paths, ss.info.Path) {
		cmds = append(cmds, followSession(ss.info.Path, ss.tree.filter, maps.Clone(ss.tree.folded)))
	}
	return tea.Batch(cmds...)
}

// relisted brings the list up to date with a changed file.
func (m *Model) relisted(msg relistedMsg) tea.Cmd {
	switch {
	case msg.info != nil && m.list.has(msg.path):
		m.list.replace(*msg.info)
	case msg.info != nil:
		m.list.addInfo(*msg.info)
	case msg.gone && m.list.has(msg.path):
		m.list.remove(msg.path)
	}
	m.list.leftOut(msg.path, msg.err)
	if msg.info != nil && m.session != nil && m.session.info.Path == msg.path {
		m.session.info = *msg.info
	}
	return m.list.previewCmd()
}
