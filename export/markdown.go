// Package export turns a session of any format into something to share:
// Dhara's model as JSON, a markdown transcript, a self-contained HTML page.
// Session text becomes no markup it did not mean: the assistant's markdown
// stays markdown (safemd.go says what is made text), what a person typed
// or a program wrote reads as it was (fenced, or escaped where it would
// make markup), and in HTML everything else is escaped.
package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"skein/internal/jsdate"
	"skein/internal/sanitize"
	"skein/model"
)

// Options say what an export holds.
type Options struct {
	// AllBranches exports every branch; otherwise the path to the leaf the
	// session resumes at.
	AllBranches bool
	// Location is the time zone of the times shown (nil: UTC).
	Location *time.Location
	// Redact replaces the secrets in the session's text (model's
	// Session.Redacted) and says at the top how many of each kind.
	Redact bool
}

// Branch is one path of a session to export: the entries from the root to
// Leaf, and where it leaves the branch before it (-1 for the first).
type Branch struct {
	Leaf, ForkAt int
	Path         []int
}

// Branches are the paths an export shows: the resumed one first, then the
// other leaves', each with the entry it forks from.
func Branches(s *model.Session, all bool) []Branch {
	leaf := s.Leaf()
	if leaf < 0 {
		return nil
	}
	out := []Branch{{Leaf: leaf, ForkAt: -1, Path: s.Path(leaf)}}
	if !all {
		return out
	}
	shown := map[int]bool{}
	for _, i := range out[0].Path {
		shown[i] = true
	}
	for _, i := range s.BranchEnds() {
		if i == leaf {
			continue
		}
		path := s.Path(i)
		fork := -1
		for k, j := range path {
			if !shown[j] {
				break
			}
			fork = k
		}
		for _, j := range path {
			shown[j] = true
		}
		out = append(out, Branch{Leaf: i, ForkAt: fork, Path: path})
	}
	return out
}

// Markdown writes a readable transcript of the session: a heading, then
// each message of the path (or of every branch) with its time, tool calls
// and results in fenced blocks that session text cannot close, thinking
// in <details>, images as placeholders and compactions with their summary.
func Markdown(w io.Writer, s *model.Session, o Options) error {
	bw := bufio.NewWriter(w)
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	branches := Branches(s, o.AllBranches)
	shown := make([][]model.ContextMessage, len(branches))
	for k, br := range branches {
		shown[k] = shownMessages(s, br.Leaf, br.Path[br.ForkAt+1:])
	}
	secrets := ""
	if o.Redact {
		secrets = counted(s, slices.Concat(shown...)).Summary()
		s, _ = s.Redacted()
	}
	fmt.Fprintf(bw, "# %s\n\n", inlineText(shorten(Title(s), 200)))
	facts := []string{"Session: " + s.Info.ID}
	if f := s.Info.Format; f != "" {
		facts = append(facts, "Format: "+f)
	}
	if s.Info.Cwd != "" {
		facts = append(facts, "Folder: "+s.Info.Cwd)
	}
	if t, ok := jsdate.ISO(s.Info.Created); ok {
		facts = append(facts, "Created: "+t)
	}
	if o.Redact {
		facts = append(facts, "Secrets: "+secrets)
	}
	for _, f := range facts {
		fmt.Fprintf(bw, "- %s\n", inlineText(f))
	}
	bw.WriteString("\n")
	for k, br := range branches {
		if len(branches) > 1 {
			if br.ForkAt < 0 {
				fmt.Fprintf(bw, "## Branch %d: the path resumed, to %s\n\n", k+1, inlineText(s.Entry(br.Leaf).ID))
			} else {
				fmt.Fprintf(bw, "## Branch %d: from %s, to %s\n\n", k+1, inlineText(s.Entry(br.Path[br.ForkAt]).ID), inlineText(s.Entry(br.Leaf).ID))
			}
		}
		writeMessages(bw, s, shown[k], loc)
	}
	return bw.Flush()
}

// writeMessages writes the messages of a branch.
func writeMessages(bw *bufio.Writer, s *model.Session, msgs []model.ContextMessage, loc *time.Location) {
	results := map[string]bool{}
	for _, m := range msgs {
		msg := s.Message(m)
		head := msg.Role
		if msg.Injected {
			head = "context · added by the agent" // not the user's words
		}
		switch msg.Role {
		case model.RoleCompactionSummary:
			fmt.Fprintf(bw, "> **Compaction.** The messages before this point were summarized:\n>\n")
			for _, l := range strings.Split(markdownOf(msg.Summary), "\n") {
				fmt.Fprintf(bw, "> %s\n", l)
			}
			bw.WriteString("\n")
			continue
		case model.RoleToolResult:
			results[msg.ToolCallID] = true
			head = "tool result"
			if msg.ToolName != "" {
				head += " · " + msg.ToolName
			}
			if msg.IsError {
				head += " · error"
			}
		}
		if msg.Model != "" {
			head += " · " + msg.Model
		}
		if msg.HasTime {
			head += " · " + time.UnixMilli(int64(msg.Time)).In(loc).Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(bw, "### %s\n\n", inlineText(head))
		// The assistant's words are markdown; anyone else's are text.
		prose := plainText
		if msg.Role == model.RoleAssistant || msg.Role == model.RoleBranchSummary {
			prose = func(t string) string { return block(markdownOf(t)) }
		}
		for _, b := range msg.Blocks {
			switch b.Type {
			case model.BlockText:
				if msg.Role == model.RoleToolResult {
					fenced(bw, "", b.Text)
				} else {
					bw.WriteString(prose(b.Text))
				}
			case model.BlockThinking:
				bw.WriteString("<details><summary>thinking</summary>\n\n")
				bw.WriteString(prose(b.Text))
				bw.WriteString("</details>\n\n")
			case model.BlockToolCall:
				fmt.Fprintf(bw, "**Tool call** %s (%s)\n\n", inlineText(b.Call.Name), inlineText(b.Call.ID))
				fenced(bw, "json", string(b.Call.Input))
			case model.BlockImage:
				bw.WriteString(plainText(fmt.Sprintf("[image %s, %d bytes of base64]", b.MimeType, b.DataLen)))
			default:
				if b.Text != "" {
					bw.WriteString(prose(b.Text))
				} else {
					bw.WriteString(plainText("[" + b.Name + " block]"))
				}
			}
		}
		for _, x := range []struct{ label, text string }{{"Command", msg.Command}, {"Output", msg.Output}, {"Error", msg.Error}} {
			if x.text != "" {
				fmt.Fprintf(bw, "**%s**\n\n", x.label)
				fenced(bw, "", x.text)
			}
		}
		if msg.Summary != "" {
			bw.WriteString(prose(msg.Summary))
		}
	}
}

// shownMessages are the history's messages at leaf of the entries in
// path: what a branch of the export shows.
func shownMessages(s *model.Session, leaf int, path []int) []model.ContextMessage {
	on := make(map[int]bool, len(path))
	for _, i := range path {
		on[i] = true
	}
	var out []model.ContextMessage
	for _, m := range s.BuildHistory(leaf).Messages {
		if on[m.Entry] {
			out = append(out, m)
		}
	}
	return out
}

// fenced writes text in a fenced code block whose fence is longer than any
// run of backticks in it, so that the text cannot close it.
func fenced(bw *bufio.Writer, info, text string) {
	text = sanitize.Output(text)
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	fmt.Fprintf(bw, "%s%s\n%s\n%s\n\n", fence, info, strings.TrimRight(text, "\n"), fence)
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// paragraphs is prose as markdown that reads as the text and nothing else:
// each line escaped, lines kept with hard breaks, blank lines as paragraph
// breaks.
func paragraphs(text string) string {
	text = sanitize.Text(text)
	var b strings.Builder
	lines := strings.Split(strings.Trim(text, "\n"), "\n")
	for k, l := range lines {
		if strings.TrimSpace(l) == "" {
			if k > 0 && strings.TrimSpace(lines[k-1]) != "" {
				b.WriteString("\n")
			}
			continue
		}
		b.WriteString(escapeLine(l))
		if k+1 < len(lines) && strings.TrimSpace(lines[k+1]) != "" {
			// A hard line break: a backslash, but two spaces after an
			// escaped backslash (goldmark then misreads an escape at the
			// start of the next line as markup).
			if strings.HasSuffix(l, "\\") {
				b.WriteString("  ")
			} else {
				b.WriteString("\\")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

// block is a piece of markdown as a block of the page: a blank line after.
func block(md string) string {
	if md == "" {
		return ""
	}
	return md + "\n\n"
}

// escapeLine escapes a line so that CommonMark (and GFM's extensions) read
// it as its text: each ASCII punctuation character that can begin or end
// markup backslash-escaped (CommonMark allows it for each; those that
// never can, , ; : ' " ? % $ @ ^, stay as they are, but a line's first
// ':'; with . and / escaped no autolink can form), and leading spaces and tabs as character
// references, so that no indentation makes a code block.
func escapeLine(l string) string {
	var b strings.Builder
	lead := true
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case lead && c == ' ':
			b.WriteString("&#32;")
			continue
		case lead && c == '\t':
			b.WriteString("&#9;")
			continue
		}
		// A line's first ':' would begin a definition (the extension
		// GFM readers often add), so it is escaped there too.
		if isPunct(c) || lead && c == ':' {
			b.WriteByte('\\')
		}
		lead = false
		b.WriteByte(c)
	}
	return b.String()
}

func isPunct(c byte) bool {
	switch c {
	case ',', ';', ':', '\'', '"', '?', '%', '$', '@', '^':
		return false
	}
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
