package model

import (
	"strings"

	"skein/internal/utf8js"
)

// The pieces of a tree row's text that the formats without a /tree of
// their agent's own share: each format says which entry shows what (its
// TreeText), these say how a text, a call and a result read on one line.

var flatten = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// OneLine is text as a row shows it: line ends and tabs as spaces,
// trimmed, cut to 200 UTF-16 units.
func OneLine(t string) string { return utf8js.Slice16(strings.TrimSpace(flatten.Replace(t)), 200) }

// CallText is a tool call as a row shows it: "→ name argument", the call's
// KeyArgument with the home folder as ~.
func CallText(c ToolCall, home string) string {
	arg := KeyArgument(c.Input)
	if home != "" && strings.HasPrefix(arg, home) {
		arg = "~" + arg[len(home):]
	}
	return strings.TrimSpace("→ " + c.Name + " " + OneLine(arg))
}

// ResultPart is a tool result as a row shows it: its first line after
// "← ", or after "← error: " in the error role when the call failed.
func ResultPart(msg *Message) Part {
	first, _, _ := strings.Cut(strings.TrimSpace(msg.Text("\n")), "\n")
	if msg.IsError {
		return Part{Text: "← error: " + OneLine(first), Role: "error"}
	}
	return Part{Text: "← " + OneLine(first), Role: "muted"}
}

// ReplyParts appends a message's row text to parts: its text on one line,
// then its calls (CallText, joined by ", ", muted). hasText and hasCalls
// say what it had, for the format to say what a row with neither shows.
func ReplyParts(parts []Part, msg *Message, home string) (out []Part, hasText, hasCalls bool) {
	text := OneLine(msg.Text(" "))
	if text != "" {
		parts = append(parts, Part{Text: text})
	}
	var calls []string
	for _, c := range msg.ToolCalls() {
		calls = append(calls, CallText(c, home))
	}
	switch {
	case len(calls) > 0 && text != "":
		parts = append(parts, Part{Text: " " + strings.Join(calls, ", "), Role: "muted"})
	case len(calls) > 0:
		parts = append(parts, Part{Text: strings.Join(calls, ", "), Role: "muted"})
	}
	return parts, text != "", len(calls) > 0
}

// MessageParts is a message's row as the formats whose agent shows no tree
// of its own write it: an error as "error: " and its text; a tool's result
// as ResultPart; else "role: ", its text and its calls (ReplyParts), or,
// with neither, its first thinking muted after "(thinking) ", else "(no
// text)".
func MessageParts(msg *Message, role, home string) []Part {
	switch {
	case msg.Error != "":
		return []Part{{Text: "error: " + OneLine(msg.Error), Role: "error"}}
	case role == RoleToolResult:
		return []Part{ResultPart(msg)}
	}
	parts, hasText, hasCalls := ReplyParts([]Part{{Text: role + ": ", Role: role}}, msg, home)
	if !hasText && !hasCalls {
		for _, b := range msg.Blocks {
			if b.Type == BlockThinking {
				return append(parts, Part{Text: "(thinking) " + OneLine(b.Text), Role: "muted"})
			}
		}
		parts = append(parts, Part{Text: "(no text)", Role: "muted"})
	}
	return parts
}
