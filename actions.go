package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"time"

	"skein/internal/jsjson"
	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
	"skein/store/pi"
	"skein/summarize"
	"skein/tui/transcript"
	"skein/workflow"
)

// waitNote tells a person at a terminal why an append takes a while.
func (c *cli) waitNote() pi.WriteOption {
	return pi.OnWait(func() {
		if isTerminal(c.stderr) {
			fmt.Fprintln(c.stderr, "waiting while another program finishes writing the session's last line (up to 10 s)…")
		}
	})
}

// refused turns the store's refusal into exit status 1 with its reason.
func refused(err error) error {
	var r *pi.RefusedError
	if errors.As(err, &r) {
		return fail(1, "%s", r.Reason)
	}
	return err
}

func (c *cli) fork(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"at": true, "before": false, "json": false})
	if err != nil {
		return err
	}
	ref, err := a.one("REF")
	if err != nil {
		return err
	}
	if !a.has("at") {
		return usagef("fork needs --at ID (the entry to fork at)")
	}
	s, path, err := c.open(ref, false)
	if err != nil {
		return err
	}
	at, ok := s.Index(a.get("at"))
	if !ok {
		return fail(1, "%s has no entry %q", path, a.get("at"))
	}
	f, err := workflow.Fork(path, s, at, a.has("before"))
	if err != nil {
		return refused(err)
	}
	text := f.Message
	if a.has("json") {
		out := []byte(`{"path":`)
		out = jsjson.AppendString(out, f.Path)
		out = append(out, `,"parentSession":`...)
		out = jsjson.AppendString(out, f.ParentSession)
		out = append(out, `,"id":`...)
		out = jsjson.AppendString(out, f.ID)
		if a.has("before") {
			out = append(out, `,"message":`...)
			out = jsjson.AppendString(out, text)
		}
		_, err := fmt.Fprintf(c.stdout, "%s}\n", out)
		return err
	}
	fmt.Fprintf(c.stdout, "forked %d entries into %s\nresume it with: pi --session %s\n", f.Entries, sanitize.Inline(f.Path), sanitize.Inline(sanitize.ShellQuote(f.Path)))
	if a.has("before") {
		fmt.Fprintf(c.stdout, "the message it stops before:\n%s\n", sanitize.Text(text))
	}
	return nil
}

func (c *cli) label(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{})
	if err != nil {
		return err
	}
	if len(a.pos) < 2 || len(a.pos) > 3 {
		return usagef("label needs REF ID [TEXT] (no TEXT clears the label)")
	}
	path, err := store.Resolve(a.pos[0], c.env.DefaultRoots())
	if err != nil {
		return err
	}
	text := ""
	if len(a.pos) == 3 {
		text = a.pos[2]
	}
	if _, err := pi.Label(path, a.pos[1], text, c.waitNote()); err != nil {
		return refused(err)
	}
	if text == "" {
		fmt.Fprintf(c.stdout, "cleared the label of %s\n", sanitize.Inline(a.pos[1]))
	} else {
		fmt.Fprintf(c.stdout, "labelled %s %q\n", sanitize.Inline(a.pos[1]), text)
	}
	return nil
}

func (c *cli) rename(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{})
	if err != nil {
		return err
	}
	if len(a.pos) != 2 {
		return usagef("rename needs REF NAME")
	}
	path, err := store.Resolve(a.pos[0], c.env.DefaultRoots())
	if err != nil {
		return err
	}
	if _, err := pi.Rename(path, a.pos[1], c.waitNote()); err != nil {
		return refused(err)
	}
	fmt.Fprintf(c.stdout, "renamed %s to %q\n", sanitize.Inline(path), pi.SessionName(a.pos[1]))
	return nil
}

func (c *cli) delete(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"json": false})
	if err != nil {
		return err
	}
	ref, err := a.one("REF")
	if err != nil {
		return err
	}
	path, err := store.Resolve(ref, c.env.DefaultRoots())
	if err != nil {
		return err
	}
	t, err := store.Trash(path, c.env)
	if err != nil {
		return fail(1, "%v", err)
	}
	if a.has("json") {
		out := []byte(`{"path":`)
		out = jsjson.AppendString(out, path)
		out = append(out, `,"trashed":`...)
		out = jsjson.AppendString(out, t.File)
		out = append(out, `,"trashInfo":`...)
		out = jsjson.AppendString(out, t.Info)
		_, err := fmt.Fprintf(c.stdout, "%s}\n", out)
		return err
	}
	fmt.Fprintf(c.stdout, "moved %s to the trash (%s)\n", sanitize.Inline(path), sanitize.Inline(t.File))
	return nil
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
		return fail(1, "%s", model.NothingToCompact(s, leafIdx, keep))
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
	var usage []byte
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
		fmt.Fprintf(c.stdout, "would append a compaction after %s (dry run: nothing written)\n\n%s\n", sanitize.Inline(s.Entries[leafIdx].ID), sanitize.Text(entry.Summary))
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

func (c *cli) replay(argv []string) error {
	var speed float64
	a, s, _, l, err := c.sessionArgs(argv, map[string]bool{"speed": true, "no-delay": false}, func(a *args) (err error) {
		if speed, err = a.number("speed", 1); err != nil || speed <= 0 {
			return usagef("--speed wants a number above 0 (0.5 is half speed, 16 sixteen times)")
		}
		return nil
	}, false)
	if err != nil {
		return err
	}
	o, w := c.styledOutput()
	defer w.Flush()
	steps := s.Replay(l)
	for i, st := range steps {
		if !a.has("no-delay") {
			w.Flush()
			time.Sleep(model.ReplayDelay(steps, i, speed))
		}
		clock := "[" + model.ReplayClock(steps, i) + "] "
		fmt.Fprintf(w, "%s%s\n\n", o.Dim(clock), transcript.RenderItem(s, transcript.ReplayItem(st), o))
	}
	return nil
}
