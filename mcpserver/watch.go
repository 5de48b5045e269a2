package mcpserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/fsnotify/fsnotify"

	"skein/store"
)

// A warm search must not walk every folder and check every file: on 1,500
// sessions that is most of the time a search takes. The server follows
// the folders it looks in instead, and finds the sessions again, and
// brings the index up to date, only after something in them changed. A
// folder it could not follow (the system's limit of watches) makes every
// call look again, as a server without the watcher would.

// watched keeps the sessions found and whether they may have changed.
type watched struct {
	dirty atomic.Bool // look again before the next answer
	files []string    // the sessions found when last looked (under Server.mu)
	w     *fsnotify.Watcher
	blind bool // some folder is not followed: always look again
}

// watch starts following the folders under roots.
func (s *Server) watch() {
	s.seen.dirty.Store(true)
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.seen.blind = true
		return
	}
	s.seen.w = w
	for _, r := range s.roots() {
		s.follow(r)
	}
	go func() {
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				s.seen.dirty.Store(true)
				if ev.Op&fsnotify.Create != 0 {
					if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
						s.follow(ev.Name)
					}
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				s.seen.dirty.Store(true) // events lost: look again
			}
		}
	}()
}

// follow adds a folder and the folders under it to the watcher (hidden
// ones left out, as discovery leaves them out).
func (s *Server) follow(root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if s.seen.w.Add(p) != nil {
			s.seen.blind = true
		}
		return nil
	})
}

// current is the sessions found, looked for again (and the index brought
// up to date with them, when there is one) if anything changed since the
// last call. The caller holds s.mu.
func (s *Server) current() []string {
	if !s.seen.blind && !s.seen.dirty.Load() && s.seen.files != nil {
		return s.seen.files
	}
	s.seen.dirty.Store(false) // before looking: a change meanwhile is seen next time
	found, _ := store.Discover(s.roots())
	files := make([]string, 0, len(found))
	for _, f := range found {
		if !store.IsPart(f) {
			files = append(files, f)
		}
	}
	if s.x != nil {
		if err := s.x.Update(files, nil); err != nil {
			s.seen.dirty.Store(true)
		} else {
			s.x.Save()
		}
	}
	s.seen.files = files
	return files
}
