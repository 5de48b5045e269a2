package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"skein/internal/jsjson"
	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
	"skein/store/pi"
	"skein/theme"
	"skein/tui/transcript"
)

// cli runs the non-interactive commands.
type cli struct {
	env            store.Env
	stdout, stderr io.Writer
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
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
	return files, store.Problems(err, false), nil
}

// progress shows a scanning count on stderr when it is a terminal.
func (c *cli) progress() (func(done, total int), func()) {
	if !isTerminal(c.stderr) {
		return nil, func() {}
	}
	last := time.Time{}
	update := func(done, total int) {
		if now := time.Now(); now.Sub(last) > 50*time.Millisecond || done == total {
			last = now
			fmt.Fprintf(c.stderr, "\rscanning %d/%d sessions", done, total)
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

func (c *cli) list(argv []string) (err error) {
	a, files, unreadable, err := c.pathArgs(argv)
	if err != nil {
		return err
	}
	update, clear := c.progress()
	infos, problems := store.List(files, update)
	clear()
	defer c.warnUnreadable(&err, append(unreadable, problems...))
	w := bufio.NewWriterSize(c.stdout, 64<<10)
	defer w.Flush()
	if a.has("json") {
		buf := []byte{'['}
		for i := range infos {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, '\n')
			buf = infos[i].AppendJSON(buf)
			if len(buf) > 32<<10 {
				w.Write(buf)
				buf = buf[:0]
			}
		}
		if len(infos) > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, "]\n"...)
		w.Write(buf)
		return nil
	}
	if len(infos) == 0 {
		fmt.Fprintln(w, "no sessions found")
		return nil
	}
	now := time.Now()
	for i := range infos {
		in := &infos[i]
		title := in.Name
		if title == "" {
			title = in.FirstMessage
		}
		fmt.Fprintf(w, "%-8s  %8s  %4d msgs  %-28s  %s\n", sanitize.Inline(model.ShortID(in.ID)), transcript.RelTime(now, in.Modified),
			in.MessageCount, transcript.Truncate(sanitize.Inline(transcript.ShortPath(in.Cwd, c.env.Home)), 28), transcript.Truncate(sanitize.Line(title), 60))
	}
	return nil
}

// open resolves REF and reads the session; mapped, for a command that only
// reads and exits (see pi.OpenMapped).
func (c *cli) open(ref string, mapped bool) (*model.Session, string, error) {
	path, err := store.Resolve(ref, c.env.DefaultRoots())
	if err != nil {
		return nil, "", err
	}
	var s *model.Session
	if mapped {
		s, err = pi.OpenMapped(path)
	} else {
		roomForSession(path)
		s, err = pi.Open(path)
	}
	if err != nil {
		var ns *pi.NotSession
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

func (c *cli) context(argv []string) error {
	a, s, _, l, err := c.sessionArgs(argv, map[string]bool{"json": false}, nil, true)
	if err != nil {
		return err
	}
	ctx := s.BuildContext(l)
	if a.has("json") {
		if err := s.WriteContextJSON(c.stdout, ctx); err != nil {
			return err
		}
		_, err := io.WriteString(c.stdout, "\n")
		return err
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	name := "none"
	if ctx.Model != nil {
		name = modelName(ctx.Model)
	}
	fmt.Fprintf(w, "%d messages, model %s, thinking %s\n", len(ctx.Messages), name, sanitize.Inline(rawText(ctx.ThinkingLevel)))
	for _, m := range ctx.Messages {
		raw := s.MessageJSON(m)
		role := modelString(raw, "role")
		fmt.Fprintf(w, "%-8s  %-17s  %6d tok  %s\n", sanitize.Inline(s.EntryID(m)), sanitize.Inline(role), s.MessageTokens(m),
			transcript.Truncate(sanitize.Line(preview(raw)), 70))
	}
	return nil
}

// modelName is provider/model, sanitized: both come from the file.
func modelName(m *model.ModelRef) string {
	return sanitize.Inline(rawText(m.Provider)) + "/" + sanitize.Inline(rawText(m.ModelID))
}

// rawText is a raw JSON value as text: a string's value, or the JSON of
// anything else (a file may hold a number where pi writes a name).
func rawText(raw []byte) string {
	if s, ok := stringOf(raw); ok {
		return s
	}
	return string(raw)
}

func modelString(raw []byte, key string) string { return model.String(model.Member(raw, key)) }

// preview is a message's first text, for one-line listings.
func preview(raw []byte) string {
	for _, k := range []string{"summary", "command"} {
		if s := modelString(raw, k); s != "" {
			return s
		}
	}
	content := model.Member(raw, "content")
	if s, ok := stringOf(content); ok {
		return s
	}
	var out []string
	model.EachBlock(content, func(b []byte) {
		switch modelString(b, "type") {
		case "text":
			out = append(out, modelString(b, "text"))
		case "toolCall":
			tc := model.NormalizeToolCall(b)
			out = append(out, "→ "+tc.Name+" "+model.KeyArgument(tc.Input))
		}
	})
	return strings.Join(out, " ")
}

func stringOf(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return model.String(raw), true
}

func (c *cli) tree(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"json": false, "filter": true, "all": false})
	if err != nil {
		return err
	}
	ref, err := a.one("REF")
	if err != nil {
		return err
	}
	filter := model.FilterDefault
	if a.has("all") {
		filter = model.FilterAll
	}
	if a.has("filter") {
		f, ok := model.ParseTreeFilter(a.get("filter"))
		if !ok {
			return usagef("unknown filter %q (default, no-tools, user-only, labeled-only, all)", a.get("filter"))
		}
		filter = f
	}
	s, _, err := c.open(ref, true)
	if err != nil {
		return err
	}
	if a.has("json") {
		if err := s.WriteTreeJSON(c.stdout); err != nil {
			return err
		}
		_, err := io.WriteString(c.stdout, "\n")
		return err
	}
	v := s.NewTreeView(s.Leaf(), filter)
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	for _, line := range v.Lines(v.NearestVisible(s.Leaf()), c.env.Home) {
		fmt.Fprintln(w, sanitize.Flat(line))
	}
	return nil
}

func (c *cli) show(argv []string) error {
	a, s, path, l, err := c.sessionArgs(argv, map[string]bool{"thinking": false, "tools": false, "width": true}, func(a *args) error {
		if n, err := strconv.Atoi(a.get("width")); a.has("width") && (err != nil || n < 20) {
			return usagef("--width wants a number ≥ 20")
		}
		return nil
	}, true)
	if err != nil {
		return err
	}
	o, w := c.styledOutput()
	defer w.Flush()
	o.ShowThinking, o.ExpandTools = a.has("thinking"), a.has("tools")
	if a.has("width") {
		o.Width, _ = strconv.Atoi(a.get("width"))
	}
	title := s.Name()
	if title == "" {
		title = filepath.Base(path)
	}
	fmt.Fprintf(w, "%s\n%s\n\n", sanitize.Line(title), sanitize.Inline(s.Header.Cwd))
	_, err = io.WriteString(w, transcript.Render(s, s.BuildContext(l), l, o))
	return err
}

func (c *cli) plan(argv []string) error {
	var keep float64
	a, s, _, l, err := c.sessionArgs(argv, map[string]bool{"json": false, "keep-tokens": true}, func(a *args) (err error) {
		keep, err = a.number("keep-tokens", 20000)
		return err
	}, true)
	if err != nil {
		return err
	}
	p := s.PlanCompaction(l, keep)
	if a.has("json") {
		_, err := fmt.Fprintf(c.stdout, "%s\n", model.PlanJSON(p))
		return err
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	if p == nil {
		fmt.Fprintln(w, model.NothingToCompact(s, l, keep))
		return nil
	}
	kept := s.KeptTokens(p)
	fmt.Fprintf(w, "tokens before:        %s\n", jsjson.FormatNumber(p.TokensBefore))
	fmt.Fprintf(w, "kept from entry:      %s (about %d tokens kept)\n", sanitize.Inline(p.FirstKeptEntryID), kept)
	fmt.Fprintf(w, "messages summarized:  %d\n", len(p.MessagesToSummarize))
	if p.IsSplitTurn {
		fmt.Fprintf(w, "split turn:           yes, %d messages of the turn's start are summarized apart\n", len(p.TurnPrefixMessages))
	}
	if p.PreviousCompaction >= 0 {
		fmt.Fprintf(w, "previous compaction:  %s (its summary is updated)\n", sanitize.Inline(s.Entries[p.PreviousCompaction].ID))
	}
	fmt.Fprintf(w, "read files:           %s\n", orNone(p.ReadFiles))
	fmt.Fprintf(w, "modified files:       %s\n", orNone(p.ModifiedFiles))
	return nil
}

func orNone(files []string) string {
	if len(files) == 0 {
		return "(none)"
	}
	shown := make([]string, len(files))
	for i, f := range files {
		shown[i] = sanitize.Inline(f)
	}
	return strings.Join(shown, ", ")
}

func (c *cli) doctor(argv []string) error {
	a, files, unreadable, err := c.pathArgs(argv)
	if err != nil {
		return err
	}
	folders := map[string]string{} // the folders that could not be read, and why
	paths := slices.Clone(files)
	for _, p := range unreadable {
		folders[p.Path] = problemText(p.Err)
		paths = append(paths, p.Path)
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	problems := 0
	var report []byte
	if a.has("json") {
		report = append(report, '[')
	}
	for k, f := range paths {
		diags, format := checkFile(f)
		if why, ok := folders[f]; ok {
			diags, format = []model.Diagnostic{{Msg: why}}, store.FormatUnknown
		}
		problems += len(diags)
		if a.has("json") {
			if k > 0 {
				report = append(report, ',')
			}
			report = append(report, "\n{\"path\":"...)
			report = jsjson.AppendString(report, f)
			report = append(report, `,"format":`...)
			report = jsjson.AppendString(report, string(format))
			report = append(report, `,"ok":`...)
			report = strconv.AppendBool(report, len(diags) == 0)
			report = append(report, `,"problems":[`...)
			for i, d := range diags {
				if i > 0 {
					report = append(report, ',')
				}
				report = append(report, `{"line":`...)
				report = strconv.AppendInt(report, int64(d.Line), 10)
				report = append(report, `,"message":`...)
				report = jsjson.AppendString(report, d.Msg)
				report = append(report, '}')
			}
			report = append(report, "]}"...)
			continue
		}
		name := sanitize.Inline(f)
		if len(diags) == 0 {
			fmt.Fprintf(w, "%s: OK\n", name)
			continue
		}
		for _, d := range diags {
			if d.Line > 0 {
				fmt.Fprintf(w, "%s:%d: %s\n", name, d.Line, sanitize.Line(d.Msg))
			} else {
				fmt.Fprintf(w, "%s: %s\n", name, sanitize.Line(d.Msg))
			}
		}
	}
	if a.has("json") {
		w.Write(append(report, "\n]\n"...))
	} else {
		fmt.Fprintf(w, "%d files checked, %d problems\n", len(files), problems)
	}
	if problems > 0 {
		w.Flush()
		return &exitError{1, errors.New("")}
	}
	return nil
}

var formatNames = map[store.Format]string{
	store.FormatClaude: "a Claude Code log",
	store.FormatCodex:  "a Codex rollout",
	store.FormatDhara:  "a Dhara session",
}

// checkFile returns a file's problems, with the format it was read as.
func checkFile(path string) ([]model.Diagnostic, store.Format) {
	data, err := pi.ReadFile(path)
	if err != nil {
		return []model.Diagnostic{{Msg: problemText(err)}}, store.FormatUnknown
	}
	format := store.Detect(data)
	if format != store.FormatPi {
		msg := "missing or invalid session header: not a pi session"
		if name, ok := formatNames[format]; ok {
			msg = "not a pi session (it looks like " + name + ")"
		}
		return []model.Diagnostic{{Line: 1, Msg: msg}}, format
	}
	s, err := model.Parse(data)
	if err != nil {
		return []model.Diagnostic{{Line: 1, Msg: err.Error()}}, format
	}
	return s.Diagnostics, format
}
