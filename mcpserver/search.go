package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"skein/internal/redact"
	"skein/internal/sanitize"
	"skein/search"
	"skein/store"
)

const searchDescription = "Search every message of every session (all agents) with skein search's query language: " +
	`words match at word starts in any case, "a phrase", re:PATTERN (RE2), role:ROLE (user, assistant, toolResult), tool:NAME, cwd:FOLDER, agent:NAME. ` +
	"Hits are ranked best first (BM25); each names its session and entry, for read_session."

// SearchInput is search_sessions' arguments.
type SearchInput struct {
	Query    string `json:"query" jsonschema:"what to look for, in skein search's language: words (matched at word starts, any case), \"a phrase\", re:PATTERN, role:ROLE, tool:NAME, cwd:FOLDER, agent:NAME (pi, claude, codex, gemini...)"`
	Since    string `json:"since,omitempty" jsonschema:"only messages written at or after this time: a day (2026-12-01), an RFC 3339 time, or a span back from now (24h, 7d)"`
	Until    string `json:"until,omitempty" jsonschema:"only messages written at or before this time, written as since is"`
	Project  string `json:"project,omitempty" jsonschema:"only sessions whose working folder is this folder or one under it"`
	Limit    int    `json:"limit,omitempty" jsonschema:"hits in a page, 1 to 100; 20 when left out"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, with the same other arguments, to go on"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"at most this many characters in the response (its text, and its structured output as JSON), 500 to 200000; 16000 when left out"`
}

// SearchHit is one message that matched.
type SearchHit struct {
	SessionID string   `json:"session_id" jsonschema:"the session's id, for read_session"`
	Agent     string   `json:"agent" jsonschema:"the agent that wrote the session"`
	Title     string   `json:"title" jsonschema:"the session's name, else its first message"`
	Project   string   `json:"project" jsonschema:"the session's working folder"`
	Time      string   `json:"time" jsonschema:"when the message was written (ISO 8601 UTC), else when the session last changed; empty when neither is known"`
	EntryID   string   `json:"entry_id" jsonschema:"the message's entry id, for read_session's entry"`
	Role      string   `json:"role" jsonschema:"the message's role"`
	Snippet   string   `json:"snippet" jsonschema:"the message's text around its first match, on one line"`
	Matches   [][2]int `json:"matches" jsonschema:"the matches, as [start, end) byte offsets in snippet"`
	Path      string   `json:"path" jsonschema:"the session's file or folder"`
}

// SearchOutput is a page of hits.
type SearchOutput struct {
	Hits       []SearchHit `json:"hits"`
	NextCursor string      `json:"next_cursor,omitempty" jsonschema:"pass it as cursor for the next page; absent on the last"`
}

// maxHits bounds how many hits a search ranks for its pages.
const maxHits = 1000

func (s *Server) searchSessions(_ context.Context, in SearchInput) (SearchOutput, string, error) {
	out := SearchOutput{Hits: []SearchHit{}}
	if strings.TrimSpace(in.Query) == "" {
		return out, "", badArg("query", "is empty: give words, a phrase, re:, role:, tool:, cwd: or agent:")
	}
	q, err := search.Parse(in.Query)
	if err != nil {
		return out, "", badArg("query", "%v", err)
	}
	if in.Project != "" {
		if q.Cwd != "" && q.Cwd != in.Project {
			return out, "", badArg("project", "and the query's cwd: name two folders")
		}
		q.Cwd = in.Project
	}
	p, err := parsePeriod(in.Since, in.Until)
	if err != nil {
		return out, "", err
	}
	limit, err := limitOf(in.Limit, 20, 100)
	if err != nil {
		return out, "", err
	}
	chars, err := budget(in.MaxChars)
	if err != nil {
		return out, "", err
	}
	cur, err := parseCursor(in.Cursor, keyOf("search_sessions", in.Query, in.Since, in.Until, in.Project))
	if err != nil {
		return out, "", err
	}
	files := s.files()
	// A period leaves out whole sessions first: one that ended before
	// since or began after until holds no message of it.
	var about map[string]store.Info
	if p.hasSince || p.hasUntil {
		infos, _ := store.List(files, nil)
		files = files[:0]
		about = make(map[string]store.Info, len(infos))
		for _, info := range infos {
			if p.overlaps(info.Created, info.Modified) {
				files = append(files, info.Path)
				about[info.Path] = info
			}
		}
	}
	want := cur.Item + limit + 1 // one more: is there a next page?
	if p.hasSince || p.hasUntil {
		want = maxHits // filtered after the ranking
	}
	hits := s.search(q, files, want)
	if about == nil {
		about = search.HitSessions(hits)
	}
	if p.hasSince || p.hasUntil {
		hits = slices.DeleteFunc(hits, func(h search.Hit) bool { return !p.holds(search.HitTime(h, about[h.Path])) })
	}
	var text strings.Builder
	next := -1
	// A hit costs the larger of its line of text and its JSON (see
	// readSession).
	used := jsonLen(out) + cursorRoom
	cost := func(h SearchHit) int { return max(len(hitText(h)), jsonLen(h)+1) }
	for i := cur.Item; i < len(hits); i++ {
		if len(out.Hits) == limit {
			next = i
			break
		}
		hit := toHit(hits[i], about[hits[i].Path])
		if used+cost(hit) > chars && len(out.Hits) > 0 {
			next = i
			break
		}
		for used+cost(hit) > chars && (hit.Snippet != "" || hit.Title != "") {
			// One hit alone over the budget: its title and snippet cut.
			over := used + cost(hit) - chars
			if hit.Title != "" {
				hit.Title = cutChars(hit.Title, max(0, len(hit.Title)-over))
			} else {
				hit.Snippet, hit.Matches = cutSnippet(hit.Snippet, hit.Matches, max(0, len(hit.Snippet)-over))
			}
		}
		if used+cost(hit) > chars {
			return SearchOutput{Hits: []SearchHit{}}, "", badArg("max_chars", "leaves no room for a hit; ask for more")
		}
		out.Hits = append(out.Hits, hit)
		text.WriteString(hitText(hit))
		used += cost(hit)
	}
	if next >= 0 && next < len(hits) {
		out.NextCursor = cursor{Key: cur.Key, Item: next}.String()
	}
	if len(out.Hits) == 0 {
		return out, "no message matches", nil
	}
	if out.NextCursor != "" {
		text.WriteString("more: call again with cursor " + out.NextCursor + "\n")
	}
	return out, text.String(), nil
}

// search is q over files through the index, which current keeps up to
// date (every file read and searched when there is no index, or it could
// not be brought up to date).
func (s *Server) search(q *search.Query, files []string, limit int) []search.Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.current()
	if s.x == nil || s.seen.dirty.Load() {
		return search.Files(s.x, q, files, limit, false, nil)
	}
	return s.x.Search(q, files, limit)
}

// toHit is a hit as the tool answers it, every string of the session's
// made safe.
func toHit(h search.Hit, in store.Info) SearchHit {
	snippet, matches := cleanSnippet(h.Snippet, h.Matches)
	return SearchHit{
		SessionID: sanitize.Inline(h.SessionID),
		Agent:     store.AgentOf(store.Info{Format: h.Format}),
		Title:     cutChars(sanitize.Line(title(in)), 200),
		Project:   sanitize.Inline(in.Cwd),
		Time:      iso(search.HitTime(h, in)),
		EntryID:   sanitize.Inline(h.EntryID),
		Role:      sanitize.Inline(h.Role),
		Snippet:   snippet,
		Matches:   matches,
		Path:      sanitize.Inline(h.Path),
	}
}

// hitText is a hit as the readable text says it: the session, then the
// message.
func hitText(h SearchHit) string {
	t := h.Title
	if t == "" {
		t = "(untitled)"
	}
	return fmt.Sprintf("%s · %s · %s · %s\n  session %s entry %s (%s): %s\n", t, h.Project, h.Time, h.Agent, h.SessionID, h.EntryID, h.Role, h.Snippet)
}

// cleanSnippet sanitizes a snippet piece by piece, between and inside its
// matches, so that the match ranges still point at the matched text; a
// snippet that holds a secret is redacted, without its ranges.
func cleanSnippet(s string, ranges [][2]int) (string, [][2]int) {
	if red := redact.New().String(s); red != s {
		s, ranges = red, nil // a secret's place: its matches would point past it
	}
	var b strings.Builder
	out := make([][2]int, 0, len(ranges))
	at := 0
	for _, r := range ranges {
		if r[0] < at || r[1] > len(s) || r[0] > r[1] {
			continue
		}
		b.WriteString(sanitize.Inline(s[at:r[0]]))
		start := b.Len()
		b.WriteString(sanitize.Inline(s[r[0]:r[1]]))
		out = append(out, [2]int{start, b.Len()})
		at = r[1]
	}
	b.WriteString(sanitize.Inline(s[at:]))
	return b.String(), out
}

// cutSnippet is a snippet cut to at most n bytes (at a character's start),
// with the matches that still lie in it.
func cutSnippet(s string, ranges [][2]int, n int) (string, [][2]int) {
	s = cutChars(s, n)
	var out [][2]int
	for _, r := range ranges {
		if r[1] <= len(s) {
			out = append(out, r)
		}
	}
	return s, out
}

// cutChars is s cut to at most n bytes, at a character's start.
func cutChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

const listDescription = "List sessions of every agent, newest first by default, with filters; each with its id (for read_session), agent, title, project and times."

// ListInput is list_sessions' arguments.
type ListInput struct {
	Agent     string `json:"agent,omitempty" jsonschema:"only this agent's sessions: its name (pi, claude, codex, gemini, copilot...) in any case"`
	Project   string `json:"project,omitempty" jsonschema:"only sessions whose working folder is this folder or one under it"`
	Since     string `json:"since,omitempty" jsonschema:"only sessions active at or after this time: a day (2026-12-01), an RFC 3339 time, or a span back from now (24h, 7d)"`
	Until     string `json:"until,omitempty" jsonschema:"only sessions begun at or before this time, written as since is"`
	NamedOnly bool   `json:"named_only,omitempty" jsonschema:"only sessions with a name"`
	Sort      string `json:"sort,omitempty" jsonschema:"modified (newest change first, the default), created (newest first) or messages (most first)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"sessions in a page, 1 to 500; 50 when left out"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, with the same other arguments, to go on"`
	MaxChars  int    `json:"max_chars,omitempty" jsonschema:"at most this many characters in the response (its text, and its structured output as JSON), 500 to 200000; 16000 when left out"`
}

// SessionItem is one session of a list.
type SessionItem struct {
	ID       string `json:"id" jsonschema:"the session's id, for read_session and session_stats"`
	Agent    string `json:"agent"`
	Title    string `json:"title" jsonschema:"its name, else its first message"`
	Named    bool   `json:"named" jsonschema:"whether the title is a name given to the session"`
	Project  string `json:"project" jsonschema:"its working folder"`
	Created  string `json:"created" jsonschema:"ISO 8601 UTC; empty when unknown"`
	Modified string `json:"modified" jsonschema:"ISO 8601 UTC"`
	Messages int    `json:"messages"`
	Path     string `json:"path" jsonschema:"its file or folder"`
}

// ListOutput is a page of sessions.
type ListOutput struct {
	Sessions   []SessionItem `json:"sessions"`
	Total      int           `json:"total" jsonschema:"how many sessions the filters let in, on every page"`
	NextCursor string        `json:"next_cursor,omitempty" jsonschema:"pass it as cursor for the next page; absent on the last"`
}

func (s *Server) listSessions(_ context.Context, in ListInput) (ListOutput, string, error) {
	out := ListOutput{Sessions: []SessionItem{}}
	p, err := parsePeriod(in.Since, in.Until)
	if err != nil {
		return out, "", err
	}
	sort := cmp.Or(in.Sort, "modified")
	if sort != "modified" && sort != "created" && sort != "messages" {
		return out, "", badArg("sort", "wants modified, created or messages, not %q", in.Sort)
	}
	limit, err := limitOf(in.Limit, 50, 500)
	if err != nil {
		return out, "", err
	}
	chars, err := budget(in.MaxChars)
	if err != nil {
		return out, "", err
	}
	cur, err := parseCursor(in.Cursor, keyOf("list_sessions", in.Agent, in.Project, in.Since, in.Until, in.NamedOnly, sort))
	if err != nil {
		return out, "", err
	}
	// The filters are search's: agent: and cwd: as a query reads them.
	q := &search.Query{Agent: in.Agent, Cwd: in.Project}
	if in.Agent != "" && !knownAgent(in.Agent) {
		return out, "", badArg("agent", "names no agent skein reads (pi, claude, codex, gemini, copilot, qwen, cursor, droid, kimi, cline, opencode...)")
	}
	infos, _ := store.List(s.files(), nil)
	infos = slices.DeleteFunc(infos, func(info store.Info) bool {
		return (in.Agent != "" && !q.OfAgent(info.Format)) || (in.Project != "" && !q.OfCwd(info.Cwd)) ||
			(in.NamedOnly && info.Name == "") || !p.overlaps(info.Created, info.Modified)
	})
	switch sort {
	case "created":
		slices.SortStableFunc(infos, func(a, b store.Info) int { return cmp.Compare(b.Created, a.Created) })
	case "messages":
		slices.SortStableFunc(infos, func(a, b store.Info) int { return cmp.Compare(b.MessageCount, a.MessageCount) })
	}
	out.Total = len(infos)
	var text strings.Builder
	used := jsonLen(out) + cursorRoom + 100 // and the note of a next page
	for i := cur.Item; i < len(infos); i++ {
		info := infos[i]
		item := SessionItem{
			ID: sanitize.Inline(info.ID), Agent: store.AgentOf(info), Title: cutChars(sanitize.Line(title(info)), 200),
			Named: info.Name != "", Project: sanitize.Inline(info.Cwd), Created: iso(info.Created), Modified: iso(info.Modified),
			Messages: info.MessageCount, Path: sanitize.Inline(info.Path),
		}
		line := fmt.Sprintf("%s  %s  %s  %d msgs  %s  %s\n", item.ID, item.Modified, item.Agent, item.Messages, item.Project, item.Title)
		cost := max(len(line), jsonLen(item)+1)
		if len(out.Sessions) == limit || used+cost > chars {
			out.NextCursor = cursor{Key: cur.Key, Item: i}.String()
			break
		}
		out.Sessions = append(out.Sessions, item)
		text.WriteString(line)
		used += cost
	}
	if len(out.Sessions) == 0 && out.NextCursor == "" {
		return out, "no sessions found", nil
	}
	if out.NextCursor != "" {
		fmt.Fprintf(&text, "%d of %d sessions from %d; more: call again with cursor %s\n", len(out.Sessions), out.Total, cur.Item+1, out.NextCursor)
	}
	return out, text.String(), nil
}

// knownAgent reports whether name names one of the registered formats'
// agents.
func knownAgent(name string) bool {
	for _, b := range store.Backends() {
		if store.AgentIs(b, name) {
			return true
		}
	}
	return false
}
