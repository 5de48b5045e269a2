package synth

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Vocab is a large vocabulary for the text of synthetic sessions, so that
// full-text search over them has real work to do: words taken from real
// sessions' text (FixtureWords) and made-up ones, drawn with a Zipf-like
// distribution (a few words are in every session, most are rare). It is
// read-only once made, so the writers of several sessions share one.
type Vocab struct {
	words []string
	// head draws one of the first len(head)-1 words, or the last slot:
	// then tail draws one of the rest. Both are alias tables, the head's
	// small enough to stay in the processor's cache, which a table of
	// all the words is not; the tail is drawn a few times in a hundred.
	head, tail alias
	// Fixture is how many of the words came from the fixtures.
	Fixture int
}

// An alias table (Vose's) over n weights: draw a slot i uniformly, keep
// it if 32 random bits fall below its threshold, else take its alias. One
// random number a draw.
type alias []uint64 // threshold<<32 | alias (a slot kept always is its own alias)

func newAlias(w []float64) alias {
	n := len(w)
	p := make([]float64, n)
	var sum float64
	for _, x := range w {
		sum += x
	}
	t := make(alias, n)
	var small, large []int
	for i, x := range w {
		p[i] = x * float64(n) / sum
		if p[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		a, b := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		t[a] = uint64(p[a]*(1<<32))<<32 | uint64(b)
		p[b] += p[a] - 1
		if p[b] < 1 {
			large = large[:len(large)-1]
			small = append(small, b)
		}
	}
	for _, i := range append(small, large...) {
		t[i] = (1<<32-1)<<32 | uint64(i)
	}
	return t
}

func (t alias) draw(r *rand.Rand) int {
	u := r.Uint64()
	i := (u >> 32) * uint64(len(t)) >> 32
	if e := t[i]; u&(1<<32-1) >= e>>32 {
		return int(uint32(e))
	}
	return int(i)
}

// Len is how many words v has.
func (v *Vocab) Len() int { return len(v.words) }

// Word is the word of rank i (0 is the most common).
func (v *Vocab) Word(i int) string { return v.words[i] }

func (v *Vocab) pick(r *rand.Rand) string {
	i := v.head.draw(r)
	if i == len(v.head)-1 && len(v.tail) > 0 {
		i += v.tail.draw(r)
	}
	return v.words[i]
}

// headWords is how many words the head table draws itself.
const headWords = 4096

// maxWord is the longest word, in bytes, that a Vocab holds, so that the
// only runs of 30 or more lowercase letters in the text are the ones put
// there on purpose (1 message in about 1,000).
const maxWord = 24

// NewVocab ranks the fixtures' words (most common first, as FixtureWords
// returns them) and pseudo made-up words, and weighs rank r (from 1) as
// 1/(r+2.7)^s (Zipf–Mandelbrot; s about 1.2 gives the head and long tail
// of real logs). The 300 commonest fixture words keep the top ranks; the
// others and the made-up words are shuffled below them. The same arguments
// give the same Vocab.
func NewVocab(fixture []string, pseudo int, s float64, seed uint64) *Vocab {
	r := rand.New(rand.NewPCG(seed, 11))
	seen := make(map[string]bool, len(fixture)+pseudo)
	var head, tail []string
	for _, w := range fixture {
		k := strings.ToLower(w)
		if seen[k] || len(w) > maxWord || w == "" {
			continue
		}
		seen[k] = true
		if len(head) < 300 {
			head = append(head, w)
		} else {
			tail = append(tail, w)
		}
	}
	nfix := len(head) + len(tail)
	for made := 0; made < pseudo; {
		w := pseudoWord(r)
		if !seen[w] {
			seen[w] = true
			tail = append(tail, w)
			made++
		}
	}
	r.Shuffle(len(tail), func(i, j int) { tail[i], tail[j] = tail[j], tail[i] })
	words := append(head, tail...)
	if len(words) == 0 {
		words = []string{"word"}
	}
	v := &Vocab{words: words, Fixture: nfix}
	p := make([]float64, len(words))
	for i := range p {
		p[i] = math.Pow(float64(i+1)+2.7, -s)
	}
	h := min(headWords, len(p)-1)
	var rest float64
	for _, x := range p[h:] {
		rest += x
	}
	v.head = newAlias(append(p[:h:h], rest))
	v.tail = newAlias(p[h:])
	return v
}

var (
	onsets = strings.Fields("b c d f g h j k l m n p r s t v w z br bl cr cl dr fl fr gl gr pl pr sc sk sl sp st tr th sh ch qu wh")
	nuclei = strings.Fields("a e i o u a e i o ai ea ee oo ou io ia")
	codas  = append([]string{"", "", "", ""}, strings.Fields("n r s t l m x k nd st rk nt ck ng sh")...)
)

// pseudoWord is one to three made-up syllables (at most 18 bytes).
func pseudoWord(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(2) + r.IntN(2) {
		b.WriteString(onsets[r.IntN(len(onsets))])
		b.WriteString(nuclei[r.IntN(len(nuclei))])
		b.WriteString(codas[r.IntN(len(codas))])
	}
	return b.String()
}

// textKeys are the members whose strings are a session's text in pi's,
// Claude Code's and Codex's files (everything under them is read, except
// idKeys), and "message" when it is a string (Codex's events; pi's and
// Claude Code's message objects are read only for their content); the
// rest of a line (ids, types, models, stop reasons, usage) is not.
var textKeys = map[string]bool{
	"text": true, "thinking": true, "content": true, "arguments": true, "input": true,
	"output": true, "command": true, "summary": true, "stdout": true, "stderr": true,
	"result": true, "toolUseResult": true, "prompt": true,
}

var idKeys = map[string]bool{
	"id": true, "parentId": true, "uuid": true, "parentUuid": true, "sessionId": true,
	"timestamp": true, "thinkingSignature": true, "signature": true, "encrypted_content": true,
	"toolCallId": true, "tool_use_id": true, "call_id": true, "requestId": true,
	"type": true, "role": true, "model": true, "usage": true,
}

// FixtureWords reads the .jsonl files under the given files and folders
// (a missing one is skipped and returned in missing) and returns the words
// of their sessions' text, the commonest first: in the most files, then
// the most often, then in byte order (so that one long fixture's words do
// not crowd out those every session has). A word is a run of letters,
// digits and underscores that starts with a letter, 2 to 24 bytes long,
// counted without case, in its commonest spelling. files is how many
// files were read.
func FixtureWords(roots ...string) (words []string, files int, missing []string, err error) {
	count, in := map[string]int{}, map[string]int{}
	var inFile map[string]bool
	forms := map[string]map[string]int{}
	add := func(s string) {
		for i := 0; i < len(s); {
			c, n := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsLetter(c) {
				i += n
				continue
			}
			j := i + n
			for j < len(s) {
				c, n := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' {
					break
				}
				j += n
			}
			w := s[i:j]
			i = j
			if len(w) < 2 || len(w) > maxWord || !utf8.ValidString(w) {
				continue
			}
			k := strings.ToLower(w)
			count[k]++
			if !inFile[k] {
				inFile[k] = true
				in[k]++
			}
			if forms[k] == nil {
				forms[k] = map[string]int{}
			}
			forms[k][w]++
		}
	}
	var walk func(x any, in bool)
	walk = func(x any, in bool) {
		switch x := x.(type) {
		case string:
			if in {
				add(x)
			}
		case []any:
			for _, y := range x {
				walk(y, in)
			}
		case map[string]any:
			for k, y := range x {
				if idKeys[k] {
					continue
				}
				if s, ok := y.(string); ok && k == "message" {
					add(s)
					continue
				}
				walk(y, in || textKeys[k])
			}
		}
	}
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			missing = append(missing, root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			files++
			inFile = map[string]bool{}
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				var x any
				if json.Unmarshal(sc.Bytes(), &x) == nil {
					walk(x, false)
				}
			}
			return sc.Err()
		})
		if err != nil {
			return nil, files, missing, err
		}
	}
	for _, spellings := range forms {
		best, n := "", 0
		for w, c := range spellings {
			if c > n || c == n && w < best {
				best, n = w, c
			}
		}
		words = append(words, best)
	}
	slices.SortFunc(words, func(a, b string) int {
		a, b = strings.ToLower(a), strings.ToLower(b)
		if in[a] != in[b] {
			return in[b] - in[a]
		}
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	return words, files, missing, nil
}

// owe draws, once an entry, whether the next text carries a marker token
// (wombat-<digits>, 1 in 200) or a long lowercase run (1 in 1,000).
func (g *gen) owe() {
	if g.r.IntN(200) == 0 {
		g.marks++
	}
	if g.r.IntN(1000) == 0 {
		g.longs++
	}
}

// spend appends the tokens owed, each followed by a space.
func (g *gen) spend(b []byte) []byte {
	for ; g.marks > 0; g.marks-- {
		b = append(b, "wombat-"...)
		b = strconv.AppendInt(b, int64(g.r.IntN(1_000_000)), 10)
		b = append(b, ' ')
	}
	for ; g.longs > 0; g.longs-- {
		for range 30 + g.r.IntN(20) {
			b = append(b, byte('a'+g.r.IntN(26)))
		}
		b = append(b, ' ')
	}
	return b
}

func (g *gen) word() string { return g.v.pick(g.r) }

func upper(b []byte, w string) []byte {
	if w != "" && w[0] >= 'a' && w[0] <= 'z' {
		b = append(b, w[0]-'a'+'A')
		return append(b, w[1:]...)
	}
	return append(b, w...)
}

var exts = strings.Fields(".go .go .go .ts .py .md .json _test.go .yaml .rs")

// path appends a source path of one to three folders.
func (g *gen) path(b []byte) []byte {
	b = append(b, []string{"src/", "internal/", "cmd/", "pkg/", "", "/src/"}[g.r.IntN(6)]...)
	for range g.r.IntN(3) {
		b = append(b, g.word()...)
		b = append(b, '/')
	}
	b = append(b, g.word()...)
	return append(b, exts[g.r.IntN(len(exts))]...)
}

// ident appends an identifier made of two words.
func (g *gen) ident(b []byte) []byte {
	switch g.r.IntN(3) {
	case 0:
		b = append(b, g.word()...)
		return upper(b, g.word())
	case 1:
		b = append(b, g.word()...)
		b = append(b, '_')
		return append(b, g.word()...)
	default:
		b = upper(b, g.word())
		return upper(b, g.word())
	}
}

// extra appends a token that is not a plain word: an identifier, a path,
// a number, a bit of inline code, a flag.
func (g *gen) extra(b []byte) []byte {
	switch g.r.IntN(7) {
	case 0, 1:
		return g.ident(b)
	case 2:
		return g.path(b)
	case 3:
		if g.r.IntN(3) == 0 {
			b = strconv.AppendFloat(b, float64(g.r.IntN(100000))/100, 'f', 2, 64)
			return b
		}
		return strconv.AppendInt(b, int64(g.r.IntN(1<<uint(4+g.r.IntN(20)))), 10)
	case 4:
		b = append(b, '`')
		b = g.ident(b)
		b = append(b, '(')
		b = append(b, g.word()...)
		return append(b, ")`"...)
	case 5:
		b = append(b, "--"...)
		return append(b, g.word()...)
	default:
		b = append(b, g.word()...)
		b = append(b, '.')
		return upper(b, g.word())
	}
}

// vprose is prose with the varied vocabulary: sentences of its words with
// now and then an identifier, a path, a number or inline code, and the
// tokens owed at a random place.
func (g *gen) vprose(n int) string {
	b := make([]byte, 0, n*9+16)
	at := -1
	if g.marks+g.longs > 0 {
		at = g.r.IntN(n)
	}
	capital := true
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		if i == at {
			b = g.spend(b)
		}
		k := g.r.IntN(100)
		switch {
		case k < 4:
			b = g.extra(b)
		case capital:
			b = upper(b, g.word())
		default:
			b = append(b, g.word()...)
		}
		capital = false
		if i < n-1 {
			switch {
			case k >= 94:
				b = append(b, '.')
				capital = true
			case k >= 90:
				b = append(b, ',')
			}
		}
	}
	return string(b)
}

// vcode is code with the varied vocabulary: lines of Go, of compiler or
// grep output and of test results.
func (g *gen) vcode(lines int) string {
	b := make([]byte, 0, lines*48+16)
	if g.marks+g.longs > 0 {
		b = append(b, "// "...)
		b = g.spend(b)
		b = append(b, '\n')
	}
	for i := 0; i < lines; i++ {
		switch g.r.IntN(9) {
		case 0:
			b = append(b, "func "...)
			b = g.ident(b)
			b = append(b, '(')
			b = append(b, g.word()...)
			b = append(b, ' ')
			b = upper(b, g.word())
			b = append(b, ") error {"...)
		case 1:
			b = append(b, "\tif err := "...)
			b = append(b, g.word()...)
			b = append(b, '.')
			b = g.ident(b)
			b = append(b, '(')
			b = append(b, g.word()...)
			b = append(b, "); err != nil {"...)
		case 2:
			b = append(b, "\t\treturn "...)
			b = strconv.AppendInt(b, int64(g.r.IntN(1000)), 10)
			b = append(b, ", fmt.Errorf(\""...)
			b = append(b, g.word()...)
			b = append(b, ' ')
			b = append(b, g.word()...)
			b = append(b, ": %w\", err)"...)
		case 3:
			b = append(b, "\t// "...)
			for j := range 2 + g.r.IntN(6) {
				if j > 0 {
					b = append(b, ' ')
				}
				b = append(b, g.word()...)
			}
		case 4:
			b = g.path(b)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(1+g.r.IntN(2000)), 10)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(1+g.r.IntN(80)), 10)
			b = append(b, ": "...)
			b = append(b, g.word()...)
			b = append(b, ' ')
			b = g.ident(b)
		case 5:
			if g.r.IntN(4) == 0 {
				b = append(b, "--- FAIL: Test"...)
			} else {
				b = append(b, "--- PASS: Test"...)
			}
			b = g.ident(b)
			b = append(b, " (0."...)
			b = strconv.AppendInt(b, int64(10+g.r.IntN(90)), 10)
			b = append(b, "s)"...)
		case 6:
			b = append(b, '\t')
			b = append(b, g.word()...)
			b = append(b, " := "...)
			b = g.ident(b)
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(g.r.IntN(64)), 10)
			b = append(b, "] + "...)
			b = strconv.AppendInt(b, int64(g.r.IntN(1<<16)), 10)
		case 7:
			b = append(b, "ok  \tskein/"...)
			b = append(b, g.word()...)
			b = append(b, "\t0."...)
			b = strconv.AppendInt(b, int64(100+g.r.IntN(900)), 10)
			b = append(b, 's')
		default:
			b = append(b, '\t')
			b = append(b, g.word()...)
			b = append(b, '.')
			b = upper(b, g.word())
			b = append(b, '(')
			b = append(b, g.word()...)
			b = append(b, ", "...)
			b = strconv.AppendInt(b, int64(g.r.IntN(100)), 10)
			b = append(b, ')')
		}
		b = append(b, '\n')
	}
	return string(b)
}

// commands take a word, or a path after the first three.
var commands = []string{"go test ./%s/...", "grep -rn %s src/", "rg -n '%s' internal/", "ls -la %s", "go vet ./%s", "git log --oneline -5 -- %s", "sed -n 1,80p %s"}

// vargs is a tool call's arguments with the varied vocabulary, with the
// same members as the small vocabulary's: a path, or bash's command.
func (g *gen) vargs(name string) string {
	var b []byte
	if name == "bash" {
		k := g.r.IntN(len(commands))
		c := commands[k]
		i := strings.Index(c, "%s")
		w := []byte(g.word())
		if k >= 3 {
			w = g.path(nil)
		}
		return `{"command":` + q(c[:i]+string(w)+c[i+2:]) + `}`
	}
	b = g.path(b)
	return `{"path":` + q(string(b)) + `}`
}
