package main

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
	help: "the messages pi sends to the model",
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

func modelName(m *model.ModelRef) string {
	return sanitize.Inline(rawText(m.Provider)) + "/" + sanitize.Inline(rawText(m.ModelID))
}

func rawText(raw []byte) string {
	if s, ok := stringOf(raw); ok {
		return s
	}
	return string(raw)
}

func modelString(raw []byte, key string) string { return model.String(model.Member(raw, key)) }

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
