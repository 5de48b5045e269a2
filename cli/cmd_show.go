package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"skein/internal/sanitize"
	"skein/tui/transcript"
)

var showCommand = command{
	name: "session show",
	args: "REF [--leaf ID] [--thinking] [--tools] [--width N]",
	help: "the conversation as readable text",
	run:  (*cli).show,
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
	fmt.Fprintf(w, "%s\n%s\n\n", sanitize.Line(title), sanitize.Inline(s.Info.Cwd))
	_, err = io.WriteString(w, transcript.Render(s, s.BuildContext(l), l, o))
	return err
}
