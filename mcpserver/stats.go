package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"skein/internal/sanitize"
	"skein/model"
	"skein/search"
	"skein/store"
	"skein/tui/transcript"
	"skein/workflow"
)

const statsDescription = "Tokens, cost, models, tools, errors and active time of one session, or of the sessions of a project, an agent or a period, " +
	"grouped by session, project, model or day, as `skein stats --json` gives them (rows and a total)."

// StatsInput is session_stats' arguments.
type StatsInput struct {
	Session  string `json:"session,omitempty" jsonschema:"one session: its id, a unique prefix of its id, or its file's path; left out: every session the other filters let in"`
	Project  string `json:"project,omitempty" jsonschema:"only sessions whose working folder is this folder or one under it"`
	Agent    string `json:"agent,omitempty" jsonschema:"only this agent's sessions (pi, claude, codex, gemini...)"`
	Since    string `json:"since,omitempty" jsonschema:"only sessions active at or after this time: a day (2026-12-01), an RFC 3339 time, or a span back from now (24h, 7d)"`
	Until    string `json:"until,omitempty" jsonschema:"only sessions begun at or before this time, written as since is"`
	By       string `json:"by,omitempty" jsonschema:"the rows: session, project, model or day; session when left out"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, with the same other arguments, for the next rows"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"at most this many characters in the response (its text, and its structured output as JSON), 500 to 200000; 16000 when left out"`
}

// StatsOutput is the stats: `skein stats --json`'s rows (a page of them)
// and its total.
type StatsOutput struct {
	By         string `json:"by"`
	Rows       []any  `json:"rows" jsonschema:"the rows of this page, as skein stats --json writes them"`
	Total      any    `json:"total" jsonschema:"the total over every row, as skein stats --json writes it"`
	RowCount   int    `json:"row_count" jsonschema:"how many rows there are, on every page"`
	NextCursor string `json:"next_cursor,omitempty" jsonschema:"pass it as cursor for the next rows; absent on the last page"`
}

func (s *Server) sessionStats(_ context.Context, in StatsInput) (StatsOutput, string, error) {
	out := StatsOutput{Rows: []any{}}
	by := model.StatsBy(cmp.Or(in.By, "session"))
	if !slices.Contains(model.StatsGroupings, by) {
		return out, "", badArg("by", "wants session, project, model or day, not %q", in.By)
	}
	p, err := parsePeriod(in.Since, in.Until)
	if err != nil {
		return out, "", err
	}
	if in.Agent != "" && !knownAgent(in.Agent) {
		return out, "", badArg("agent", "names no agent skein reads (pi, claude, codex, gemini, copilot, qwen, cursor, droid, kimi, cline, opencode...)")
	}
	chars, err := budget(in.MaxChars)
	if err != nil {
		return out, "", err
	}
	cur, err := parseCursor(in.Cursor, keyOf("session_stats", in.Session, in.Project, in.Agent, in.Since, in.Until, by))
	if err != nil {
		return out, "", err
	}
	var files []string
	if in.Session != "" {
		path, err := s.resolve("session", in.Session)
		if err != nil {
			return out, "", err
		}
		files = []string{path}
	} else {
		q := &search.Query{Agent: in.Agent, Cwd: in.Project}
		infos, _ := store.List(s.files(), nil)
		for _, info := range infos {
			if q.OfAgent(info.Format) && q.OfCwd(info.Cwd) && p.overlaps(info.Created, info.Modified) {
				files = append(files, info.Path)
			}
		}
		slices.Sort(files)
	}
	g := model.NewStatsGroups(by)
	for _, ss := range s.readStats(files) {
		g.Add(ss)
	}
	if in.Session != "" && g.Sessions == 0 {
		return out, "", badArg("session", "could not be read")
	}
	// The rows and the total as `skein stats --json` writes them, read
	// back as values for the structured output.
	data, err := json.Marshal(g.JSON())
	if err != nil {
		return out, "", err
	}
	var all struct {
		Rows  []json.RawMessage `json:"rows"`
		Total any               `json:"total"`
	}
	if err := json.Unmarshal(data, &all); err != nil {
		return out, "", err
	}
	table := g.Table(model.StatsText{
		Tokens: transcript.Tokens,
		Cost:   transcript.Cost,
		Active: transcript.Active,
		Time:   func(ms float64) string { return iso(ms) },
		Folder: func(cwd string) string { return sanitize.Inline(cwd) },
		Text:   func(t string, width int) string { return transcript.Truncate(sanitize.Inline(t), width) },
	})
	out.By, out.Total, out.RowCount = string(by), all.Total, len(all.Rows)
	if cur.Item > len(all.Rows) {
		return out, "", badArg("cursor", "points past the last row; leave it out to start again")
	}
	var text strings.Builder
	text.WriteString(strings.Join(table.Head, "  ") + "\n")
	// A row costs the larger of its JSON and its line (see readSession).
	used := max(text.Len(), jsonLen(out)+cursorRoom)
	for i := cur.Item; i < len(all.Rows); i++ {
		line := ""
		if i < len(table.Rows) {
			line = strings.Join(table.Rows[i], "  ") + "\n"
		}
		cost := max(len(all.Rows[i])+1, len(line))
		if used+cost > chars {
			if i == cur.Item {
				return StatsOutput{Rows: []any{}}, "", badArg("max_chars", "leaves no room for the total and a row, %d characters; ask for more", used+cost)
			}
			out.NextCursor = cursor{Key: cur.Key, Item: i}.String()
			break
		}
		var row any
		_ = json.Unmarshal(all.Rows[i], &row)
		out.Rows = append(out.Rows, row)
		text.WriteString(line)
		used += cost
	}
	if len(table.Foot) > 0 {
		text.WriteString(strings.Join(table.Foot, "  ") + "\n")
	}
	if out.NextCursor != "" {
		fmt.Fprintf(&text, "%d of %d rows; more: call again with cursor %s\n", len(out.Rows), out.RowCount, out.NextCursor)
	}
	if g.Sessions == 0 {
		return out, "no sessions found", nil
	}
	return out, text.String(), nil
}

// readStats reads the sessions' stats with the reader the command line
// gave (stats' memo, every core), else one session after another.
func (s *Server) readStats(files []string) []*model.SessionStats {
	if s.cfg.Stats != nil {
		return s.cfg.Stats(files)
	}
	var all []*model.SessionStats
	for _, f := range files {
		if sess, err := store.Open(f); err == nil {
			all = append(all, model.NewSessionStats(sess, func(t string) string { return transcript.Truncate(sanitize.Line(t), 60) }))
		}
	}
	return all
}

const labelDescription = "Set or clear the label of a session's entry (pi's and Dhara's sessions can be labelled; other agents' are read only, and the answer says so). " +
	"The label shows in skein's tree and the agent's own."

// LabelInput is label_entry's arguments.
type LabelInput struct {
	Session string `json:"session" jsonschema:"the session: its id, a unique prefix of its id, or its file's path"`
	Entry   string `json:"entry" jsonschema:"the entry's id (read_session and search_sessions give them)"`
	Label   string `json:"label,omitempty" jsonschema:"the label; empty or left out clears the entry's label"`
}

// LabelOutput says what was written.
type LabelOutput struct {
	SessionID string `json:"session_id"`
	EntryID   string `json:"entry_id"`
	Label     string `json:"label" jsonschema:"the label now; empty when cleared"`
	Written   string `json:"written" jsonschema:"the id of the entry the label was written as, where the format writes one"`
}

func (s *Server) labelEntry(_ context.Context, in LabelInput) (LabelOutput, string, error) {
	var out LabelOutput
	path, err := s.resolve("session", in.Session)
	if err != nil {
		return out, "", err
	}
	if strings.TrimSpace(in.Entry) == "" {
		return out, "", badArg("entry", "is missing: the id of the entry to label")
	}
	if strings.IndexFunc(in.Label, unicode.IsControl) >= 0 {
		return out, "", badArg("label", "holds a line break or a control character; a label is one line of text")
	}
	written, err := workflow.Label(path, in.Entry, in.Label)
	if err != nil {
		var r *store.RefusedError
		var u *store.UnsupportedError
		switch {
		case errors.As(err, &u):
			return out, "", errors.New(err.Error())
		case errors.As(err, &r):
			return out, "", badArg("entry", "%s", r.Reason)
		}
		return out, "", err
	}
	sess := in.Session
	if info, _ := store.List([]string{path}, nil); len(info) == 1 {
		sess = info[0].ID
	}
	out = LabelOutput{SessionID: sanitize.Inline(sess), EntryID: sanitize.Inline(in.Entry), Label: in.Label, Written: sanitize.Inline(written)}
	if in.Label == "" {
		return out, "cleared the label of entry " + out.EntryID, nil
	}
	return out, fmt.Sprintf("labelled entry %s %q", out.EntryID, in.Label), nil
}
