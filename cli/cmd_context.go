package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"skein/internal/sanitize"
	"skein/model"
	"skein/tui/transcript"
)

var contextCommand = command{
	name: "session context",
	args: "[--json] REF [--leaf ID]",
	help: "the messages the agent resumes with (pi's, or Dhara's entries)",
	run:  (*cli).context,
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
		name = sanitize.Inline(ctx.Model.Name())
	}
	fmt.Fprintf(w, "%d messages, model %s, thinking %s\n", len(ctx.Messages), name, sanitize.Inline(ctx.Thinking()))
	for _, m := range ctx.Messages {
		msg := s.Message(m)
		fmt.Fprintf(w, "%s  %s  %6d tok  %s\n", transcript.Pad(sanitize.Inline(s.Entry(m.Entry).ID), 8), transcript.Pad(sanitize.Inline(msg.Role), 17), s.MessageTokens(m),
			transcript.Truncate(sanitize.Line(preview(&msg)), 70))
	}
	return nil
}

// preview is a message's first text, for one-line listings.
func preview(m *model.Message) string {
	for _, s := range []string{m.Summary, m.Command} {
		if s != "" {
			return s
		}
	}
	var out []string
	for _, b := range m.Blocks {
		switch {
		case b.Type == model.BlockText:
			out = append(out, b.Text)
		case b.Type == model.BlockToolCall:
			out = append(out, "→ "+b.Call.Name+" "+model.KeyArgument(b.Call.Input))
		}
	}
	return strings.Join(out, " ")
}
