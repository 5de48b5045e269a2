package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"skein/export"
	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
	"skein/store/convert"
	"skein/summarize"
	"skein/tui/transcript"
	"skein/workflow"
)

// actionDoneMsg reports a write: a note for the status line, a session to
// read again, a session the list gains or loses.
type actionDoneMsg struct {
	status  string
	err     error
	reload  string      // a session file to read again
	relist  *store.Info // its list record, read again in the background
	added   *store.Info // a new session (a fork) for the list
	removed string      // a session file gone to the trash
	dialog  Dialog      // a note to show
	w       *writing    // the write this ends, if one

	// imported are the sessions an import wrote or found: listed, the
	// first selected and opened.
	imported []store.Info
	// goOn is an action asked of a read-only session, to go on with on the
	// copy its import wrote or found.
	goOn *goOn
}

// goOn is an action to go on with on an imported copy: the copy opened
// from the original's screen, at the entry the action was asked at, and
// the action's key pressed again there, which opens its dialog.
type goOn struct {
	from  string // the original's path: the screen the person asked on
	copy  store.Info
	entry string // the entry's id, kept by the import
	key   tea.KeyPressMsg
}

func done(status string, err error) actionDoneMsg { return actionDoneMsg{status: status, err: err} }

// writing is a write under way in the background. The footer says so until
// it ends; meanwhile every key works as usual, so none is lost. A write may
// take seconds: an append waits for a line that an agent is still writing.
type writing struct {
	what    string // "writing the label"
	waiting bool   // it waits for another writer's line to end
	// importing: an import of a file (i), which a second waits for.
	importing bool
}

// writeStartedMsg says a write began; what it says next comes on next.
type writeStartedMsg struct {
	w    *writing
	next <-chan tea.Msg
}

// writeWaitingMsg says a write waits for another writer's line to end.
type writeWaitingMsg struct {
	w    *writing
	next <-chan tea.Msg
}

// startWrite runs a write in the background with a busy state: work gets
// the option that reports a wait and returns what it did.
func startWrite(what string, work func(onWait store.WriteOption) actionDoneMsg) tea.Cmd {
	return func() tea.Msg {
		w := &writing{what: what}
		ch := make(chan tea.Msg, 2)
		go func() {
			msg := work(store.OnWait(func() { ch <- writeWaitingMsg{w, ch} }))
			msg.w = w
			if msg.reload != "" {
				// The list's record, here and not in Update: it reads the file.
				msg.relist = listRecord(msg.reload)
			}
			ch <- msg
		}()
		return writeStartedMsg{w, ch}
	}
}

// listRecord is the list's record of one session file, or nil.
func listRecord(path string) *store.Info {
	in, _ := listRecordWhy(path)
	return in
}

// listRecordWhy is listRecord, and why there is none for a file that is
// there.
func listRecordWhy(path string) (*store.Info, error) {
	files, err := store.Discover([]string{path})
	if err != nil {
		return nil, nil
	}
	infos, problems := store.List(files, nil)
	if len(infos) == 1 {
		return &infos[0], nil
	}
	if len(problems) > 0 {
		return nil, problems[0].Err
	}
	return nil, nil
}

// nextWrite waits for what a write says next.
func nextWrite(ch <-chan tea.Msg) tea.Cmd { return func() tea.Msg { return <-ch } }

// entryLine is one line saying what an entry is, for dialogs, with the
// session's tree view (any filter: the text of an entry is the same).
func entryLine(v *model.TreeView, i int, home string) string {
	var b strings.Builder
	for _, p := range v.EntryText(i, home) {
		b.WriteString(p.Text)
	}
	return truncate(transcript.OneLine(b.String()), 90)
}

// forkDialog asks before forking at entry at: enter forks at it (pi's
// /clone of a branch), b before it when it is a user message (pi's /fork,
// the command line's --before).
func forkDialog(path string, s *model.Session, v *model.TreeView, at int, home string) Dialog {
	n := len(s.Path(at))
	body := fmt.Sprintf("Fork at: %s\n\n"+store.WordingOf(store.Of(s.Info)).Fork, entryLine(v, at, home), n)
	user := s.Entry(at).IsMessage(model.RoleUser) && s.Parent(at) >= 0
	if user {
		body += fmt.Sprintf("\n\nOr b: fork before this user message (%d entries), to ask it again differently, as pi's /fork does.", n-1)
	}
	fork := func(before bool) tea.Cmd {
		return startWrite("writing the fork", func(store.WriteOption) actionDoneMsg {
			f, err := workflow.Fork(path, s, at, before)
			if err != nil {
				return done("", err)
			}
			return forkedMsg(store.Of(s.Info), f)
		})
	}
	d := confirmDialog("Fork from this entry?", body, func(string) tea.Cmd { return fork(false) })
	if user {
		d.hint = "enter/y: fork at it · b: fork before it · esc/n: no"
		d.keys = []dialogKey{{DefaultKeyMap().ForkBefore, func() tea.Cmd { return fork(true) }, true}}
	}
	return d
}

// forkedMsg says a fork was written, with the dialog that offers to resume
// it in pi or to copy the command that does.
func forkedMsg(b store.Backend, f workflow.Forked) actionDoneMsg {
	if f.SameSession {
		// A new branch of the same session (Dhara's): the session is read
		// again, opening on the branch.
		msg := actionDoneMsg{status: "forked: the new branch " + f.Branch + " (from " + f.ParentBranch + ")", reload: f.Path}
		if f.Message != "" {
			msg.dialog = infoDialog("Forked", "The new branch "+sanitize.Inline(f.Branch)+" ends before the message:\n\n"+f.Message)
		}
		return msg
	}
	msg := actionDoneMsg{status: "forked into " + f.Path, added: listRecord(f.Path)}
	// The fork is of its source's format, whose backend b is.
	cwd := ""
	if msg.added != nil {
		cwd = msg.added.Cwd
	}
	line := resumeCommand(b, f.Path, cwd)
	agent, _ := store.ResumeOf(b, f.Path)
	body := fmt.Sprintf("%s copied into\n%s\n\nIt is listed under this session, and selected there. Resume it in %s with:\n\n  %s", transcript.Count(f.Entries, "entry", "entries"), sanitize.Inline(f.Path), agent, sanitize.Inline(line))
	if f.Message != "" {
		body += "\n\nThe message it was forked before, to send again or change:\n\n" + f.Message
	}
	d := infoDialog("Forked", body)
	d.hint = "o: open it · P: resume it in " + agent + " · y: copy the command · esc: close"
	k := DefaultKeyMap()
	d.keys = []dialogKey{
		{k.CopyCommand, func() tea.Cmd { return tea.Batch(tea.SetClipboard(line), status("command copied")) }, false},
		{k.Resume, func() tea.Cmd { return resume(b, f.Path, cwd) }, true},
	}
	if in := msg.added; in != nil {
		// The fork as the list has it, opened as enter on its row would.
		open := *in
		d.keys = append(d.keys, dialogKey{k.OpenNew, func() tea.Cmd {
			return func() tea.Msg { return openMsg{info: &open} }
		}, true})
	} else {
		d.hint = strings.TrimPrefix(d.hint, "o: open it · ")
	}
	msg.dialog = d
	return msg
}

// labelDialog sets or clears the label of entry i.
func labelDialog(path string, s *model.Session, v *model.TreeView, i int, home string) Dialog {
	cur, _ := s.Label(i)
	id := s.Entry(i).ID
	return inputDialog("Label", "Entry: "+entryLine(v, i, home)+"\n\nAn empty label clears it.", cur, func(v string) tea.Cmd {
		return startWrite("writing the label", func(onWait store.WriteOption) actionDoneMsg {
			_, err := workflow.Label(path, id, strings.TrimSpace(v), onWait)
			if err != nil {
				return done("", err)
			}
			note := "label set"
			if strings.TrimSpace(v) == "" {
				note = "label cleared"
			}
			return actionDoneMsg{status: note, reload: path}
		})
	})
}

// renameDialog names the session.
func renameDialog(path, format, current string) Dialog {
	note := store.WordingOf(store.ForFormat(store.Format(format))).Rename
	return inputDialog("Rename the session", note, current, func(v string) tea.Cmd {
		return startWrite("writing the name", func(onWait store.WriteOption) actionDoneMsg {
			if _, err := workflow.Rename(path, v, onWait); err != nil {
				return done("", err)
			}
			return actionDoneMsg{status: "renamed", reload: path}
		})
	})
}

// deleteDialog moves a session to the trash.
func deleteDialog(info *store.Info, env store.Env, home string) Dialog {
	what := store.WordingOf(store.Of(*info)).Delete
	body := fmt.Sprintf("%s\n%s\n\n%s", transcript.OneLine(title(info)), shortPath(info.Path, home), what)
	path := info.Path
	return confirmDialog("Move this session to the trash?", body, func(string) tea.Cmd {
		return startWrite("moving to the trash", func(store.WriteOption) actionDoneMsg {
			t, err := workflow.Delete(path, env)
			if err != nil {
				return done("", err)
			}
			return actionDoneMsg{status: "moved to the trash: " + t.File, removed: path}
		})
	})
}

// ---- compaction -----------------------------------------------------------------

// compactProgressMsg streams a summary's progress; the last one carries the
// summary or the error.
type compactProgressMsg struct {
	chars   int
	summary string
	usage   *model.Usage // what the model's summary cost; nil for an extractive one
	err     error
	final   bool
	next    <-chan compactProgressMsg
}

// compaction holds a compaction being made in the TUI.
type compaction struct {
	path string
	s    *model.Session
	view *model.TreeView // the session's, to describe entries
	leaf int             // the entry the compaction goes after
	// asked is the entry the action was asked at (the one in focus);
	// branches says the compaction starts a new branch after it, which
	// the dialog says before anything is written.
	asked    int
	branches bool
	keep     float64
	plan     *model.Plan
	llm      *summarize.Config
	cancel   context.CancelFunc
	// want is the keep last asked for, shared by the plans of one dialog: a
	// plan for another keep is stale (the person pressed - or + again before
	// it came). replan marks a plan asked for from the dialog.
	want   *float64
	replan bool
	// dropped says the person cancelled while the first plan was made.
	dropped *bool
	nothing string // why there is nothing to compact at all
	// What the dialog says of the path, counted with the plan (not in
	// Update: a long path has many messages): the tokens it keeps,
	// estimated from their text, and the context's, as the plan's
	// tokens before count them (one figure in both dialogs).
	kept       int
	pathTokens float64
}

// planCompaction plans in the background, as `session plan` does, keeping
// about keep tokens, a compaction asked for at entry asked: after the leaf
// when asked stands for it (workflow.CompactAt), else after asked, on a
// new branch the dialog names. The dialog it returns, to open at once,
// says the plan is being made (a long path takes a moment): esc there
// drops it, and other keys wait for the plan's dialog (c then enter
// summarizes).
func planCompaction(path string, s *model.Session, view *model.TreeView, asked int, keep float64, home string) (Dialog, tea.Cmd) {
	want, dropped := keep, false
	leaf, branches := workflow.CompactAt(s, asked)
	c := &compaction{path: path, s: s, view: view, leaf: leaf, asked: asked, branches: branches, keep: keep, want: &want, dropped: &dropped}
	busy := infoDialog("Compaction", "Planning the compaction at: "+c.atLine(home)+"…")
	busy.waits, busy.hint = true, "esc: cancel"
	busy.cancel = func() tea.Cmd {
		dropped = true
		return status("compaction cancelled: nothing written")
	}
	return busy, planFor(c)
}

// planFor plans c (path, session, leaf, keep and want set).
func planFor(c *compaction) tea.Cmd {
	return func() tea.Msg {
		p := c.s.PlanCompaction(c.leaf, c.keep)
		if p == nil && (c.leaf < 0 || c.leaf >= c.s.Len() || c.s.Entry(c.leaf).Kind == model.EntryCompaction) {
			c.nothing = c.s.NothingToCompact(c.leaf, c.keep)
			return planMsg{c}
		}
		// With nothing to summarize at this budget (pi says "Nothing to
		// compact"), the dialog says so and - can keep fewer tokens.
		c.plan, c.llm = p, configuredLLM()
		if p != nil {
			c.kept = c.s.KeptTokens(p)
		} else {
			c.pathTokens = workflow.ContextTokens(c.s, c.leaf)
		}
		return planMsg{c}
	}
}

// replanWith asks for the plan keeping the tokens f makes of the keep last
// asked for, so that presses made faster than plans come each count.
func (c *compaction) replanWith(f func(keep float64) float64) tea.Cmd {
	*c.want = f(*c.want)
	return planFor(&compaction{path: c.path, s: c.s, view: c.view, leaf: c.leaf, asked: c.asked, branches: c.branches, keep: *c.want, want: c.want, replan: true})
}

// atLine names the entry the compaction was asked at, as every action's
// dialog names its entry.
func (c *compaction) atLine(home string) string {
	if c.asked < 0 || c.asked >= c.s.Len() {
		return "nothing selected"
	}
	return entryLine(c.view, c.asked, home)
}

// where says where the compaction goes: at the end of the branch the
// agent resumes, or on a new branch after an earlier entry.
func (c *compaction) where(home string) string {
	at := "At: " + c.atLine(home) + "\n"
	switch {
	case c.branches:
		return at + "This entry is not the end of its branch: the compaction starts a new branch after it, and what follows it stays on the old one. Select the last message to compact the branch itself.\n\n"
	case c.leaf == c.s.Leaf():
		return at + "The end of the branch the agent resumes: the compaction is appended there.\n\n"
	}
	return at + "The end of a branch that is not the session's latest: the compaction is appended there, and the agent resumes from it.\n\n"
}

// planDialog shows the plan: what is summarized and what kept, the split
// turn named, tokens before and after.
func (c *compaction) planDialog(home string, start func() tea.Cmd) Dialog {
	s, p := c.s, c.plan
	km := DefaultKeyMap()
	var d *confirmBox
	replan := func(f func(keep float64) float64) func() tea.Cmd {
		return func() tea.Cmd {
			// The keys typed until the new plan comes are its dialog's:
			// - then enter summarizes what the new plan says.
			d.waits = true
			return c.replanWith(f)
		}
	}
	keys := []dialogKey{
		{km.KeepFewer, replan(func(k float64) float64 { return math.Floor(k / 2) }), false},
		{km.KeepMore, replan(func(k float64) float64 { return max(k*2, 100) }), false},
	}
	if p == nil {
		body := c.where(home) + s.NothingToCompact(c.leaf, c.keep) + ", as pi would say."
		if c.pathTokens > 0 {
			body += " Context: " + transcript.Tokens(c.pathTokens) + " tokens (as pi counts them: the last reply's usage, and an estimate of what followed)."
		}
		body += "\n\nKeep about " + keepTokens(c.keep) + " (- fewer, + more)."
		d = confirmDialog("Nothing to compact", body, func(string) tea.Cmd {
			return status("nothing to compact: nothing written")
		})
		d.hint = "-/+: keep fewer/more tokens · esc: close"
		d.keys = keys
		return d
	}
	kept := c.kept
	var b strings.Builder
	b.WriteString(c.where(home))
	fmt.Fprintf(&b, "Keep about %s (- fewer, + more).\n", keepTokens(c.keep))
	fmt.Fprintf(&b, "Summarize %d messages", len(p.MessagesToSummarize))
	if p.IsSplitTurn {
		fmt.Fprintf(&b, ", and the first %d messages of a turn too long to keep (a split turn: its start is summarized apart)", len(p.TurnPrefixMessages))
	}
	fmt.Fprintf(&b, ".\nKeep from: %s\n\n", entryLine(c.view, p.FirstKeptEntry, home))
	fmt.Fprintf(&b, "Context: %s tokens (as pi counts them: the last reply's usage, and an estimate of what followed). Kept: about %s, estimated from their text, plus the summary.\n", transcript.Tokens(p.TokensBefore), transcript.Tokens(float64(kept)))
	if p.PreviousCompaction >= 0 {
		b.WriteString("The previous compaction's summary is carried forward.\n")
	}
	if len(p.ReadFiles)+len(p.ModifiedFiles) > 0 {
		fmt.Fprintf(&b, "Files: %d read, %d modified.\n", len(p.ReadFiles), len(p.ModifiedFiles))
	}
	if c.llm != nil {
		fmt.Fprintf(&b, "\nSummarizer: %s (esc cancels while it writes).", c.llm.Name())
	} else if os.Getenv("SKEIN_SUMMARIZER") == "extractive" {
		b.WriteString("\nSummarizer: extractive, offline (SKEIN_SUMMARIZER=extractive).")
	} else {
		b.WriteString("\nSummarizer: extractive, offline (no model configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY).")
	}
	title := "Compact the branch?"
	if c.branches {
		title = "Compact on a new branch?"
	}
	d = confirmDialog(title, b.String(), func(string) tea.Cmd { return start() })
	d.hint = "enter: summarize · -/+: keep fewer/more tokens · esc: cancel"
	d.keys = keys
	return d
}

// summarize makes the summary in the background, streaming progress.
func (c *compaction) summarize() tea.Cmd {
	ch := make(chan compactProgressMsg, 64)
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	s, p := c.s, c.plan
	go func() {
		defer close(ch)
		if c.llm == nil {
			ch <- compactProgressMsg{summary: summarize.ExtractiveSummary(s, p), final: true}
			return
		}
		cfg := *c.llm
		n := 0
		cfg.OnDelta = func(t string) {
			n += len(t)
			select {
			case ch <- compactProgressMsg{chars: n}:
			default: // the UI is behind: it will see the next one
			}
		}
		sum, usage, err := summarize.LLM(ctx, cfg, s, p, "")
		ch <- compactProgressMsg{summary: sum, usage: usage, err: err, final: true}
	}()
	return waitCompact(ch)
}

func waitCompact(ch <-chan compactProgressMsg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		msg.next = ch
		return msg
	}
}

// reviewDialog shows the summary to edit before anything is written.
func (c *compaction) reviewDialog(summary string, usage *model.Usage) Dialog {
	p := c.plan
	files := summarize.FormatFileOperations(p.ReadFiles, p.ModifiedFiles)
	body := "Review and edit the summary. Nothing is written until ctrl+s."
	if files != "" {
		body += fmt.Sprintf(" The file lists (%d read, %d modified) are added after it, as pi adds them.", len(p.ReadFiles), len(p.ModifiedFiles))
	}
	path, s := c.path, c.s
	return editorDialog("Compaction summary", body, summary, func(edited string) tea.Cmd {
		return startWrite("writing the compaction", func(onWait store.WriteOption) actionDoneMsg {
			id, err := workflow.Compact(path, s, p, edited, usage, false, onWait)
			if err != nil {
				return done("", err)
			}
			return actionDoneMsg{status: "compaction " + id + " written", reload: path}
		})
	})
}

// configuredLLM is the model the environment names, or nil.
func configuredLLM() *summarize.Config {
	if os.Getenv("SKEIN_SUMMARIZER") == "extractive" {
		return nil
	}
	c, err := summarize.FromEnv("")
	if err != nil {
		return nil
	}
	return &c
}

// leftOutDialog lists the files and folders the list left out, and why.
func leftOutDialog(left []store.Problem, home string) Dialog {
	if len(left) == 0 {
		return infoDialog("Nothing left out", "Every file found is listed.")
	}
	var b strings.Builder
	for _, p := range left {
		why := p.Err.Error()
		var ns *store.NotSession
		if errors.As(p.Err, &ns) {
			why = "not a pi session: " + ns.Reason
		}
		fmt.Fprintf(&b, "%s: %s\n", shortPath(p.Path, home), why)
	}
	return infoDialog(transcript.Count(len(left), "file", "files")+" left out of the list", strings.TrimSuffix(b.String(), "\n"))
}

// problemsDialog lists what is wrong in the open session's file, as doctor
// says it.
func problemsDialog(path string, problems []model.Diagnostic, home string) Dialog {
	if len(problems) == 0 {
		return infoDialog("No problems", shortPath(path, home)+" reads cleanly.")
	}
	var b strings.Builder
	for _, d := range problems {
		if d.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s\n", shortPath(path, home), d.Line, d.Msg)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", shortPath(path, home), d.Msg)
		}
	}
	return infoDialog(transcript.Count(len(problems), "problem", "problems")+" in this file (skein doctor says the same)", strings.TrimSuffix(b.String(), "\n"))
}

// keepTokens is a token budget in words: "1 token", "20000 tokens".
func keepTokens(k float64) string {
	if k == 1 {
		return "1 token"
	}
	return transcript.Tokens(k) + " tokens"
}

// importFirstDialog offers, for a session of a format skein only reads, to
// import it into Dhara's store, where the action can be done: yes imports
// it (or finds where the same bytes went before), opens the copy at entry
// i and goes on with the action there (k, the action's key, pressed
// again), so that L then y ends in the label dialog, on the copy.
func importFirstDialog(s *model.Session, act store.Action, i int, k tea.KeyPressMsg) Dialog {
	agent := store.WordingOf(store.Of(s.Info)).Agent
	verb := actVerbs[act]
	body := fmt.Sprintf("%s sessions are read-only in skein (their agent writes them without a lock), so skein leaves them as they are (no %s).\n\nImport this one into Dhara's store, as a new session that keeps every message, call and result, then open the copy and %s it there? The original is not touched.", agent, act, verb)
	entry := ""
	if i >= 0 && i < s.Len() {
		entry = s.Entry(i).ID
	}
	from := s.Info.Path
	d := confirmDialog("Import it first?", body, func(string) tea.Cmd {
		return startWrite("importing the session", func(store.WriteOption) actionDoneMsg {
			dir, already, err := convert.ImportSession(s, store.OSEnv().DharaSessionRoot())
			if err != nil {
				return done("", err)
			}
			in, err := listRecordWhy(dir)
			if in == nil {
				if err == nil {
					err = fmt.Errorf("the import in %s is not listed", dir)
				}
				return done("", err)
			}
			// What the screen now is first: a narrow footer cuts the path.
			note := "this is the copy, imported into Dhara's store (the original is unchanged): " + dir
			if already {
				note = "this is the copy, imported before into Dhara's store (the original is unchanged): " + dir
			}
			return actionDoneMsg{status: note, goOn: &goOn{from: from, copy: *in, entry: entry, key: k}}
		})
	})
	d.hint = "enter/y: import, then " + verb + " the copy · esc/n: no"
	return d
}

// actVerbs are the actions as a dialog's verbs.
var actVerbs = map[store.Action]string{store.ActFork: "fork", store.ActCompact: "compact", store.ActLabel: "label",
	store.ActRename: "rename", store.ActDelete: "delete", store.ActResume: "resume"}

// exportDialog asks for the export's format (h, m, j: the key map's),
// then where to write it (exportPathDialog). Secrets are redacted unless
// k (keep secrets) was pressed, which shows the dialog again saying so.
func exportDialog(s *model.Session) Dialog { return exportDialogRedact(s, true) }

func exportDialogRedact(s *model.Session, redact bool) Dialog {
	k := DefaultKeyMap()
	choose := func(format, ext string) func() tea.Cmd {
		return func() tea.Cmd { return askExportPath(s, format, ext, redact) }
	}
	secrets := "Secrets (keys, tokens, passwords) are replaced with [REDACTED:KIND]; k keeps them."
	toggle := "k: keep secrets"
	if !redact {
		secrets = "Secrets are KEPT: the export holds every key and token the session does; k redacts them."
		toggle = "k: redact secrets"
	}
	d := confirmDialog("Export the session", "h: one HTML page (no network; every branch, collapsible calls)\nm: a markdown transcript of every branch\nj: Dhara's JSON (meta, entries, tree)\n\n"+secrets+"\n\nThen you say where the file goes.", func(string) tea.Cmd { return askExportPath(s, "html", "html", redact) })
	d.hint = "h/enter: html · m: markdown · j: json · " + toggle + " · esc: cancel"
	d.keys = []dialogKey{
		{k.ExportHTML, choose("html", "html"), true},
		{k.ExportJSON, choose("json", "json"), true},
		{k.ExportMarkdown, choose("markdown", "md"), true},
		{k.ExportKeepSecrets, func() tea.Cmd {
			return func() tea.Msg { return openDialogMsg{exportDialogRedact(s, !redact)} }
		}, true},
	}
	return d
}

// askExportPath opens the dialog of the export's path, its default found
// here, in a command (it looks at folders): export.Folder (Downloads or
// home, never in a git work tree), named after the session's title and
// day.
func askExportPath(s *model.Session, format, ext string, redact bool) tea.Cmd {
	return func() tea.Msg {
		name := export.SessionFileName(s, ext, time.Local)
		path := filepath.Join(export.Folder(store.OSEnv().Home), name)
		return openDialogMsg{exportPathDialog(s, format, path, redact)}
	}
}

// exportPathDialog takes the export's path, ready to edit; enter writes
// it, and a file there is replaced only after a yes.
func exportPathDialog(s *model.Session, format, path string, redact bool) Dialog {
	title := "Export as " + format
	if !redact {
		title += ", secrets kept"
	}
	d := inputDialog(title, "Write the export to (~ is your home folder):", path, func(value string) tea.Cmd {
		return writeExport(s, format, value, false, redact)
	})
	d.hint = "enter: write · esc: cancel"
	return d
}

// writeExport writes the export to path (~ expanded, relative to the
// folder skein was started in); a file of the user's there is replaced
// only when replace says so, else it asks.
func writeExport(s *model.Session, format, path string, replace, redact bool) tea.Cmd {
	return startWrite("exporting the session", func(store.WriteOption) actionDoneMsg {
		env := store.OSEnv()
		path = strings.TrimSpace(path)
		if path == "" || strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
			return done("", errors.New("no file named to export to"))
		}
		path = env.Expand(path, env.WorkingDirPath)
		exists, err := env.CheckOutput(path)
		if err != nil {
			return done("", err)
		}
		if exists && !replace {
			ask := confirmDialog("Replace the file?", sanitize.Inline(path)+" exists. Replace it with the export?", func(string) tea.Cmd {
				return writeExport(s, format, path, true, redact)
			})
			return actionDoneMsg{dialog: ask}
		}
		secrets := ""
		err = store.WriteOutput(path, exists, store.OutputMode(s.Info.Path), func(w io.Writer) error {
			secrets, err = export.As(w, s, format, export.Options{AllBranches: true, Location: time.Local, Redact: redact}, time.Now())
			return err
		})
		if err != nil {
			return done("", err)
		}
		body := "The session is written to\n\n  " + sanitize.Inline(path)
		switch {
		case secrets != "":
			body += "\n\nSecrets: " + secrets
		case !redact:
			body += "\n\nIts secrets are kept."
		}
		d := infoDialog("Exported", body)
		d.hint = "y: copy the path · esc: close"
		d.keys = []dialogKey{{DefaultKeyMap().CopyCommand, func() tea.Cmd {
			return tea.Batch(tea.SetClipboard(path), status("path copied"))
		}, true}}
		return actionDoneMsg{status: "exported to " + path, dialog: d}
	})
}
