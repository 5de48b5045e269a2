package cli

import (
	"bufio"
	"fmt"
	"runtime/debug"
	"time"

	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
	"skein/tui/transcript"

	"github.com/charmbracelet/x/ansi"
)

var listCommand = command{
	name:    "session list",
	aliases: []string{"ls"},
	args:    "[--json] [PATH...]",
	help:    "every session, newest first",
	run:     (*cli).list,
}

func (c *cli) list(argv []string) (err error) {
	// What a list keeps is small (a record a session, the index); what it
	// drops is most of what it reads: a tighter limit keeps the peak low
	// (10,000 sessions: 131 → 70 MB) for a few collections more.
	if oneShotLimit != 0 {
		oneShotLimit = 48 << 20
		debug.SetMemoryLimit(oneShotLimit)
	}
	a, files, unreadable, err := c.pathArgs(argv)
	if err != nil {
		return err
	}
	update, clear := c.progress()
	w0, p0 := store.ListReads()
	infos, problems := store.List(files, update)
	clear()
	if debugIndex() {
		w1, p1 := store.ListReads()
		fmt.Fprintf(c.stderr, "list index: %d of %d files read whole, %d from where the index stopped\n", w1-w0, len(files), p1-p0)
	}
	defer c.warnUnreadable(&err, append(unreadable, problems...))
	w := bufio.NewWriterSize(c.stdout, 64<<10)
	defer w.Flush()
	if a.has("json") {
		buf := []byte{'['}
		for i := range infos {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, '\n')
			buf = infos[i].AppendJSON(buf)
			if len(buf) > 32<<10 {
				w.Write(buf)
				buf = buf[:0]
			}
		}
		if len(infos) > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, "]\n"...)
		w.Write(buf)
		return nil
	}
	if len(infos) == 0 {
		fmt.Fprintln(w, "no sessions found")
		return nil
	}
	now := time.Now()
	ids := make([]string, len(infos))
	for i := range infos {
		ids[i] = infos[i].ID
	}
	short := model.ShortIDs(ids)
	idW := 8 // as wide as the longest id shown
	for _, s := range short {
		idW = max(idW, ansi.StringWidth(sanitize.Inline(s)))
	}
	for i := range infos {
		in := &infos[i]
		title := in.Name
		if title == "" {
			title = in.FirstMessage
		}
		// Columns by display width, not bytes: a wide character is two.
		fmt.Fprintf(w, "%s  %8s  %4d msgs  %s  %s\n", transcript.Pad(sanitize.Inline(short[i]), idW),
			transcript.RelTime(now, in.Modified), in.MessageCount,
			transcript.Pad(transcript.Truncate(sanitize.Inline(transcript.ShortPath(in.Cwd, c.env.Home)), 28), 28),
			transcript.Truncate(sanitize.Line(title), 60))
	}
	return nil
}
