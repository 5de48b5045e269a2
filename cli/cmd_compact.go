package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"skein/internal/jsjson"
	"skein/internal/sanitize"
	"skein/model"
	"skein/summarize"
	"skein/workflow"
)

var compactCommand = command{
	name: "session compact",
	args: "REF [--leaf ID] [--keep-tokens N]\n[--summarizer llm|extractive] [--model PROVIDER/MODEL]\n[--instructions TEXT] [--dry-run] [--json]",
	help: "summarize the old part of the path and append a compaction entry (pi's; Dhara's over a range, then the archive move)",
	run:  (*cli).compact,
}

func (c *cli) compact(argv []string) error {
	var keep float64
	a, s, path, leafIdx, err := c.sessionArgs(argv, map[string]bool{"keep-tokens": true, "summarizer": true, "model": true,
		"instructions": true, "dry-run": false, "json": false}, func(a *args) (err error) {
		switch a.get("summarizer") {
		case "", "llm", "extractive":
		default:
			return usagef("--summarizer is llm or extractive, not %q", a.get("summarizer"))
		}
		keep, err = a.number("keep-tokens", 20000)
		return err
	}, false)
	if err != nil {
		return err
	}
	kind := a.get("summarizer")
	p := s.PlanCompaction(leafIdx, keep)
	if p == nil && leafIdx < 0 {
		return fail(1, "nothing to compact: %s has no entries", path)
	}
	if p == nil {
		return fail(1, "%s", s.NothingToCompact(leafIdx, keep))
	}
	var llm *summarize.Config
	if kind != "extractive" {
		cfg, err := summarize.FromEnv(a.get("model"))
		switch {
		case err == nil:
			llm = &cfg
		case kind == "llm":
			return fail(1, "%v", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var summary string
	var usage *model.Usage
	if llm != nil {
		if isTerminal(c.stderr) {
			fmt.Fprintf(c.stderr, "summarizing %d messages with %s…\n", len(p.MessagesToSummarize)+len(p.TurnPrefixMessages), sanitize.Inline(llm.Name()))
		}
		summary, usage, err = summarize.LLM(ctx, *llm, s, p, a.get("instructions"))
		if err != nil {
			return fail(1, "summarize: %v", err)
		}
	} else {
		summary = summarize.ExtractiveSummary(s, p)
	}
	entry := summarize.Entry(s, p, summary, usage)
	if a.has("dry-run") {
		if a.has("json") {
			_, err := fmt.Fprintf(c.stdout, "%s\n", entry.JSON(""))
			return err
		}
		fmt.Fprintf(c.stdout, "would append a compaction after %s (dry run: nothing written)\n\n%s\n", sanitize.Inline(s.Entry(leafIdx).ID), sanitize.Text(entry.Summary))
		return nil
	}
	id, err := workflow.Compact(path, s, p, summary, usage, a.has("leaf"), c.waitNote())
	if err != nil {
		return refused(err)
	}
	if a.has("json") {
		_, err := fmt.Fprintf(c.stdout, "%s\n", entry.JSON(id))
		return err
	}
	fmt.Fprintf(c.stdout, "compacted: %s tokens before, kept from %s; wrote compaction %s\n", jsjson.FormatNumber(p.TokensBefore), sanitize.Inline(p.FirstKeptEntryID), sanitize.Inline(id))
	return nil
}
