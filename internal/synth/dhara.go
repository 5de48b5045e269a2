package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// DharaSession writes a session folder dir in the Dhara folder format
// (store/dhara: meta.json, entries.jsonl, tree.json) holding the
// conversation that Session writes for the same cwd, size, start and seed:
// the same user messages, the same assistant thinking and text, the same
// tool calls (ids, names, arguments) and results, each entry at its pi
// entry's timestamp, so that a benchmark of the two formats compares like
// with like. The bytes are not the same: Dhara has a tool_call entry of
// its own for each call (named by toolName, its input the call's
// arguments, its parentMessageId the assistant message before it) and no
// parentId, and tree.json lists every id of each branch, so the folder is
// about 8% larger than the pi file (for 100 MB of pi: entries.jsonl
// 97.6 MB, tree.json 16 MB).
//
// Each assistant message of pi's that makes a call is a message entry with
// its thinking and text blocks (none when it had only the call), then the
// tool_call, then the tool_result; the ids are msg_, result_ and branch_
// followed by 16 hex digits (distinct by construction) and the calls keep
// pi's toolu_ ids. tree.json has branch_main with every entry of the
// conversation and, when the session is large enough, two forks near its
// end (one from branch_main's tip at about 96% of size, with a turn of its
// own, and one from a user message at about 98%, with another reply),
// both older than branch_main's last entry so that branch_main stays the
// active branch and its last entry the leaf. meta.json's id is dir's base
// name; it has no title (pi's file has no name either).
func DharaSession(dir, cwd string, size int64, start time.Time, seed uint64) error {
	return dharaSession(dir, cwd, size, start, seed, nil)
}

// DharaSessionVocab is DharaSession with its words drawn from v (the
// conversation of SessionVocab).
func DharaSessionVocab(dir, cwd string, size int64, start time.Time, seed uint64, v *Vocab) error {
	return dharaSession(dir, cwd, size, start, seed, v)
}

// dharaFork is a branch of tree.json other than branch_main: the first
// at entries of branch_main, then its own.
type dharaFork struct {
	id      string
	at      int
	own     []string
	created string
}

// dharaWriter turns pi's lines, one turn at a time, into Dhara entries.
type dharaWriter struct {
	w       *bufio.Writer
	seed    uint64
	n       uint64   // ids handed out
	main    []string // branch_main's entry ids
	forks   []dharaFork
	last    time.Time // branch_main's last entry's time
	lastTS  string
	user    int // the index in main of the last user message
	scratch []byte
	err     error
}

const isoMs = "2006-01-02T15:04:05.000Z"

// newID is prefix and 16 hex digits: a bijection of the counter, so no two
// ids of a session are the same.
func (d *dharaWriter) newID(prefix string) string {
	d.n++
	x := d.n + d.seed*0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	b := append(make([]byte, 0, len(prefix)+16), prefix...)
	for i := 60; i >= 0; i -= 4 {
		b = append(b, "0123456789abcdef"[x>>uint(i)&15])
	}
	return string(b)
}

// piLine is what a pi message line holds that the Dhara entries need.
type piLine struct {
	Timestamp string `json:"timestamp"`
	Message   struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Provider   string          `json:"provider"`
		Model      string          `json:"model"`
		Usage      json.RawMessage `json:"usage"`
		StopReason string          `json:"stopReason"`
		ToolCallID string          `json:"toolCallId"`
		IsError    bool            `json:"isError"`
	} `json:"message"`
}

type piBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// line writes one entry: its pieces, then a newline.
func (d *dharaWriter) line(parts ...string) {
	for _, p := range parts {
		d.w.WriteString(p)
	}
	d.w.WriteByte('\n')
}

func textBlock(b []byte, typ, text string) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","`...)
	b = append(b, typ...)
	b = append(b, `":`...)
	return append(b, q(text)...)
}

// onMain adds an entry of branch_main.
func (d *dharaWriter) onMain(id, ts string) {
	d.main = append(d.main, id)
	d.lastTS = ts
	if t, err := time.Parse(isoMs, ts); err == nil {
		d.last = t
	}
}

// convert writes the Dhara entries of one turn's pi lines.
func (d *dharaWriter) convert(lines []byte) {
	for len(lines) > 0 && d.err == nil {
		i := bytes.IndexByte(lines, '\n')
		if i < 0 {
			i = len(lines)
		}
		var l piLine
		if err := json.Unmarshal(lines[:i], &l); err != nil {
			d.err = fmt.Errorf("synth: a pi line of its own: %v", err)
			return
		}
		lines = lines[min(i+1, len(lines)):]
		m := &l.Message
		switch m.Role {
		case "user":
			var text string
			if err := json.Unmarshal(m.Content, &text); err != nil {
				d.err = err
				return
			}
			id := d.newID("msg_")
			d.user = len(d.main)
			d.line(`{"id":"`, id, `","type":"message","role":"user","content":[`, string(textBlock(d.scratch[:0], "text", text)), `}],"timestamp":"`, l.Timestamp, `"}`)
			d.onMain(id, l.Timestamp)
		case "assistant":
			var blocks []piBlock
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				d.err = err
				return
			}
			id := d.newID("msg_")
			b := append(d.scratch[:0], `{"id":"`...)
			b = append(b, id...)
			b = append(b, `","type":"message","role":"assistant","content":[`...)
			first := true
			for _, blk := range blocks {
				if blk.Type != "text" && blk.Type != "thinking" {
					continue
				}
				if !first {
					b = append(b, ',')
				}
				first = false
				text := blk.Text
				if blk.Type == "thinking" {
					text = blk.Thinking
				}
				b = append(textBlock(b, blk.Type, text), '}')
			}
			b = append(b, `],"provider":`...)
			b = append(b, q(m.Provider)...)
			b = append(b, `,"model":`...)
			b = append(b, q(m.Model)...)
			if len(m.Usage) > 0 {
				b = append(b, `,"usage":`...)
				b = append(b, m.Usage...)
			}
			b = append(b, `,"stopReason":`...)
			b = append(b, q(m.StopReason)...)
			b = append(b, `,"timestamp":"`...)
			b = append(b, l.Timestamp...)
			b = append(b, `"}`...)
			d.scratch = b
			d.line(string(b))
			d.onMain(id, l.Timestamp)
			for _, blk := range blocks {
				if blk.Type != "toolCall" {
					continue
				}
				d.line(`{"id":`, q(blk.ID), `,"type":"tool_call","toolName":`, q(blk.Name), `,"input":`, string(blk.Arguments), `,"parentMessageId":"`, id, `","timestamp":"`, l.Timestamp, `"}`)
				d.onMain(blk.ID, l.Timestamp)
			}
		case "toolResult":
			id := d.newID("result_")
			d.line(`{"id":"`, id, `","type":"tool_result","callId":`, q(m.ToolCallID), `,"content":`, string(m.Content), `,"isError":`, strconv.FormatBool(m.IsError), `,"timestamp":"`, l.Timestamp, `"}`)
			d.onMain(id, l.Timestamp)
		default:
			d.err = fmt.Errorf("synth: a pi message of role %q", m.Role)
		}
	}
}

// fork adds a branch from entry at of branch_main with entries of its own,
// drawn from f (not the conversation's generator, whose draws stay
// Session's), timed a few milliseconds after branch_main's last entry so
// that branch_main's next entry is later.
func (d *dharaWriter) fork(f *gen, at int, turn bool) {
	t := d.last
	ts := func() string {
		t = t.Add(time.Millisecond)
		return t.UTC().Format(isoMs)
	}
	fk := dharaFork{id: d.newID("branch_"), at: at, created: ts()}
	add := func(id string, parts ...string) {
		d.line(parts...)
		fk.own = append(fk.own, id)
	}
	usage := `,"usage":{"input":1200,"output":80,"cacheRead":0,"cacheWrite":0,"totalTokens":1280,"cost":{"input":0.003,"output":0.0045,"cacheRead":0,"cacheWrite":0,"total":0.0075}}`
	if turn {
		user, reply, call, result := d.newID("msg_"), d.newID("msg_"), fmt.Sprintf("toolu_fork%06dread", len(d.forks)), d.newID("result_")
		add(user, `{"id":"`, user, `","type":"message","role":"user","content":[`, string(textBlock(nil, "text", f.prose(8)+"?")), `}],"timestamp":"`, ts(), `"}`)
		tr := ts()
		add(reply, `{"id":"`, reply, `","type":"message","role":"assistant","content":[`, string(textBlock(nil, "text", f.prose(12))), `}],"provider":"anthropic","model":"claude-sonnet-4-5"`, usage, `,"stopReason":"toolUse","timestamp":"`, tr, `"}`)
		add(call, `{"id":"`, call, `","type":"tool_call","toolName":"read","input":{"path":"src/fork.go"},"parentMessageId":"`, reply, `","timestamp":"`, tr, `"}`)
		add(result, `{"id":"`, result, `","type":"tool_result","callId":"`, call, `","content":[`, string(textBlock(nil, "text", f.code(3))), `}],"isError":false,"timestamp":"`, ts(), `"}`)
	}
	final := d.newID("msg_")
	add(final, `{"id":"`, final, `","type":"message","role":"assistant","content":[`, string(textBlock(nil, "text", f.prose(30))), `}],"provider":"anthropic","model":"claude-sonnet-4-5"`, usage, `,"stopReason":"stop","timestamp":"`, ts(), `"}`)
	d.forks = append(d.forks, fk)
}

func dharaSession(dir, cwd string, size int64, start time.Time, seed uint64, v *Vocab) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "entries.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	var turn bytes.Buffer
	g := &gen{r: rand.New(rand.NewPCG(seed, 7)), t: start, w: bufio.NewWriterSize(&turn, 64<<10), v: v}
	// The header's draws and length, as session makes them: the turns
	// that follow are then Session's.
	id := fmt.Sprintf("%08x-%04x-7%03x-8%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Uint64()&(1<<48-1))
	header := fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":%s}`+"\n", id, start.UTC().Format(isoMs), q(cwd))
	g.size = int64(len(header))
	d := &dharaWriter{w: bufio.NewWriterSize(f, 1<<20), seed: seed, last: start}
	fg := &gen{r: rand.New(rand.NewPCG(seed, 17)), v: v}
	// The forks are made between turns, once size-g.size is within their
	// margin, and only while more than a turn (a few KB; 64 KB is ample)
	// of branch_main is still to come.
	margins := [2]int64{max(size/25, 256<<10), max(size/50, 128<<10)}
	const room = 64 << 10
	for g.size < size && d.err == nil {
		if k := len(d.forks); k < len(margins) && size-g.size <= margins[k] && size-g.size > room && len(d.main) > 0 {
			if k == 0 {
				d.fork(fg, len(d.main), true)
			} else {
				d.fork(fg, d.user+1, false)
			}
		}
		g.turn()
		if err := g.w.Flush(); err != nil {
			return err
		}
		d.convert(turn.Bytes())
		turn.Reset()
	}
	if d.err != nil {
		return d.err
	}
	if err := d.w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := d.writeTree(filepath.Join(dir, "tree.json"), start.UTC().Format(isoMs)); err != nil {
		return err
	}
	updated := d.lastTS
	if updated == "" {
		updated = start.UTC().Format(isoMs)
	}
	meta := fmt.Sprintf("{\n  \"id\": %s,\n  \"createdAt\": %q,\n  \"updatedAt\": %q,\n  \"provider\": \"anthropic\",\n  \"model\": \"claude-sonnet-4-5\",\n  \"formatVersion\": \"0.1.0\",\n  \"cwd\": %s\n}\n",
		q(filepath.Base(dir)), start.UTC().Format(isoMs), updated, q(cwd))
	return os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o644)
}

// writeTree writes tree.json: branch_main, then the forks, each with its
// full path of ids.
func (d *dharaWriter) writeTree(path, created string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	branch := func(id, parent, created string, paths ...[]string) {
		w.WriteString("    {\n      \"id\": ")
		w.WriteString(q(id))
		w.WriteString(",\n      \"parentBranchId\": ")
		w.WriteString(parent)
		w.WriteString(",\n      \"entryIds\": [")
		first := true
		for _, ids := range paths {
			for _, id := range ids {
				if !first {
					w.WriteString(", ")
				}
				first = false
				w.WriteString(q(id))
			}
		}
		w.WriteString("],\n      \"createdAt\": ")
		w.WriteString(q(created))
		w.WriteString("\n    }")
	}
	w.WriteString("{\n  \"root\": \"branch_main\",\n  \"branches\": [\n")
	branch("branch_main", "null", created, d.main)
	for _, fk := range d.forks {
		w.WriteString(",\n")
		branch(fk.id, `"branch_main"`, fk.created, d.main[:fk.at], fk.own)
	}
	w.WriteString("\n  ]\n}\n")
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
