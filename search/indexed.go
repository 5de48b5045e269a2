package search

import (
	"hash/crc32"
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"

	"skein/model"
	"skein/store"
)

// A query through the index: each blob gives, for the query's words, the
// messages holding them and how often (so the ranking needs no text), and
// narrows phrases and patterns to the messages holding their words; only
// those are read, to check them, and then the best ones, for snippets.

// cand is a message that may match.
type cand struct {
	path               string
	off, n             int64
	crc                uint32 // the record's, to know it when it is read again
	words              int
	time               float64
	entryID, role      string
	sessionID, format  string
	tf                 []int // words (from the index), then phrases (from the text)
	needText, verified bool
	phraseDocs         bool // counted for the phrases' df when verified
	candidate          bool // passes every filter the index can check
	snippet            string
	marks              [][2]int
	ok                 bool
}

// corpus is what BM25 needs of every message looked at.
type corpus struct {
	n, words int
	df       []int
}

func (c *corpus) add(o *corpus) {
	c.n += o.n
	c.words += o.words
	for i := range o.df {
		c.df[i] += o.df[i]
	}
}

// Search is q over files through the index, which Update brought up to
// date: its matches ranked by BM25 (by their count for patterns alone),
// ties newest first, at most limit (0: all), as Searcher gives them.
func (x *Index) Search(q *Query, files []string, limit int) []Hit {
	type part struct {
		path string
		r    ref
	}
	var parts []part
	x.mu.Lock()
	for _, f := range files {
		if e := x.entries[f]; e != nil {
			for _, r := range e.parts {
				parts = append(parts, part{f, r})
			}
		}
	}
	x.mu.Unlock()
	nTerms := len(q.Words) + len(q.Phrases)
	total := corpus{df: make([]int, nTerms)}
	lits := make([][][]byte, len(q.Regexps))
	for i, re := range q.Regexps {
		lits[i] = literalRuns(re.String())
	}
	var mu sync.Mutex
	var all []*cand
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			local := corpus{df: make([]int, nTerms)}
			var mine []*cand
			var sc scratch
			for i := range next {
				p := parts[i]
				b, err := x.blobOf(p.r)
				if err != nil {
					continue
				}
				mine = evalBlob(q, lits, b, p.path, &local, &sc, mine)
			}
			mu.Lock()
			total.add(&local)
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	for i := range parts {
		next <- i
	}
	close(next)
	wg.Wait()
	// The messages whose text decides: read them, file by file.
	verify(q, all)
	var hits []*cand
	for _, c := range all {
		if c.phraseDocs && c.verified {
			for k := len(q.Words); k < nTerms; k++ {
				if c.tf[k] > 0 {
					total.df[k]++
				}
			}
		}
		if c.candidate && (!c.needText || c.verified && c.ok) {
			hits = append(hits, c)
		}
	}
	return rank(q, hits, total, limit)
}

type scratch struct {
	tf      [][]int
	allowed []bool
	mark    []bool
}

// evalBlob adds a blob's messages to the corpus and its candidates to out.
func evalBlob(q *Query, lits [][][]byte, b *blob, path string, c *corpus, sc *scratch, out []*cand) []*cand {
	if q.Cwd != "" && b.cwd != q.Cwd && !strings.HasPrefix(b.cwd, strings.TrimSuffix(q.Cwd, "/")+"/") {
		return out
	}
	n := b.nDocs
	allowed := grow(sc.allowed, n)
	sc.allowed = allowed
	if q.Tool != "" {
		clear(allowed)
		if t := b.exact("\x00" + q.Tool); t >= 0 {
			if b.postings(t, func(d, _ int) { allowed[d] = true }) != nil {
				return out
			}
		}
	} else {
		for k := range allowed {
			allowed[k] = true
		}
	}
	if q.Role == "" && q.Tool == "" {
		c.n += n - b.system
		c.words += int(b.words - b.sysWords)
	}
	for k := range n {
		if !allowed[k] {
			continue
		}
		_, _, words, _, system := b.doc(k)
		if system && q.Role != model.RoleSystem {
			allowed[k] = false
			continue
		}
		if q.Role != "" {
			role, _, ok := b.roleID(k)
			if !ok || role != q.Role {
				allowed[k] = false
				continue
			}
		}
		if q.Role != "" || q.Tool != "" {
			c.n++
			c.words += words
		}
	}
	// The words: how often in each message, and in how many.
	for len(sc.tf) < len(q.Words) {
		sc.tf = append(sc.tf, nil)
	}
	for k, w := range q.Words {
		tf := grow(sc.tf[k], n)
		sc.tf[k] = tf
		clear(tf)
		lo, hi := b.prefixRange(w)
		for t := lo; t < hi; t++ {
			if b.termKey(t)[0] == 0 {
				continue
			}
			if b.postings(t, func(d, f int) { tf[d] += f }) != nil {
				return out
			}
		}
		for d := range n {
			if tf[d] > 0 && allowed[d] {
				c.df[k]++
			}
		}
	}
	// Phrases and patterns: the messages holding their words.
	mark := grow(sc.mark, n)
	sc.mark = mark
	phraseDoc := make([]bool, 0)
	if len(q.Phrases) > 0 {
		phraseDoc = make([]bool, n)
		for _, p := range q.Phrases {
			has := b.phraseDocs(p)
			if has == nil {
				return out
			}
			for d := range n {
				phraseDoc[d] = phraseDoc[d] || has[d] && allowed[d]
			}
		}
	}
	cands := make([]bool, n)
	copy(cands, allowed)
	for k := range q.Words {
		for d := range n {
			cands[d] = cands[d] && sc.tf[k][d] > 0
		}
	}
	for _, p := range q.Phrases {
		has := b.phraseDocs(p)
		for d := range n {
			cands[d] = cands[d] && has[d]
		}
	}
	for _, runs := range lits {
		has := b.literalDocs(runs)
		if has == nil {
			continue // no literal: every message may match
		}
		for d := range n {
			cands[d] = cands[d] && has[d]
		}
	}
	needText := len(q.Phrases)+len(q.Regexps) > 0
	for d := range n {
		if !cands[d] && !(len(phraseDoc) > 0 && phraseDoc[d]) {
			continue
		}
		off, ln, words, time, _ := b.doc(d)
		role, id, _ := b.roleID(d)
		tf := make([]int, len(q.Words)+len(q.Phrases))
		for k := range q.Words {
			tf[k] = sc.tf[k][d]
		}
		out = append(out, &cand{path: path, off: off, n: ln, crc: b.crc(d), words: words, time: time, entryID: id, role: role,
			sessionID: b.sessionID, format: b.fmt, tf: tf, needText: needText, candidate: cands[d],
			phraseDocs: len(phraseDoc) > 0 && phraseDoc[d]})
	}
	return out
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// phraseDocs marks the messages holding a phrase's words: each but the
// last whole, the last as a prefix (nil: a damaged blob).
func (b *blob) phraseDocs(p []string) []bool {
	has := make([]bool, b.nDocs)
	for k := range has {
		has[k] = true
	}
	for i, w := range p {
		in := make([]bool, b.nDocs)
		lo, hi := 0, 0
		if i < len(p)-1 {
			if t := b.exact(w); t >= 0 {
				lo, hi = t, t+1
			}
		} else {
			lo, hi = b.prefixRange(w)
		}
		for t := lo; t < hi; t++ {
			if b.postings(t, func(d, _ int) { in[d] = true }) != nil {
				return nil
			}
		}
		for k := range has {
			has[k] = has[k] && in[k]
		}
	}
	return has
}

// literalDocs marks the messages with a term holding each run (nil: no
// runs, every message may match).
func (b *blob) literalDocs(runs [][]byte) []bool {
	if len(runs) == 0 {
		return nil
	}
	has := make([]bool, b.nDocs)
	for k := range has {
		has[k] = true
	}
	for _, run := range runs {
		in := make([]bool, b.nDocs)
		b.containing(run, func(t int) {
			_ = b.postings(t, func(d, _ int) { in[d] = true })
		})
		for k := range has {
			has[k] = has[k] && in[k]
		}
	}
	return has
}

// literalRuns are the word runs (folded, as the index keeps words) of the
// literals a pattern cannot match without: a message with no term holding
// one of them cannot match.
func literalRuns(pattern string) [][]byte {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	var lits []string
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			lits = append(lits, string(r.Rune))
		case syntax.OpConcat:
			for _, s := range r.Sub {
				walk(s)
			}
		case syntax.OpCapture, syntax.OpPlus:
			walk(r.Sub[0])
		case syntax.OpRepeat:
			if r.Min >= 1 {
				walk(r.Sub[0])
			}
		}
	}
	walk(re)
	var runs [][]byte
	for _, l := range lits {
		eachTerm(l, nil, func(t []byte) { runs = append(runs, append([]byte(nil), t...)) })
	}
	return runs
}

// verify reads the text of the candidates whose text decides (phrases,
// patterns), file by file, and matches it.
func verify(q *Query, all []*cand) {
	byFile := map[string][]*cand{}
	for _, c := range all {
		if c.needText {
			byFile[c.path] = append(byFile[c.path], c)
		}
	}
	paths := make([]string, 0, len(byFile))
	for p := range byFile {
		paths = append(paths, p)
	}
	next := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range next {
				readTexts(q, p, byFile[p])
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
}

// readTexts reads and matches the messages of one file: each alone when
// they are few, else the file once.
func readTexts(q *Query, path string, cs []*cand) {
	match := func(c *cand, s *model.Session, i int) {
		if crc32.Checksum(s.Raw(i), castagnoli) != c.crc {
			return // the file changed since: not this message any more
		}
		m := s.EntryMessage(i)
		text := m.SearchText()
		ranges, tf, ok := q.Match(text)
		c.verified, c.ok = true, ok
		copy(c.tf, tf)
		c.snippet, c.marks = snippetOf(text, ranges)
	}
	if len(cs) <= 8 {
		for _, c := range cs {
			if s, ok := store.ReadEntry(path, c.off, c.n); ok {
				match(c, s, s.Len()-1)
			}
		}
		return
	}
	part, _, err := store.ReadText(path, nil)
	if err != nil {
		return
	}
	at := make(map[int64]int, len(part.Lines))
	for i, l := range part.Lines {
		at[l[0]] = i
	}
	for _, c := range cs {
		if i, ok := at[c.off]; ok {
			match(c, part.Session, i)
		}
	}
}

// rank scores the hits with BM25 over the corpus, sorts them, and reads
// the snippets of the ones returned that were not read yet.
func rank(q *Query, cs []*cand, c corpus, limit int) []Hit {
	s := &Searcher{q: q, n: c.n, words: c.words, df: c.df}
	for i, x := range cs {
		s.docs = append(s.docs, doc{hit: Hit{Path: x.path, Format: x.format, SessionID: x.sessionID, EntryID: x.entryID,
			Role: x.role, Snippet: x.snippet, Matches: x.marks, Time: x.time}, tf: x.tf, length: x.words, src: i, pos: int(x.off)})
	}
	s.rankDocs()
	var out []Hit
	for from := 0; from < len(s.docs) && (limit <= 0 || len(out) < limit); {
		// The next batch, as many as are still wanted, read on every core.
		to := len(s.docs)
		if limit > 0 {
			to = min(to, from+limit-len(out))
		}
		batch := s.docs[from:to]
		ok := make([]bool, len(batch))
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(runtime.GOMAXPROCS(0), len(batch)) {
			wg.Go(func() {
				for i := range next {
					ok[i] = snippetFor(q, cs[batch[i].src], &batch[i].hit)
				}
			})
		}
		for i := range batch {
			next <- i
		}
		close(next)
		wg.Wait()
		for i := range batch {
			if ok[i] {
				out = append(out, batch[i].hit)
			}
		}
		from = to
	}
	return out
}

// snippetFor gives a hit its snippet, reading its message again alone
// when it was not read (false: it is not there any more).
func snippetFor(q *Query, x *cand, h *Hit) bool {
	if x.verified {
		return true
	}
	sess, ok := store.ReadEntry(x.path, x.off, x.n)
	if !ok || crc32.Checksum(sess.Raw(sess.Len()-1), castagnoli) != x.crc {
		return false // the file changed since: not this message any more
	}
	m := sess.EntryMessage(sess.Len() - 1)
	text := m.SearchText()
	ranges, _, _ := q.Match(text)
	h.Snippet, h.Matches = snippetOf(text, ranges)
	return true
}
