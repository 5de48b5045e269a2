// Package synth writes large pi sessions for benchmarks (it imports nothing
// of skein's, so that every package's benchmarks can use it), line for line in the
// format pi 0.73.1 writes (key order, compact JSON), so that benchmarks need
// neither Node nor committed data. The side-by-side comparison with pi uses
// stores the reference implementation wrote (testdata/pigen/bigstore.mjs).
package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var words = strings.Fields("the parser token stream needs a second pass because nested generics confuse the lexer when angle brackets close twice")

type gen struct {
	r    *rand.Rand
	t    time.Time
	n    int
	prev string
	w    *bufio.Writer
	size int64
	// v, when set, is the varied vocabulary (vocab.go); nil is the small
	// one above, whose output the tests' goldens were made from. With v
	// nil no extra random number is drawn anywhere.
	v *Vocab
	// marks and longs are the marker tokens and long lowercase runs owed
	// to the next text written (varied vocabulary only).
	marks, longs int
	// ids are the ids handed out: pi draws a new one when an id is taken
	// (a repeated id would send the path back), and so does synth.
	ids map[uint32]bool
}

func (g *gen) prose(n int) string {
	if g.v != nil {
		return g.vprose(n)
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[g.r.IntN(len(words))])
	}
	return b.String()
}

func (g *gen) code(lines int) string {
	if g.v != nil {
		return g.vcode(lines)
	}
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "  %d: func %s() { return %d }\n", i, words[g.r.IntN(len(words))], g.r.IntN(1000))
	}
	return b.String()
}

// q quotes s as JSON.stringify does (no HTML escaping).
func q(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func (g *gen) entry(typ, body string) {
	g.n++
	g.t = g.t.Add(time.Duration(1000+g.r.IntN(30000)) * time.Millisecond)
	id := fmt.Sprintf("%08x", g.newID())
	parent := "null"
	if g.prev != "" {
		parent = q(g.prev)
	}
	// {"type":%q,"id":%q,"parentId":%s,"timestamp":%q%s}, written in
	// pieces (the body is most of the bytes; %q of these is "...").
	ts := g.t.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, s := range [...]string{`{"type":"`, typ, `","id":"`, id, `","parentId":`, parent, `,"timestamp":"`, ts, `"`, body, "}\n"} {
		g.w.WriteString(s)
		g.size += int64(len(s))
	}
	g.prev = id
	if g.v != nil {
		g.owe()
	}
}

// newID is an 8-hex id no entry has yet, as pi's generateId gives.
func (g *gen) newID() uint32 {
	if g.ids == nil {
		g.ids = map[uint32]bool{}
	}
	for {
		if x := g.r.Uint32(); !g.ids[x] {
			g.ids[x] = true
			return x
		}
	}
}

func (g *gen) ms() int64 { return g.t.UnixMilli() }

func (g *gen) turn() {
	g.entry("message", fmt.Sprintf(`,"message":{"role":"user","content":%s,"timestamp":%d}`, q(g.prose(5+g.r.IntN(35))+"?"), g.ms()))
	usage := func() string {
		in, out, cr := 1000+g.r.IntN(90000), 10+g.r.IntN(3000), g.r.IntN(50000)
		return fmt.Sprintf(`"usage":{"input":%d,"output":%d,"cacheRead":%d,"cacheWrite":0,"totalTokens":%d,"cost":{"input":0.003,"output":0.0045,"cacheRead":0.00024,"cacheWrite":0,"total":0.00774}}`, in, out, cr, in+out+cr)
	}
	for c, calls := 0, 1+g.r.IntN(6); c < calls; c++ {
		name := []string{"read", "bash", "edit", "grep"}[g.r.IntN(4)]
		var args string
		if g.v != nil {
			args = g.vargs(name)
		} else {
			args = fmt.Sprintf(`{"path":"src/%s.go"}`, words[g.r.IntN(len(words))])
			if name == "bash" {
				args = fmt.Sprintf(`{"command":"go test ./%s/..."}`, words[g.r.IntN(len(words))])
			}
		}
		callID := fmt.Sprintf("toolu_%06d%s", g.n, name)
		var blocks []string
		if g.r.IntN(10) < 3 {
			blocks = append(blocks, fmt.Sprintf(`{"type":"thinking","thinking":%s,"thinkingSignature":"sig"}`, q(g.prose(10+g.r.IntN(70)))))
		}
		if g.r.IntN(10) < 4 {
			blocks = append(blocks, fmt.Sprintf(`{"type":"text","text":%s}`, q(g.prose(5+g.r.IntN(25)))))
		}
		blocks = append(blocks, fmt.Sprintf(`{"type":"toolCall","id":%q,"name":%q,"arguments":%s}`, callID, name, args))
		g.entry("message", fmt.Sprintf(`,"message":{"role":"assistant","content":[%s],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5",%s,"stopReason":"toolUse","timestamp":%d}`, strings.Join(blocks, ","), usage(), g.ms()))
		g.entry("message", fmt.Sprintf(`,"message":{"role":"toolResult","toolCallId":%q,"toolName":%q,"content":[{"type":"text","text":%s}],"isError":false,"timestamp":%d}`, callID, name, q(g.code(1+g.r.IntN(10))), g.ms()))
	}
	g.entry("message", fmt.Sprintf(`,"message":{"role":"assistant","content":[{"type":"text","text":%s}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5",%s,"stopReason":"stop","timestamp":%d}`,
		q(g.prose(20+g.r.IntN(180))+"\n\n```go\n"+g.code(g.r.IntN(15))+"```"), usage(), g.ms()))
}

// Session writes one session of about size bytes.
func Session(path, cwd string, size int64, start time.Time, seed uint64) error {
	return session(path, cwd, size, start, seed, nil)
}

// SessionVocab is Session with its words drawn from v.
func SessionVocab(path, cwd string, size int64, start time.Time, seed uint64, v *Vocab) error {
	return session(path, cwd, size, start, seed, v)
}

func session(path, cwd string, size int64, start time.Time, seed uint64, v *Vocab) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	g := &gen{r: rand.New(rand.NewPCG(seed, 7)), t: start, w: bufio.NewWriterSize(f, 1<<20), v: v}
	id := fmt.Sprintf("%08x-%04x-7%03x-8%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Uint64()&(1<<48-1))
	header := fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":%s}`+"\n", id, start.UTC().Format("2006-01-02T15:04:05.000Z"), q(cwd))
	g.w.WriteString(header)
	g.size = int64(len(header))
	for g.size < size {
		g.turn()
	}
	if err := g.w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// Store writes n sessions totalling about total bytes under dir, in pi's
// folder layout, one after the other (so the files' modification times are
// in the sessions' order, as they always were).
func Store(dir string, n int, total int64, seed uint64) error {
	return StoreWith(dir, n, total, seed, StoreOptions{Workers: 1})
}

// StoreOptions are StoreWith's choices.
type StoreOptions struct {
	// Vocab, if set, is the vocabulary the sessions' text is drawn from
	// (NewVocab); nil is the small vocabulary of Store and Session.
	Vocab *Vocab
	// Workers is how many sessions are written at once; 0 is GOMAXPROCS.
	// Each session has its own seed, so the bytes written do not depend
	// on it.
	Workers int
}

// StoreWith is Store with options.
func StoreWith(dir string, n int, total int64, seed uint64, o StoreOptions) error {
	type job struct {
		path, cwd string
		size      int64
		t         time.Time
		seed      uint64
	}
	r := rand.New(rand.NewPCG(seed, 1))
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	jobs := make([]job, n)
	for k := range jobs {
		cwd := fmt.Sprintf("/home/dev/project-%d", k%40)
		size := int64(float64(total) / float64(n) * (0.25 + 1.5*r.Float64()))
		t := start.Add(time.Duration(k) * time.Hour)
		name := fmt.Sprintf("%s_%d.jsonl", strings.NewReplacer(":", "-", ".", "-").Replace(t.Format("2006-01-02T15:04:05.000Z")), k)
		jobs[k] = job{filepath.Join(dir, "--"+strings.ReplaceAll(cwd[1:], "/", "-")+"--", name), cwd, size, t, seed + uint64(k)}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next atomic.Int64
		mu   sync.Mutex
		errs error
		wg   sync.WaitGroup
	)
	for range min(workers, n) {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				j := jobs[k]
				if err := session(j.path, j.cwd, j.size, j.t, j.seed, o.Vocab); err != nil {
					mu.Lock()
					if errs == nil {
						errs = err
					}
					mu.Unlock()
					next.Store(int64(n))
					return
				}
			}
		})
	}
	wg.Wait()
	return errs
}

// AppendLine appends a line to a session file as an agent does: the line
// and its ending in one write.
func AppendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// CopyTree copies the files under src into dst, for tests that write to a
// copy of the fixtures.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}
