// Package mcpserver is skein's Model Context Protocol server (`skein mcp`):
// five tools an agent calls to search, list and read every session skein
// reads, add up their stats and label an entry. It works on the same store,
// full-text index, readers and workflows as the TUI and the commands; what
// it adds is the protocol (the official Go SDK), the bounds of a response
// (a character budget and a cursor to go on) and the words of its errors.
package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"skein/internal/redact"
	"skein/internal/sanitize"
	"skein/model"
	"skein/search"
	"skein/store"
)

// Config is what the server works on.
type Config struct {
	Env store.Env
	// Roots are where sessions are looked for; nil: every agent's folder
	// (Env.DefaultRoots).
	Roots []string
	// IndexDir is the full-text index's folder; "" for none (every file
	// read at each search).
	IndexDir string
	// Stats reads the stats of the sessions at files, as `skein stats`
	// reads them (its memo, every core): the command line hands the server
	// its own reader, so that both count alike.
	Stats func(files []string) []*model.SessionStats
	// Version is what the server calls itself in the handshake.
	Version string
}

// Server holds the full-text index open between calls: a search brings it
// up to date with the files as they are (a file unchanged since is not
// read again) and searches it.
type Server struct {
	cfg  Config
	mu   sync.Mutex // one call at a time over the index and the files found
	x    *search.Index
	seen watched
}

// New opens the server's index (when cfg names one).
func New(cfg Config) *Server {
	s := &Server{cfg: cfg}
	if cfg.IndexDir != "" {
		s.x = search.OpenIndex(cfg.IndexDir)
	}
	s.watch()
	return s
}

// Close closes the index: nothing a call returned points into it.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.x != nil {
		s.x.Close()
		s.x = nil
	}
	if s.seen.w != nil {
		s.seen.w.Close()
	}
}

// Run serves the protocol over t (mcp.StdioTransport for `skein mcp`)
// until the client goes away or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.MCP().Run(ctx, t)
}

// MCP is the protocol's server with the five tools.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "skein", Version: s.cfg.Version}, &mcp.ServerOptions{
		Instructions: "skein reads every coding agent's session logs on this machine (pi, Claude Code, Codex, Gemini CLI and more). " +
			"search_sessions finds messages, list_sessions lists sessions, read_session reads one conversation a page at a time, " +
			"session_stats adds up tokens and cost, label_entry labels an entry. Responses are bounded by max_chars; pass next_cursor back as cursor to go on.",
	})
	addTool(srv, &mcp.Tool{Name: "search_sessions", Description: searchDescription}, s.searchSessions)
	addTool(srv, &mcp.Tool{Name: "list_sessions", Description: listDescription}, s.listSessions)
	addTool(srv, &mcp.Tool{Name: "read_session", Description: readDescription}, s.readSession)
	addTool(srv, &mcp.Tool{Name: "session_stats", Description: statsDescription}, s.sessionStats)
	addTool(srv, &mcp.Tool{Name: "label_entry", Description: labelDescription}, s.labelEntry)
	return srv
}

// handler is a tool's work: its structured output and its readable text,
// or an error (an *argError names the argument at fault).
type handler[In, Out any] func(ctx context.Context, in In) (Out, string, error)

// addTool registers h with its schemas derived from In and Out. A panic in
// h (a file cut short under a read, a bug) is the call's error, never the
// server's end.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h handler[In, Out]) {
	mcp.AddTool(srv, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if r := recover(); r != nil {
				var zero Out
				res, out = nil, zero
				if store.IsFault(r) {
					err = errors.New("a session file changed while it was read (was it cut short?); try again")
				} else {
					err = fmt.Errorf("%s failed: %v", t.Name, r)
					debug.PrintStack() // stderr: the client's log, never the protocol's stdout
				}
			}
		}()
		// A mapped file cut short faults: a panic recover can take.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		out, text, err := h(ctx, in)
		if err != nil {
			var zero Out
			return nil, zero, errors.New(redact.New().String(sanitize.Line(err.Error())))
		}
		out, text = redactAnswer(out, text)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	})
}

// argError is a bad argument: its message names it.
type argError struct {
	arg string
	msg string
}

func (e *argError) Error() string { return e.arg + ": " + e.msg }

func badArg(arg, format string, a ...any) error {
	return &argError{arg, fmt.Sprintf(format, a...)}
}

// Budgets: how many characters of text a response holds by default, and
// at most, whatever max_chars asks.
const (
	defaultChars = 16000
	maxChars     = 200000
	minChars     = 500
)

// cursorRoom is what a page's next_cursor adds to its JSON, at most.
const cursorRoom = 120

// jsonLen is the length of v as JSON, as the SDK writes a structured
// output (encoding/json).
func jsonLen(v any) int {
	data, _ := json.Marshal(v)
	return len(data)
}

// budget is max_chars checked, or the default.
func budget(n int) (int, error) {
	switch {
	case n == 0:
		return defaultChars, nil
	case n < minChars || n > maxChars:
		return 0, badArg("max_chars", "wants a number from %d to %d, not %d", minChars, maxChars, n)
	}
	return n, nil
}

// limitOf is limit checked, or def.
func limitOf(n, def, most int) (int, error) {
	switch {
	case n == 0:
		return def, nil
	case n < 0 || n > most:
		return 0, badArg("limit", "wants a number from 1 to %d, not %d", most, n)
	}
	return n, nil
}

// cursor is where a page stopped: Item, the next item's index, and Char,
// how far into it (a message longer than a page goes on in the next). Key
// ties it to the call it came from, so that a cursor handed to another
// call is refused rather than misread. It travels as opaque base64.
type cursor struct {
	Key  string `json:"k"`
	Item int    `json:"i"`
	Char int    `json:"c,omitempty"`
}

// keyOf is the key of a call: its tool and the arguments that choose what
// is paged (not the cursor, not the budget).
func keyOf(tool string, args ...any) string {
	data, _ := json.Marshal(append([]any{tool}, args...))
	sum := sha256.Sum256(data)
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func (c cursor) String() string {
	data, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(data)
}

// parseCursor reads the cursor argument of a call whose key is key ("" is
// the first page).
func parseCursor(s, key string) (cursor, error) {
	if s == "" {
		return cursor{Key: key}, nil
	}
	data, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil || c.Item < 0 || c.Char < 0 {
		return cursor{}, badArg("cursor", "is not a cursor this server gave; pass next_cursor as it came")
	}
	if c.Key != key {
		return cursor{}, badArg("cursor", "belongs to a call with other arguments; repeat that call's arguments, or leave the cursor out to start again")
	}
	return c, nil
}

// parseTime reads since or until: a day (2026-12-01, local midnight), an
// RFC 3339 time, or a span back from now (90m, 24h, 7d). ok is false for
// "" (no bound). The result is in ms since the epoch, as sessions' times.
func parseTime(arg, s string, now time.Time) (ms float64, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return float64(t.UnixMilli()), true, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return float64(t.UnixMilli()), true, nil
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(s, "d")); err == nil && strings.HasSuffix(s, "d") && n >= 0 {
		return float64(now.Add(-time.Duration(n) * 24 * time.Hour).UnixMilli()), true, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return float64(now.Add(-d).UnixMilli()), true, nil
	}
	return 0, false, badArg(arg, "wants a day (2026-12-01), an RFC 3339 time or a span back from now (24h, 7d), not %q", s)
}

// period is since and until read.
type period struct {
	since, until       float64
	hasSince, hasUntil bool
}

func parsePeriod(since, until string) (period, error) {
	var p period
	var err error
	now := time.Now()
	if p.since, p.hasSince, err = parseTime("since", since, now); err != nil {
		return p, err
	}
	if p.until, p.hasUntil, err = parseTime("until", until, now); err != nil {
		return p, err
	}
	if p.hasSince && p.hasUntil && p.until < p.since {
		return p, badArg("until", "is before since")
	}
	return p, nil
}

// holds reports whether a time (ms; NaN for none) is in the period; a
// time unknown is in it only when the period is open.
func (p period) holds(ms float64) bool {
	if ms != ms { // NaN
		return !p.hasSince && !p.hasUntil
	}
	return (!p.hasSince || ms >= p.since) && (!p.hasUntil || ms <= p.until)
}

// overlaps reports whether a session that ran from created to modified
// (ms) was active in the period.
func (p period) overlaps(created, modified float64) bool {
	if p.hasSince && !(modified >= p.since) {
		return false
	}
	if p.hasUntil && created == created && created > p.until {
		return false
	}
	return true
}

// iso is a time (ms) as ISO 8601 UTC, "" for none.
func iso(ms float64) string {
	if ms != ms || ms == 0 {
		return ""
	}
	return time.UnixMilli(int64(ms)).UTC().Format("2006-01-02T15:04:05.000Z")
}

// roots are the folders the server looks in.
func (s *Server) roots() []string {
	if s.cfg.Roots != nil {
		return s.cfg.Roots
	}
	return s.cfg.Env.DefaultRoots()
}

// files are the sessions found (their parts left out: they are read with
// their sessions), looked for again when something changed.
func (s *Server) files() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current()
}

// resolve finds the session an argument names: its path, its id or a
// unique prefix of its id.
func (s *Server) resolve(arg, ref string) (string, error) {
	if strings.TrimSpace(ref) == "" {
		return "", badArg(arg, "is missing: name a session by its id, a unique prefix of its id, or its file's path")
	}
	path, err := store.ResolveAnywhere(ref, s.roots(), s.cfg.Env)
	if err != nil {
		return "", badArg(arg, "%v", err)
	}
	return path, nil
}

// title is what the list calls a session: its name, else its first message.
func title(in store.Info) string {
	if in.Name != "" {
		return in.Name
	}
	return in.FirstMessage
}

// redactAnswer is an answer with no secret in it: the sessions a tool
// reads are read redacted already (read_session), and this is the net
// under every tool, the text and the structured output (as its JSON,
// which a replacement keeps JSON) alike.
func redactAnswer[Out any](out Out, text string) (Out, string) {
	r := redact.New()
	text = r.String(text)
	b, err := json.Marshal(out)
	if err != nil {
		return out, text
	}
	if red := r.Bytes(b); len(red) != len(b) || !bytes.Equal(red, b) {
		var clean Out
		if json.Unmarshal(red, &clean) == nil {
			out = clean
		}
	}
	return out, text
}
