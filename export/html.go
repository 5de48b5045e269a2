package export

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"io"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/sanitize"
	"skein/model"
)

// The page's only style and script, emitted byte for byte as embedded:
// the Content-Security-Policy names each by the hash of these bytes, so
// that nothing else (no markup a session could smuggle in, no attribute
// handler) may run or style the page.
var (
	//go:embed htmlassets/page.css
	pageCSS string
	//go:embed htmlassets/page.js
	pageJS string
)

// htmlCSP allows the page's own script and style and data: images, and
// nothing else: no network, no other script, no base or form target.
var htmlCSP = "default-src 'none'; script-src '" + cspHash(pageJS) + "'; style-src '" + cspHash(pageCSS) +
	"'; img-src data:; base-uri 'none'; form-action 'none'"

func cspHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}

// HTML writes the session as one self-contained page: every branch of it
// (Branches(s, true); o.AllBranches changes nothing, the selector holds
// them all), the resumed one shown and a selector for the others, each
// message rendered on the server so that the page shows without running
// anything (a session of 10,000 messages is 10,000 elements the browser
// lays out only as they scroll into view). Tool calls, results and
// thinking are collapsible, fenced code is highlighted, images are data:
// URIs when they are images of a known type with valid base64 and
// placeholders otherwise. Session text is sanitized (control characters
// made visible) and escaped everywhere, never put in an attribute, and
// never a link.
func HTML(w io.Writer, s *model.Session, o Options) error {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	p := planPage(s)
	secrets := ""
	if o.Redact {
		secrets = counted(s, slices.Concat(p.segs...)).Summary()
		s, _ = s.Redacted()
	}
	r := newRenderer(w, s, loc)
	defer r.stop()
	hw := &htmlWriter{s: s, loc: loc}
	hw.head(p, secrets)
	hw.raw("<main>\n")
	if len(p.branches) == 0 {
		hw.raw(`<p class="empty">This session has no messages.</p>` + "\n")
	}
	for k := range p.branches {
		hw.segmentStart(p, k)
		for a := 0; a < len(p.segs[k]); a += chunkMessages {
			r.static(hw)
			r.messages(p.segs[k][a:min(a+chunkMessages, len(p.segs[k]))], p.first[k]+a)
		}
		hw.raw("</div>\n")
	}
	hw.raw("</main>\n<script>")
	hw.raw(pageJS)
	hw.raw("</script>\n</body>\n</html>\n")
	r.static(hw)
	return r.finish()
}

// chunkMessages is how many messages a worker renders at a time.
const chunkMessages = 256

// renderer renders the page's messages on every core, a chunk at a time,
// and writes the chunks (and the markup between them) in order, holding
// no more than a few chunks per core.
type renderer struct {
	w       io.Writer
	err     error
	jobs    chan renderJob
	pending []chan rendered // oldest first
	free    chan []byte
	workers int
	started bool
	s       *model.Session
	loc     *time.Location
}

type renderJob struct {
	msgs  []model.ContextMessage
	first int // the id of the first
	out   chan rendered
}

type rendered struct {
	b     []byte
	panic any // a worker's panic, raised again by the writer
}

func newRenderer(w io.Writer, s *model.Session, loc *time.Location) *renderer {
	n := max(1, runtime.GOMAXPROCS(0))
	return &renderer{w: w, s: s, loc: loc, workers: n, jobs: make(chan renderJob), free: make(chan []byte, 6*n)}
}

// static queues the markup hw holds, and empties it.
func (r *renderer) static(hw *htmlWriter) {
	if len(hw.b) == 0 {
		return
	}
	c := make(chan rendered, 1)
	c <- rendered{b: hw.b}
	hw.b = nil
	r.push(c)
}

// messages queues a chunk of messages for a worker (none once a write
// failed: the page is lost).
func (r *renderer) messages(msgs []model.ContextMessage, first int) {
	if r.err != nil {
		return
	}
	if !r.started {
		r.started = true
		for range r.workers {
			go r.work()
		}
	}
	c := make(chan rendered, 1)
	r.push(c)
	r.jobs <- renderJob{msgs: msgs, first: first, out: c}
}

func (r *renderer) push(c chan rendered) {
	r.pending = append(r.pending, c)
	if len(r.pending) > 4*r.workers {
		r.pop()
	}
}

// pop writes the oldest piece, once it is rendered.
func (r *renderer) pop() {
	c := r.pending[0]
	r.pending = r.pending[1:]
	x := <-c
	if x.panic != nil {
		panic(x.panic)
	}
	if r.err == nil {
		_, r.err = r.w.Write(x.b)
	}
	select {
	case r.free <- x.b[:0]:
	default:
	}
}

func (r *renderer) work() {
	for j := range r.jobs {
		var b []byte
		select {
		case b = <-r.free:
		default:
		}
		j.out <- r.render(j, b)
	}
}

func (r *renderer) render(j renderJob, b []byte) (x rendered) {
	defer func() {
		if p := recover(); p != nil {
			x = rendered{panic: p}
		}
	}()
	hw := &htmlWriter{b: b, s: r.s, loc: r.loc, n: j.first}
	for _, cm := range j.msgs {
		msg := r.s.Message(cm)
		hw.message(&msg)
	}
	return rendered{b: hw.b}
}

// finish writes what is queued.
func (r *renderer) finish() error {
	for len(r.pending) > 0 {
		r.pop()
	}
	return r.err
}

// stop ends the workers (the page done, or a panic on its way up).
func (r *renderer) stop() {
	if r.started {
		close(r.jobs)
		r.started = false
	}
}

// page is what the page shows: the branches, and for each the messages
// of its own segment (the entries no branch before it holds), which the
// page renders once; a branch is shown as the segments of its chain, the
// last of them cut at the entry it forks from.
type page struct {
	branches []Branch
	segs     [][]model.ContextMessage
	first    []int      // the id of each segment's first message
	chains   [][]string // per branch: "3" a whole segment, "3:41" up to message 41
	shown    []int      // per branch: the messages it shows
}

func planPage(s *model.Session) *page {
	p := &page{branches: Branches(s, true)}
	n := len(p.branches)
	p.segs = make([][]model.ContextMessage, n)
	p.first = make([]int, n)
	p.chains = make([][]string, n)
	p.shown = make([]int, n)
	if n == 0 {
		return p
	}
	owner := make([]int32, s.Len()) // 1 + the segment an entry is in
	pos := make([]int32, s.Len())   // its position on its branch's path
	next := 0
	for k, br := range p.branches {
		for q := br.ForkAt + 1; q < len(br.Path); q++ {
			owner[br.Path[q]], pos[br.Path[q]] = int32(k+1), int32(q)
		}
		for _, m := range s.BuildHistory(br.Leaf).Messages {
			if m.Entry >= 0 && m.Entry < len(owner) && owner[m.Entry] == int32(k+1) {
				p.segs[k] = append(p.segs[k], m)
			}
		}
		p.first[k] = next
		next += len(p.segs[k])
		own := strconv.Itoa(k)
		if br.ForkAt < 0 {
			p.chains[k] = []string{own}
			p.shown[k] = len(p.segs[k])
			continue
		}
		fork := br.Path[br.ForkAt]
		j := int(owner[fork]) - 1
		if j < 0 || j >= k {
			p.chains[k] = []string{own}
			p.shown[k] = len(p.segs[k])
			continue
		}
		// The messages of segment j up to the fork: those of entries at
		// or before it on the path (BuildHistory keeps the path's order).
		seg := p.segs[j]
		keep := sort.Search(len(seg), func(i int) bool { return pos[seg[i].Entry] > pos[fork] })
		chain := append([]string(nil), p.chains[j][:len(p.chains[j])-1]...)
		if keep > 0 {
			chain = append(chain, cutAt(j, p.first[j]+keep-1))
		}
		p.chains[k] = append(chain, own)
		p.shown[k] = p.shown[j] - len(seg) + keep + len(p.segs[k])
	}
	return p
}

func cutAt(seg, msg int) string { return strconv.Itoa(seg) + ":" + strconv.Itoa(msg) }

// htmlWriter writes the page; every piece of session text goes through
// text, out or inline.
type htmlWriter struct {
	b     []byte // the page so far
	s     *model.Session
	loc   *time.Location
	n     int    // the id of the next message
	tb    []byte // scratch for numbers
	aside []byte // scratch for what is written before where it goes
}

// raw writes the page's own markup.
func (w *htmlWriter) raw(s string) { w.b = append(w.b, s...) }

// head writes the page's top; secrets, when the page is redacted, says
// what was removed.
func (w *htmlWriter) head(p *page, secrets string) {
	s := w.s
	title := shorten(sanitize.Line(Title(s)), 200) // its name, else its first prompt's line
	w.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"")
	w.raw(htmlCSP)
	w.raw("\">\n<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
	w.esc(title)
	w.raw("</title>\n<style>")
	w.raw(pageCSS)
	w.raw("</style>\n</head>\n<body>\n<header>\n<h1>")
	w.esc(title)
	w.raw("</h1>\n<ul class=\"facts\">")
	fact := func(label, value string) {
		w.raw("<li>")
		w.raw(label)
		w.raw(" ")
		w.inline(value)
		w.raw("</li>")
	}
	fact("Session", s.Info.ID)
	if f := s.Info.Format; f != "" {
		fact("Format", f)
	}
	if s.Info.Cwd != "" {
		fact("Folder", s.Info.Cwd)
	}
	if _, ok := jsdate.ISO(s.Info.Created); ok && s.Info.Created > 0 {
		fact("Created", time.UnixMilli(int64(s.Info.Created)).In(w.loc).Format("2006-01-02 15:04:05 MST"))
	}
	if secrets != "" {
		fact("Secrets", secrets)
	}
	if len(p.branches) > 0 {
		// The session's messages and branches as its stats and the screens
		// count them, not the lines of its pages (a compaction's summary is
		// one) nor the paths it draws (a sub-agent's is one; two Dhara
		// branches at one entry are one).
		st := s.Stats()
		fact("Messages", strconv.Itoa(st.Messages))
		if st.Leaves > 1 {
			fact("Branches", strconv.Itoa(st.Leaves))
		}
	}
	w.raw("</ul>\n</header>\n")
	if len(p.branches) < 2 {
		return
	}
	w.raw("<nav><div><label for=\"branch\">Branch</label><select id=\"branch\" autocomplete=\"off\">")
	for k, br := range p.branches {
		w.raw("<option value=\"")
		w.int(k)
		w.raw("\" data-segs=\"")
		w.raw(strings.Join(p.chains[k], " "))
		if k == 0 {
			w.raw("\" selected>")
		} else {
			w.raw("\">")
		}
		w.raw("Branch ")
		w.int(k + 1)
		switch {
		case k == 0:
			w.raw(" · the path resumed")
		case br.ForkAt < 0:
			w.raw(" · from a root of its own")
		default:
			w.raw(" · from ")
			w.inline(s.Entry(br.Path[br.ForkAt]).ID)
		}
		w.raw(" · ")
		w.int(p.shown[k])
		w.raw(" messages")
		if pv := w.preview(p.segs[k]); pv != "" {
			w.raw(" · ")
			w.esc(pv)
		}
		w.raw("</option>")
	}
	w.raw("</select></div></nav>\n")
}

// preview is the last prompt of a segment, shortened, for the selector.
func (w *htmlWriter) preview(seg []model.ContextMessage) string {
	for i := len(seg) - 1; i >= 0; i-- {
		if w.s.Entry(seg[i].Entry).IsMessage(model.RoleUser) {
			m := w.s.Message(seg[i])
			return shorten(sanitize.Line(m.Text(" ")), 80)
		}
	}
	return ""
}

// shorten cuts s to at most n bytes at a rune boundary, with an ellipsis.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// segmentStart opens a branch's own section: hidden unless it is the
// resumed branch's, with the entry it forks from.
func (w *htmlWriter) segmentStart(p *page, k int) {
	w.raw("<div class=\"seg\" id=\"s")
	w.int(k)
	if k > 0 {
		w.raw("\" hidden>\n")
	} else {
		w.raw("\">\n")
	}
	if br := p.branches[k]; br.ForkAt >= 0 {
		w.raw("<div class=\"fork\">Branch ")
		w.int(k + 1)
		w.raw(" continues after entry ")
		w.inline(w.s.Entry(br.Path[br.ForkAt]).ID)
		w.raw("</div>\n")
	}
}

func (w *htmlWriter) message(msg *model.Message) {
	cls := "other"
	switch msg.Role {
	case model.RoleUser, model.RoleAssistant, model.RoleCustom, model.RoleSystem:
		cls = msg.Role
		if msg.Injected {
			cls = "context" // the agent's, not the user's words
		}
	case model.RoleToolResult:
		cls = "result"
	case model.RoleBashExecution:
		cls = "bash"
	case model.RoleCompactionSummary, model.RoleBranchSummary:
		cls = "summary"
	}
	w.raw("<article class=\"m ")
	w.raw(cls)
	if msg.IsError || msg.Error != "" {
		w.raw(" error")
	}
	w.raw("\" id=\"m")
	w.int(w.n)
	w.n++
	w.raw("\">")
	switch msg.Role {
	case model.RoleCompactionSummary:
		w.raw("<div class=\"h\"><b>compaction</b>")
		if msg.TokensBefore > 0 {
			w.raw(" <span>")
			w.raw(strconv.FormatFloat(msg.TokensBefore, 'f', -1, 64))
			w.raw(" tokens before</span>")
		}
		w.when(msg)
		w.raw("</div><div class=\"note\">The messages before this point were summarized:</div>")
		w.markdown(msg.Summary)
	case model.RoleBranchSummary:
		w.raw("<div class=\"h\"><b>branch summary</b>")
		w.when(msg)
		w.raw("</div><div class=\"note\">A branch left behind, summarized:</div>")
		w.markdown(msg.Summary)
	case model.RoleToolResult:
		w.result(msg)
	default:
		w.raw("<div class=\"h\"><b>")
		role, added := msg.Role, ""
		if msg.Injected {
			role, added = "context", "added by the agent"
		}
		w.inline(role)
		w.raw("</b>")
		for _, x := range [...]string{added, msg.CustomType, msg.Model} {
			if x != "" {
				w.raw(" <span>")
				w.inline(x)
				w.raw("</span>")
			}
		}
		w.when(msg)
		w.raw("</div>")
		w.blocks(msg.Blocks, msg.Role == model.RoleAssistant && !msg.Injected)
		w.extras(msg)
	}
	w.raw("</article>\n")
}

// when writes the message's time in the head, if it has one.
func (w *htmlWriter) when(msg *model.Message) {
	if !msg.HasTime {
		return
	}
	w.raw(" <span>")
	w.b = appendTime(w.b, time.UnixMilli(int64(msg.Time)).In(w.loc))
	w.raw("</span>")
}

// appendTime appends t as 2006-01-02 15:04:05 (AppendFormat, without
// reading a layout each time: a page has a time per message).
func appendTime(b []byte, t time.Time) []byte {
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, "2006-01-02 15:04:05")
	}
	two := func(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }
	b = two(two(b, y/100), y%100)
	b = two(append(b, '-'), int(mo))
	b = two(append(b, '-'), d)
	b = two(append(b, ' '), h)
	b = two(append(b, ':'), mi)
	return two(append(b, ':'), sec)
}

// blocks writes a message's blocks; md says its text is the assistant's
// markdown, rendered, and not text as typed.
func (w *htmlWriter) blocks(blocks []model.Block, md bool) {
	prose := w.prose
	if md {
		prose = w.markdown
	}
	for i := range blocks {
		b := &blocks[i]
		switch b.Type {
		case model.BlockText:
			prose(b.Text)
		case model.BlockThinking:
			w.raw("<details class=\"think\"><summary>thinking</summary>")
			prose(b.Text)
			w.raw("</details>")
		case model.BlockToolCall:
			w.call(&b.Call)
		case model.BlockImage:
			w.image(b)
		default:
			if b.Text != "" {
				prose(b.Text)
			} else {
				w.raw("<span class=\"ph\">[")
				w.inline(b.Name)
				w.raw(" block]</span>")
			}
		}
	}
}

// extras are what a message holds besides its blocks: a command and its
// output, an error, a summary, a system prompt's sections.
func (w *htmlWriter) extras(msg *model.Message) {
	if msg.Command != "" {
		w.raw("<pre class=\"cmd\">$ ")
		w.out(msg.Command)
		w.raw("</pre>")
	}
	var notes []string
	if msg.ExitCode != "" && msg.ExitCode != "0" {
		notes = append(notes, "exit code "+msg.ExitCode)
	}
	if msg.Cancelled {
		notes = append(notes, "cancelled")
	}
	if msg.Excluded {
		notes = append(notes, "not sent to the model")
	}
	if msg.Hidden {
		notes = append(notes, "not shown to the user")
	}
	if r := stopNote(msg.StopReason); r != "" {
		notes = append(notes, r)
	}
	if len(notes) > 0 {
		w.raw("<div class=\"note\">")
		w.inline(strings.Join(notes, " · "))
		w.raw("</div>")
	}
	if msg.Output != "" {
		w.collapsible("res", "output", msg.Output, false)
	}
	if msg.Error != "" {
		w.raw("<div class=\"x err\">")
		w.text(strings.Trim(msg.Error, "\n"))
		w.raw("</div>")
	}
	if msg.Summary != "" {
		w.prose(msg.Summary)
	}
	for _, sec := range msg.Sections {
		w.raw("<details class=\"sec\"><summary><b>")
		w.inline(sec.Name)
		w.raw("</b>")
		if sec.Removed {
			w.raw(" · removed")
		}
		w.raw("</summary>")
		w.prose(sec.Text)
		w.raw("</details>")
	}
	for _, x := range []struct {
		label string
		names []string
	}{{"tools added: ", msg.ToolsAdded}, {"tools removed: ", msg.ToolsRemoved}} {
		if len(x.names) > 0 {
			w.raw("<div class=\"note\">")
			w.raw(x.label)
			w.inline(strings.Join(x.names, ", "))
			w.raw("</div>")
		}
	}
}

// stopNote is what a message's stop reason tells a reader: nothing for a
// turn that ended as turns do (pi's stop and toolUse, Claude's end_turn
// and tool_use, OpenAI's tool_calls...), else why it stopped.
func stopNote(reason string) string {
	switch strings.ToLower(reason) {
	case "", "stop", "tooluse", "tool_use", "end_turn", "tool_calls", "function_call", "stop_sequence", "finish_reason_unspecified":
		return ""
	case "length", "max_tokens":
		return "stopped: the answer reached its length limit"
	}
	return "stopped: " + reason
}

// collapsible writes a program's output in a <details>, open when it is
// short.
func (w *htmlWriter) collapsible(class, label, text string, isErr bool) {
	text = strings.Trim(sanitize.Output(text), "\n")
	lines := strings.Count(text, "\n") + 1
	w.raw("<details class=\"")
	w.raw(class)
	if lines <= 3 {
		w.raw("\" open>")
	} else {
		w.raw("\">")
	}
	w.raw("<summary><b>")
	w.raw(label)
	w.raw("</b> · ")
	w.int(lines)
	if lines == 1 {
		w.raw(" line")
	} else {
		w.raw(" lines")
	}
	if isErr {
		w.raw(" · <span class=\"err\">error</span>")
	}
	w.raw("</summary><pre class=\"out\">")
	w.esc(text)
	w.raw("</pre></details>")
}

// result writes a tool's result: its text in a collapsible block under a
// head naming the tool, its images after it.
func (w *htmlWriter) result(msg *model.Message) {
	w.raw("<div class=\"h\"><b>result</b>")
	if msg.ToolName != "" {
		w.raw(" <span>")
		w.inline(msg.ToolName)
		w.raw("</span>")
	}
	w.when(msg)
	w.raw("</div>")
	var texts []string
	var rest []model.Block
	for _, b := range msg.Blocks {
		if b.Type == model.BlockText {
			texts = append(texts, b.Text)
		} else {
			rest = append(rest, b)
		}
	}
	if len(texts) > 0 || len(rest) == 0 {
		text := ""
		if len(texts) == 1 {
			text = texts[0]
		} else {
			text = strings.Join(texts, "\n")
		}
		w.collapsible("res", "output", text, msg.IsError)
	}
	w.blocks(rest, false)
	w.extras(msg)
}

// call writes a tool call: its name and the start of its first argument
// in the summary, each argument (strings as their text) in the body.
func (w *htmlWriter) call(c *model.ToolCall) {
	w.raw("<details class=\"call\"><summary><b>")
	if c.Name != "" {
		w.inline(c.Name)
	} else {
		w.raw("tool call")
	}
	w.raw("</b>")
	// The arguments are written first, aside, for the summary to hold the
	// first string among them.
	var first string
	page := w.b
	w.b = w.aside[:0]
	switch {
	case len(c.Input) > 0 && c.Input[0] == '{' && jscan.Valid(c.Input):
		n := 0
		jscan.Fields(c.Input, func(k, v []byte) bool {
			val := string(v)
			if jscan.IsString(v) {
				if u, ok := jscan.Unquote(v); ok {
					val = u
					if first == "" {
						first = u
					}
				}
			}
			w.arg(n, jscan.Key(k), val)
			n++
			return true
		})
		if n == 0 {
			w.raw("(no arguments)")
		}
	case len(c.Input) > 0:
		w.arg(0, "input", string(c.Input))
	default:
		w.raw("(no arguments)")
	}
	w.aside, w.b = w.b, page
	if first != "" {
		w.raw(" · ")
		w.esc(shorten(sanitize.Line(first), 100))
	}
	w.raw("</summary><div class=\"note\">call ")
	w.inline(c.ID)
	w.raw("</div><pre class=\"in\">")
	w.b = append(w.b, w.aside...)
	w.raw("</pre></details>")
}

// arg writes argument n of a tool call: its name, and its value (a
// string's text, else its JSON) on the line or, when it has several, under.
func (w *htmlWriter) arg(n int, key, val string) {
	if n > 0 {
		w.raw("\n")
	}
	w.raw("<b>")
	w.inline(key)
	w.raw(":</b>")
	if strings.IndexByte(val, '\n') >= 0 {
		w.raw("\n")
	} else {
		w.raw(" ")
	}
	w.text(val)
}

// imageTypes are the image types shown as images; the page writes its
// own spelling of the type, never the session's.
var imageTypes = map[string]string{
	"image/png": "image/png", "image/jpeg": "image/jpeg", "image/jpg": "image/jpeg",
	"image/gif": "image/gif", "image/webp": "image/webp", "image/avif": "image/avif",
}

func (w *htmlWriter) image(b *model.Block) {
	mime, ok := imageTypes[strings.ToLower(b.MimeType)]
	if ok && b.Data != "" && validBase64(b.Data) {
		w.raw("<figure><img alt=\"image\" src=\"data:")
		w.raw(mime)
		w.raw(";base64,")
		w.raw(b.Data)
		w.raw("\"></figure>")
		return
	}
	w.raw("<span class=\"ph\">[image ")
	w.inline(shorten(b.MimeType, 60))
	w.raw(", ")
	w.int(b.DataLen)
	w.raw(" bytes of base64]</span>")
}

// validBase64 reports whether s is standard padded base64 (and so holds
// nothing that could leave the attribute it is written in).
func validBase64(s string) bool {
	if len(s)%4 != 0 {
		return false
	}
	end := len(s)
	for k := 0; k < 2 && end > 0 && s[end-1] == '='; k++ {
		end--
	}
	for i := 0; i < end; i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// prose writes a text block: its lines as they are, its fenced code
// (``` or ~~~, as CommonMark reads a fence) highlighted.
func (w *htmlWriter) prose(text string) {
	text = strings.Trim(sanitize.Text(text), "\n")
	if text == "" {
		return
	}
	sc := fenceScanner{text: text}
	start := 0 // the prose not yet written
	for f, ok := sc.nextFence(0); ok; f, ok = sc.nextFence(f.after) {
		if p := strings.Trim(text[start:f.open], "\n"); p != "" {
			w.raw("<div class=\"x\">")
			w.esc(p)
			w.raw("</div>")
		}
		// The fence's own lines stay, muted: the page holds every line
		// of the text.
		w.raw("<pre class=\"code\"><code><span class=\"f\">")
		w.esc(text[f.open:f.openEnd])
		w.raw("</span>\n")
		code := strings.TrimSuffix(text[f.body:f.bodyEnd], "\n")
		w.highlight(f.lang, code)
		if f.closed {
			if code != "" {
				w.raw("\n")
			}
			w.raw("<span class=\"f\">")
			w.esc(strings.TrimSuffix(text[f.bodyEnd:f.after], "\n"))
			w.raw("</span>")
		}
		w.raw("</code></pre>")
		start = f.after
	}
	if p := strings.Trim(text[start:], "\n"); p != "" {
		w.raw("<div class=\"x\">")
		w.esc(p)
		w.raw("</div>")
	}
}

// text writes multi-line session text, escaped.
func (w *htmlWriter) text(s string) { w.esc(sanitize.Text(s)) }

// out writes a program's output, escaped.
func (w *htmlWriter) out(s string) { w.esc(sanitize.Output(s)) }

// inline writes a value that stays on its line (an id, a name), escaped.
func (w *htmlWriter) inline(s string) { w.esc(sanitize.Inline(s)) }

func (w *htmlWriter) int(n int) {
	w.tb = strconv.AppendInt(w.tb[:0], int64(n), 10)
	w.b = append(w.b, w.tb...)
}

// esc writes s with the five characters that can mean markup in text or
// in an attribute as character references.
func (w *htmlWriter) esc(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if k := escapes[s[i]]; k != 0 {
			w.b = append(w.b, s[last:i]...)
			w.b = append(w.b, escaped[k]...)
			last = i + 1
		}
	}
	w.b = append(w.b, s[last:]...)
}

var (
	escapes = [256]uint8{'<': 1, '>': 2, '&': 3, '"': 4, '\'': 5}
	escaped = [...]string{"", "&lt;", "&gt;", "&amp;", "&#34;", "&#39;"}
)
