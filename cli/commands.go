package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"skein/internal/utf8js"
	"skein/model"
	"skein/store"
	"skein/theme"
	"skein/tui/transcript"
)

// cli runs the non-interactive commands.
type cli struct {
	env            store.Env
	stdin          io.Reader
	stdout, stderr io.Writer
}

// isTerminal reports whether w is a terminal: a file that is one, or a
// writer that says so (a test's fake terminal).
func isTerminal(w io.Writer) bool {
	if t, ok := w.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// files discovers the session files under the paths named, or under the
// default store when none is named, with the folders that could not be
// read. A named path that does not exist is an error; a default store that
// does not exist is simply empty.
func (c *cli) files(paths []string) ([]string, []store.Problem, error) {
	if len(paths) == 0 {
		files, err := store.Discover(c.env.DefaultRoots())
		return files, store.Problems(err, true), nil
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil, fail(1, "%s: no such file or folder", p)
			}
			return nil, nil, fail(1, "%s: %s", p, problemText(err))
		}
	}
	files, err := store.Discover(paths)
	if os.Getenv("SKEIN_INDEX") != "off" {
		store.RememberRoots(c.env, paths)
	}
	return files, store.Problems(err, false), nil
}

// resolve finds the session a REF names: a path, or an id (or a unique
// prefix of one) under the default folders, else under the folders named
// to earlier commands (so that an id `session list DIR` printed works).
func (c *cli) resolve(ref string) (string, error) {
	return store.ResolveAnywhere(ref, c.env.DefaultRoots(), c.env)
}

// progress shows a scanning count on stderr when it is a terminal.
func (c *cli) progress() (func(done, total int), func()) { return c.progressOf("scanning") }

// progressOf is progress with its own verb ("indexing").
func (c *cli) progressOf(verb string) (func(done, total int), func()) {
	if !isTerminal(c.stderr) {
		return nil, func() {}
	}
	last := time.Time{}
	update := func(done, total int) {
		if now := time.Now(); now.Sub(last) > 50*time.Millisecond || done == total {
			last = now
			fmt.Fprintf(c.stderr, "\r%s %d/%d sessions", verb, done, total)
		}
	}
	return update, func() { fmt.Fprint(c.stderr, "\r\x1b[K") }
}

// pathArgs parses the arguments of a command over sessions found in PATH...
// (or the default stores) that takes --json, and finds the files and the
// folders that could not be read.
func (c *cli) pathArgs(argv []string) (*args, []string, []store.Problem, error) {
	a, err := parseArgs(argv, map[string]bool{"json": false})
	if err != nil {
		return nil, nil, nil, err
	}
	files, unreadable, err := c.files(a.pos)
	return a, files, unreadable, err
}

// open resolves REF and reads the session; mapped, for a command that only
// reads and exits (see store.OpenMapped).
func (c *cli) open(ref string, mapped bool) (*model.Session, string, error) {
	path, err := c.resolve(ref)
	if err != nil {
		return nil, "", err
	}
	// Room for the session's bytes on the heap: every format but pi's is
	// read there, and a pi file named outside pi's folders may turn out to
	// be another agent's.
	roomForSession(path)
	var s *model.Session
	if mapped {
		s, err = store.OpenMapped(path)
		if err == nil {
			if _, ok := store.Of(s.Info).(store.Mapper); ok {
				roomForMapped(path)
			}
		}
	} else {
		s, err = store.Open(path)
	}
	if err != nil {
		var ns *store.NotSession
		if errors.As(err, &ns) {
			return nil, path, fail(1, "%s: %v", path, err)
		}
		return nil, path, fail(1, "%v", err)
	}
	return s, path, nil
}

// sessionArgs reads a command that takes one REF and --leaf: the flags, the
// session, its path and the entry to act at. check, when set, validates the
// flags before any file is read, so that a usage error is always one.
func (c *cli) sessionArgs(argv []string, spec map[string]bool, check func(*args) error, mapped bool) (*args, *model.Session, string, int, error) {
	spec["leaf"] = true
	a, err := parseArgs(argv, spec)
	if err != nil {
		return nil, nil, "", 0, err
	}
	ref, err := a.one("REF")
	if err != nil {
		return nil, nil, "", 0, err
	}
	if check != nil {
		if err := check(a); err != nil {
			return nil, nil, "", 0, err
		}
	}
	s, path, err := c.open(ref, mapped)
	if err != nil {
		return nil, nil, "", 0, err
	}
	l, err := leaf(s, a, path)
	return a, s, path, l, err
}

// styledOutput is how show and replay write: styled and wrapped to the
// terminal when stdout is one (colours unless NO_COLOR, light or dark as the
// terminal is), plain text into a pipe.
func (c *cli) styledOutput() (*transcript.Options, *bufio.Writer) {
	tty := isTerminal(c.stdout)
	o := &transcript.Options{Styled: tty, Color: tty && os.Getenv("NO_COLOR") == "", Styles: theme.New(true)}
	var out io.Writer = c.stdout
	if f, ok := c.stdout.(*os.File); ok && tty {
		if w, _, err := term.GetSize(f.Fd()); err == nil {
			o.Width = min(w, 120)
		}
		o.Styles = theme.New(lipgloss.HasDarkBackground(os.Stdin, f))
		out = colorprofile.NewWriter(c.stdout, os.Environ())
	}
	return o, bufio.NewWriter(out)
}

// terminalWidth is stdout's width when it is a terminal, else 0.
func (c *cli) terminalWidth() int {
	if f, ok := c.stdout.(*os.File); ok && isTerminal(c.stdout) {
		if w, _, err := term.GetSize(f.Fd()); err == nil {
			return w
		}
	}
	return 0
}

// leaf is --leaf ID, or the session's active leaf.
func leaf(s *model.Session, a *args, path string) (int, error) {
	if !a.has("leaf") {
		return s.Leaf(), nil
	}
	i, ok := s.Index(a.get("leaf"))
	if !ok {
		return 0, fail(1, "%s has no entry %q", path, a.get("leaf"))
	}
	return i, nil
}

// waitNote tells a person at a terminal why an append takes a while.
func (c *cli) waitNote() store.WriteOption {
	return store.OnWait(func() {
		if isTerminal(c.stderr) {
			fmt.Fprintln(c.stderr, "waiting while another program finishes writing the session's last line (up to 10 s)…")
		}
	})
}

// refused turns the store's refusal into exit status 1 with its reason.
func refused(err error) error {
	var r *store.RefusedError
	if errors.As(err, &r) {
		return fail(1, "%s", r.Reason)
	}
	return err
}

// writeJSON prints v as one line of JSON, for the outputs that are not hot
// paths: encoding/json, with <, > and & as they are (not HTML-escaped). Its
// strings must be valid UTF-8 already (see valid).
func (c *cli) writeJSON(v any) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// valid is s with each ill-formed sequence replaced by U+FFFD as Node
// replaces them (a path's bytes), where encoding/json would replace each
// byte.
func valid(s string) string { return string(utf8js.AppendValid(nil, []byte(s))) }
