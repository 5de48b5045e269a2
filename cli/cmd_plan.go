package cli

import (
	"bufio"
	"fmt"
	"strings"

	"skein/internal/jsjson"
	"skein/internal/sanitize"
)

var planCommand = command{
	name: "session plan",
	args: "[--json] REF [--leaf ID] [--keep-tokens N]",
	help: "what a compaction would summarize",
	run:  (*cli).plan,
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
		_, err := fmt.Fprintf(c.stdout, "%s\n", p.JSON())
		return err
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	if p == nil {
		fmt.Fprintln(w, s.NothingToCompact(l, keep))
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
		fmt.Fprintf(w, "previous compaction:  %s (its summary is updated)\n", sanitize.Inline(s.Entry(p.PreviousCompaction).ID))
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
