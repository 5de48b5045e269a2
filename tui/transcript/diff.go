package transcript

import (
	"fmt"
	"strings"
	"time"

	"skein/model"
)

// DiffLineKind says what a line of a comparison's text is, for a screen
// that styles them and moves between differences.
type DiffLineKind uint8

const (
	DiffPlain   DiffLineKind = iota
	DiffHeading              // a part's heading
	DiffMessage              // a message only one side has: Side and Entry say which
	DiffFile                 // a file's heading
	DiffRemoved              // a diff's line of the left side
	DiffAdded                // a diff's line of the right side
)

// DiffLine is one line of a comparison as text: sanitized, one line.
type DiffLine struct {
	Kind  DiffLineKind
	Text  string
	Side  int // 0 left, 1 right; for a message
	Entry int // the message's entry
}

// EntryName is how a comparison names an entry: its id cut to eight
// characters, or its index when it has none.
func EntryName(s *model.Session, i int) string {
	if i < 0 {
		return "(none)"
	}
	if id := s.Entry(i).ID; id != "" {
		return model.ShortID(id)
	}
	return fmt.Sprintf("#%d", i)
}

// MessageLine is a message in one line: its role, its text's first words
// and its tool calls with their key argument.
func MessageLine(s *model.Session, i int) string {
	m := s.EntryMessage(i)
	parts := []string{}
	if t := m.Text(" "); t != "" {
		parts = append(parts, OneLine(t))
	} else if m.Summary != "" {
		parts = append(parts, OneLine(m.Summary))
	}
	for _, c := range m.ToolCalls() {
		parts = append(parts, strings.TrimSpace(c.Name+" "+OneLine(model.KeyArgument(c.Input))))
	}
	role := m.Role
	if m.Injected {
		role += " (context)" // the agent's, not the user's words, as the tree says
	}
	if m.IsError {
		role += " (error)"
	}
	return role + ": " + strings.Join(parts, " · ")
}

// DiffSummary is the shared part in one line: how much both sides share
// and where they part.
func DiffSummary(d *model.Diff) string {
	if d.Shared == 0 {
		return "nothing shared: the two differ from their first message"
	}
	what := fmt.Sprintf("%d entries (%d messages)", d.Shared, d.SharedMessages)
	if !d.SameSession {
		what = fmt.Sprintf("%d messages", d.Shared)
	}
	at := EntryName(d.Left.Session, d.Left.LastCommon)
	if !d.SameSession {
		at += " / " + EntryName(d.Right.Session, d.Right.LastCommon)
	}
	if len(d.Left.Messages) == 0 && len(d.Right.Messages) == 0 {
		return fmt.Sprintf("shared: %s, up to %s: no difference in messages", what, at)
	}
	last := Truncate(MessageLine(d.Left.Session, d.Left.LastCommon), 60)
	return fmt.Sprintf("shared: %s, diverging after %s %s", what, at, last)
}

// DiffText is a comparison as lines for people: where the two diverge,
// then each side's messages and calls, the files with their diffs, and
// each side's tokens, cost and time. home shortens paths.
func DiffText(d *model.Diff, home string) []DiffLine {
	var out []DiffLine
	add := func(k DiffLineKind, f string, a ...any) {
		out = append(out, DiffLine{Kind: k, Text: fmt.Sprintf(f, a...)})
	}
	names := [2]string{"left", "right"}
	sides := [2]*model.DiffSide{&d.Left, &d.Right}
	for k, sd := range sides {
		add(DiffPlain, "%-5s  %s @ %s", names[k], Flat(shortPath(sd.Session.Info.Path, home)), EntryName(sd.Session, sd.Leaf))
	}
	add(DiffPlain, "%s", DiffSummary(d))
	for k, sd := range sides {
		add(DiffHeading, "── %s only: %s, %s", names[k], plural(len(sd.Messages), "message"), plural(len(sd.Calls), "tool call"))
		for _, i := range sd.Messages {
			out = append(out, DiffLine{Kind: DiffMessage, Side: k, Entry: i,
				Text: "  " + EntryName(sd.Session, i) + "  " + MessageLine(sd.Session, i)})
		}
		if failed := failedCalls(sd.Calls); failed > 0 {
			add(DiffPlain, "  (%d of the calls failed)", failed)
		}
	}
	add(DiffHeading, "── files: %d changed after the shared part", len(d.Files))
	for _, f := range d.Files {
		add(DiffFile, "%s", Flat(shortPath(f.Path, home)))
		add(DiffPlain, "  left:  %s", FileStateText(f.Left))
		add(DiffPlain, "  right: %s", FileStateText(f.Right))
		for _, l := range strings.Split(strings.TrimRight(f.Diff, "\n"), "\n") {
			switch {
			case l == "":
				continue
			case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
				add(DiffRemoved, "  %s", Flat(l))
			case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
				add(DiffAdded, "  %s", Flat(l))
			default:
				add(DiffPlain, "  %s", Flat(l))
			}
		}
	}
	add(DiffHeading, "── totals after the shared part")
	add(DiffPlain, "%-10s %14s %14s", "", "left", "right")
	row := func(name string, f func(sd *model.DiffSide) string) {
		add(DiffPlain, "%-10s %14s %14s", name, f(&d.Left), f(&d.Right))
	}
	row("messages", func(sd *model.DiffSide) string { return fmt.Sprint(sd.Totals.Messages) })
	row("tool calls", func(sd *model.DiffSide) string { return fmt.Sprint(sd.Totals.ToolCalls) })
	row("tokens", func(sd *model.DiffSide) string { return Tokens(sd.Totals.Tokens()) })
	row("cost", func(sd *model.DiffSide) string { return model.CostText(sd.Totals.UsageTotals, Cost) })
	row("active", func(sd *model.DiffSide) string { return Active(sd.Totals.Active) })
	row("span", func(sd *model.DiffSide) string { return span(sd.First, sd.Last) })
	return out
}

// FileStateText says what a side left of a file.
func FileStateText(f *model.FileState) string {
	switch {
	case f == nil:
		return "not changed"
	case f.Deleted:
		return "deleted"
	case f.Known:
		return fmt.Sprintf("%s, %s (%s)", plural(strings.Count(f.Content, "\n"), "line"), plural(len(f.Content), "byte"), plural(f.Calls, "call"))
	}
	return fmt.Sprintf("edited, content unknown (%s)", plural(f.Calls, "call"))
}

func failedCalls(cs []model.DiffCall) int {
	n := 0
	for _, c := range cs {
		if c.Failed {
			n++
		}
	}
	return n
}

// span is the time from first to last, "-" when not known.
func span(first, last float64) string {
	if !(last >= first) {
		return "-"
	}
	return Active(time.Duration(last-first) * time.Millisecond)
}

// shortPath puts ~ for home.
func shortPath(p, home string) string {
	if home != "" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}
