package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
)

const readDescription = "Read a session's conversation: its active path (the branch it is on), the path to an entry, or the messages around an entry (before/after). " +
	"Messages come with role, time and text; tool calls are summarized (tool and key argument) and tool results cut short unless full is true. " +
	"A page holds at most max_chars characters; pass next_cursor back as cursor for the next, until it is absent."

// ReadInput is read_session's arguments.
type ReadInput struct {
	Session  string `json:"session" jsonschema:"the session: its id, a unique prefix of its id, or its file's path (as search_sessions and list_sessions give them)"`
	Entry    string `json:"entry,omitempty" jsonschema:"an entry id: read the path from the session's start to this entry instead of the active path; with before or after, the messages around it"`
	Before   *int   `json:"before,omitempty" jsonschema:"with entry: how many messages before it to read (0 to 1000)"`
	After    *int   `json:"after,omitempty" jsonschema:"with entry: how many messages after it to read, on its branch (0 to 1000)"`
	Full     bool   `json:"full,omitempty" jsonschema:"tool results whole rather than cut to their first 600 characters"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, with the same other arguments, to go on"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"at most this many characters in the page (its text, and its structured output as JSON), 500 to 200000; 16000 when left out"`
}

// MessageItem is one message, or the part of one a page holds.
type MessageItem struct {
	EntryID   string `json:"entry_id" jsonschema:"the entry's id, for read_session's entry and label_entry"`
	Role      string `json:"role" jsonschema:"user, assistant, toolResult, or another role of the format's"`
	Time      string `json:"time,omitempty" jsonschema:"when it was written, ISO 8601 UTC"`
	Text      string `json:"text" jsonschema:"its text; tool calls as lines '→ tool: key argument'"`
	Continued bool   `json:"continued,omitempty" jsonschema:"the text goes on from the previous page"`
	Cut       bool   `json:"cut,omitempty" jsonschema:"the text goes on in the next page"`
}

// ReadOutput is a page of a conversation.
type ReadOutput struct {
	SessionID  string        `json:"session_id"`
	Title      string        `json:"title"`
	Agent      string        `json:"agent"`
	Project    string        `json:"project"`
	Path       string        `json:"path"`
	Messages   []MessageItem `json:"messages"`
	Total      int           `json:"total" jsonschema:"how many messages the whole read holds, on every page"`
	First      int           `json:"first" jsonschema:"the index (from 0) of this page's first message among them"`
	NextCursor string        `json:"next_cursor,omitempty" jsonschema:"pass it as cursor for the next page; absent on the last"`
}

// resultChars is how much of a tool result a message shows without full.
const resultChars = 600

func (s *Server) readSession(_ context.Context, in ReadInput) (ReadOutput, string, error) {
	out := ReadOutput{Messages: []MessageItem{}}
	path, err := s.resolve("session", in.Session)
	if err != nil {
		return out, "", err
	}
	chars, err := budget(in.MaxChars)
	if err != nil {
		return out, "", err
	}
	for _, n := range []struct {
		arg string
		v   *int
	}{{"before", in.Before}, {"after", in.After}} {
		if n.v != nil && in.Entry == "" {
			return out, "", badArg(n.arg, "needs entry: the messages around which entry?")
		}
		if n.v != nil && (*n.v < 0 || *n.v > 1000) {
			return out, "", badArg(n.arg, "wants a number from 0 to 1000, not %d", *n.v)
		}
	}
	cur, err := parseCursor(in.Cursor, keyOf("read_session", path, in.Entry, in.Before, in.After, in.Full))
	if err != nil {
		return out, "", err
	}
	sess, err := store.Open(path)
	if err != nil {
		return out, "", badArg("session", "%v", err)
	}
	sess, _ = sess.Redacted() // an agent's answer holds no secret (docs/sharing.md)
	msgs, err := selectMessages(sess, in)
	if err != nil {
		return out, "", err
	}
	out.SessionID, out.Title, out.Agent = sanitize.Inline(sess.Info.ID), cutChars(sanitize.Line(sess.Name()), 200), store.AgentOf(sess.Info)
	out.Project, out.Path, out.Total, out.First = sanitize.Inline(sess.Info.Cwd), sanitize.Inline(path), len(msgs), cur.Item
	if out.Title == "" {
		out.Title = "(untitled)"
	}
	// The heads are cut to a quarter of the budget each, so that the
	// first message always has room for some of its text and a page
	// always moves the cursor on.
	var text strings.Builder
	text.WriteString(cutChars(fmt.Sprintf("%s · %s · %s · session %s · %d messages", out.Title, out.Agent, out.Project, out.SessionID, out.Total), chars/4) + "\n\n")
	if cur.Item > 0 || cur.Char > 0 {
		text.Reset() // the head is the first page's
	}
	if cur.Item > len(msgs) {
		return out, "", badArg("cursor", "points past the end of the session; leave it out to start again")
	}
	// A page's cost is the larger of its text and its structured output's
	// JSON, so that a client that reads either (pi the text, Claude Code
	// the structured output) gets at most max_chars of it.
	used := max(text.Len(), jsonLen(out)+cursorRoom)
	for i := cur.Item; i < len(msgs); i++ {
		item := messageItem(sess, msgs[i], in.Full)
		body := item.Text
		from := 0
		if i == cur.Item {
			from = min(cur.Char, len(body))
		}
		item.Continued = from > 0
		head := cutChars(fmt.Sprintf("[%s %s · entry %s]", item.Role, item.Time, item.EntryID), chars/4) + "\n"
		cost := func(piece string, cut bool) int {
			it := item
			it.Text, it.Cut = piece, cut
			return max(len(head)+len(piece)+2, jsonLen(it)+1)
		}
		rest := body[from:]
		if used+cost(rest, false) <= chars {
			item.Text = rest
			out.Messages = append(out.Messages, item)
			text.WriteString(head + rest + "\n\n")
			used += cost(rest, false)
			continue
		}
		if len(out.Messages) > 0 && chars-used < chars/4 {
			// Little room left: the message starts the next page rather
			// than a sliver of it ending this one.
			out.NextCursor = cursor{Key: cur.Key, Item: i, Char: from}.String()
			break
		}
		// As much of the message as fits: cut to the room left, then
		// shorter while its JSON (escapes) does not fit.
		piece := cutChars(rest, max(0, chars-used-cost("", true)))
		for piece != "" && used+cost(piece, true) > chars {
			piece = cutChars(piece, len(piece)-max(1, used+cost(piece, true)-chars))
		}
		if piece == "" {
			if len(out.Messages) == 0 {
				return ReadOutput{Messages: []MessageItem{}}, "", badArg("max_chars", "leaves no room for a message of this session after its heading; ask for more")
			}
			out.NextCursor = cursor{Key: cur.Key, Item: i, Char: from}.String()
			break
		}
		item.Text, item.Cut = piece, true
		out.Messages = append(out.Messages, item)
		text.WriteString(head + piece + "\n\n")
		out.NextCursor = cursor{Key: cur.Key, Item: i, Char: from + len(piece)}.String()
		break
	}
	if out.NextCursor != "" {
		note := "more: call again with cursor " + out.NextCursor + "\n"
		if text.Len()+len(note) <= chars {
			text.WriteString(note)
		}
	} else if len(msgs) == 0 {
		text.WriteString("no messages\n")
	}
	return out, text.String(), nil
}

// selectMessages are the message entries the read covers: those on the
// active path, on the path to the entry, or around the entry.
func selectMessages(s *model.Session, in ReadInput) ([]int, error) {
	leaf := s.Leaf()
	at := -1
	if in.Entry != "" {
		i, ok := s.Index(in.Entry)
		if !ok {
			return nil, badArg("entry", "the session has no entry %q", in.Entry)
		}
		at, leaf = i, i
		if in.After != nil {
			// After the entry: on to the end of its branch, the active
			// one when the entry is on it, else its newest child's.
			leaf = branchEnd(s, i)
		}
	}
	var msgs []int
	pos := -1
	for _, i := range s.Path(leaf) {
		if i == at {
			pos = len(msgs)
		}
		if isMessage(s.Entry(i).Kind) {
			msgs = append(msgs, i)
		}
	}
	if in.Before == nil && in.After == nil {
		return msgs, nil
	}
	// pos is the entry's message, or the first message after it.
	lo, hi := pos, pos+1
	if pos < len(msgs) && msgs[pos] != at {
		hi = pos // the entry is no message: around it, not on it
	}
	if in.Before != nil {
		lo = max(0, pos-*in.Before)
	}
	if in.After != nil {
		hi = min(len(msgs), hi+*in.After)
	}
	return msgs[lo:max(lo, hi)], nil
}

// branchEnd is the leaf of the branch an entry is on: the active leaf when
// the active path goes through it, else the end of its newest children.
func branchEnd(s *model.Session, i int) int {
	leaf := s.Leaf()
	for j := leaf; j >= 0; j = s.Parent(j) {
		if j == i {
			return leaf
		}
	}
	for {
		kids := s.Children(i)
		if len(kids) == 0 {
			return i
		}
		i = kids[len(kids)-1]
	}
}

// isMessage reports whether an entry of the kind is read as a message: a
// message, a summary, an extension's message.
func isMessage(k model.EntryKind) bool {
	switch k {
	case model.EntryMessage, model.EntryCompaction, model.EntryBranchSummary, model.EntryCustomMessage:
		return true
	}
	return false
}

// messageItem is entry i's message as a read shows it, made safe: its
// text blocks, its tool calls summarized, a tool result cut short unless
// full.
func messageItem(s *model.Session, i int, full bool) MessageItem {
	e := s.Entry(i)
	m := s.EntryMessage(i)
	item := MessageItem{EntryID: sanitize.Inline(e.ID), Role: sanitize.Inline(m.Role)}
	if item.Role == "" {
		item.Role = sanitize.Inline(e.Type)
	}
	if m.HasTime {
		item.Time = iso(m.Time)
	}
	var b strings.Builder
	add := func(s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
	}
	add(m.Summary)
	if m.Command != "" {
		add("$ " + m.Command)
		add(m.Output)
	}
	for _, blk := range m.Blocks {
		switch blk.Type {
		case model.BlockText:
			add(blk.Text)
		case model.BlockToolCall:
			arg := model.KeyArgument(blk.Call.Input)
			if full {
				arg = string(blk.Call.Input)
			}
			add("→ " + blk.Call.Name + ": " + arg)
		case model.BlockImage:
			add("[image " + blk.MimeType + "]")
		}
	}
	if m.Error != "" {
		add("error: " + m.Error)
	}
	text := sanitize.Text(b.String())
	if m.ToolName != "" {
		head := "← " + sanitize.Inline(m.ToolName)
		if m.IsError {
			head += " (failed)"
		}
		if !full && len(text) > resultChars {
			text = fmt.Sprintf("%s\n… (%d more characters; full: true shows them)", cutChars(text, resultChars), len(text)-len(cutChars(text, resultChars)))
		}
		text = head + "\n" + text
	}
	item.Text = text
	return item
}
