package search

import (
	"hash/crc32"
	"regexp/syntax"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"skein/model"
	"skein/store"
)

// A query through the index: each blob gives, for the query's words, the
// messages holding them and how often (so the ranking needs no text), and
// narrows phrases and patterns to the messages holding their words; only
// those are read, to check them, and then the best ones, for snippets.

// cand is a message that may match: which blob and message, and how
// often it holds each word (from the index) and phrase (from its text).
type cand struct {
	part, doc int32
	score     float64
	time      float64
	tf        []int
	// Its text, for the ones whose text decides (phrases, patterns).
	text *textMatch
}

type textMatch struct {
	phraseDocs bool // counted for the phrases' df when verified
	candidate  bool // passes every filter the index can check
	verified   bool
	ok         bool
	snippet    string
	marks      [][2]int
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
	return x.search(q, files, limit, false)
}

// BestPerSession is Search keeping only each session's best match: the
// sessions whose text matches, best first.
func (x *Index) BestPerSession(q *Query, files []string, limit int) []Hit {
	return x.search(q, files, limit, true)
}

func (x *Index) search(q *Query, files []string, limit int, perFile bool) []Hit {
	// A damaged part found is indexed again and the search run again; if
	// that fails too, every file is read.
	for range 2 {
		if hits, ok := x.searchOnce(q, files, limit, perFile); ok {
			return hits
		}
		if err := x.Update(files, nil); err != nil {
			break
		}
	}
	return readAll(q, files, limit, perFile)
}

func (x *Index) searchOnce(q *Query, files []string, limit int, perFile bool) ([]Hit, bool) {
	var parts []part
	keys := keysOf(files)
	x.mu.Lock()
	for i, f := range files {
		if e := x.entries[keys[i]]; e != nil {
			for _, r := range e.parts {
				parts = append(parts, part{path: f, r: r})
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
	var all []cand
	var failed atomic.Bool
	words := &queryWords{q: q, lits: lits, by: map[*dict]*segWords{}}
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			local := corpus{df: make([]int, nTerms)}
			var mine []cand
			var sc scratch
			for i := range next {
				b, d, err := x.blobOf(parts[i].r)
				if err == nil {
					parts[i].b = b
					mine, err = evalBlob(q, words.of(d), b, int32(i), &local, &sc, mine)
				}
				if err != nil {
					x.damage(parts[i].path)
					failed.Store(true)
				}
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
	verify(q, parts, all, func(p string) { x.damage(p); failed.Store(true) })
	hits := all[:0]
	for _, c := range all {
		if t := c.text; t != nil {
			if t.phraseDocs && t.verified {
				for k := len(q.Words); k < nTerms; k++ {
					if c.tf[k] > 0 {
						total.df[k]++
					}
				}
			}
			if !t.candidate || !t.verified || !t.ok {
				continue
			}
		}
		hits = append(hits, c)
	}
	out, damaged := rank(q, parts, hits, total, limit, perFile)
	if len(damaged) > 0 {
		for _, p := range damaged {
			x.damage(p)
		}
		return nil, false
	}
	return out, !failed.Load()
}

// part is one blob of one file.
type part struct {
	path string
	r    ref
	b    *blob
}

type scratch struct {
	tf      [][]int
	allowed []bool
}

// queryWords are a query's words as the ordinals of each segment's
// dictionary, found once per segment.
type queryWords struct {
	q    *Query
	lits [][][]byte
	mu   sync.Mutex
	by   map[*dict]*segWords
}

// segWords are a query's words in one dictionary: each word's ordinals
// (the words it starts), the tool's, each phrase's (every word whole but
// the last), each pattern's literal runs' (the words holding each).
type segWords struct {
	words   [][]uint32
	tool    []uint32
	phrases [][][]uint32
	lits    [][][]uint32
}

func (qw *queryWords) of(d *dict) *segWords {
	qw.mu.Lock()
	defer qw.mu.Unlock()
	if sw := qw.by[d]; sw != nil {
		return sw
	}
	q := qw.q
	sw := &segWords{}
	for _, w := range q.Words {
		sw.words = append(sw.words, d.prefix(w))
	}
	if q.Tool != "" {
		sw.tool = d.exact("\x00" + q.Tool)
	}
	for _, p := range q.Phrases {
		var ws [][]uint32
		for i, w := range p {
			if i < len(p)-1 {
				ws = append(ws, d.exact(w))
			} else {
				ws = append(ws, d.prefix(w))
			}
		}
		sw.phrases = append(sw.phrases, ws)
	}
	for _, runs := range qw.lits {
		var rs [][]uint32
		for _, r := range runs {
			rs = append(rs, d.containing(r))
		}
		sw.lits = append(sw.lits, rs)
	}
	qw.by[d] = sw
	return sw
}

// evalBlob adds a blob's messages to the corpus and its candidates to out.
func evalBlob(q *Query, sw *segWords, b *blob, pi int32, c *corpus, sc *scratch, out []cand) ([]cand, error) {
	if !q.OfCwd(b.cwd) {
		return out, nil
	}
	if !q.OfAgent(b.fmt) {
		return out, nil
	}
	n := b.nDocs
	allowed := grow(sc.allowed, n)
	sc.allowed = allowed
	if q.Tool != "" {
		clear(allowed)
		if b.postings(sw.tool, func(d, _ int) { allowed[d] = true }) != nil {
			return out, errBlob
		}
	} else {
		for k := range allowed {
			allowed[k] = true
		}
	}
	if q.Role != model.RoleSystem {
		for _, k := range b.systemDocs {
			allowed[k] = false
		}
	}
	if q.Role == "" && q.Tool == "" {
		// Every message but the system prompts: the head's counts.
		c.n += n - len(b.systemDocs)
		c.words += int(b.words - b.sysWords)
	} else {
		for k := range n {
			if !allowed[k] {
				continue
			}
			if q.Role != "" {
				role, _, ok := b.roleID(k)
				if !ok {
					return out, errBlob
				}
				if role != q.Role {
					allowed[k] = false
					continue
				}
			}
			words, _, ok := b.rank(k)
			if !ok {
				return out, errBlob
			}
			c.n++
			c.words += words
		}
	}
	// The words: how often in each message, and in how many.
	for len(sc.tf) < len(q.Words) {
		sc.tf = append(sc.tf, nil)
	}
	for k := range q.Words {
		tf := grow(sc.tf[k], n)
		sc.tf[k] = tf
		clear(tf)
		if b.postings(sw.words[k], func(d, f int) { tf[d] += f }) != nil {
			return out, errBlob
		}
		for d := range n {
			if tf[d] > 0 && allowed[d] {
				c.df[k]++
			}
		}
	}
	// Phrases and patterns: the messages holding their words. A message
	// holding one phrase's words is read for that phrase's df (phraseDoc),
	// a candidate must hold every phrase's.
	cands := make([]bool, n)
	copy(cands, allowed)
	for k := range q.Words {
		for d := range n {
			cands[d] = cands[d] && sc.tf[k][d] > 0
		}
	}
	var phraseDoc []bool // nil without phrases
	if len(sw.phrases) > 0 {
		phraseDoc = make([]bool, n)
	}
	for _, p := range sw.phrases {
		has := b.allOf(p)
		if has == nil {
			return out, errBlob
		}
		for d := range n {
			phraseDoc[d] = phraseDoc[d] || has[d] && allowed[d]
			cands[d] = cands[d] && has[d]
		}
	}
	for _, runs := range sw.lits {
		if len(runs) == 0 {
			continue // no literal: every message may match
		}
		has := b.allOf(runs)
		if has == nil {
			return out, errBlob
		}
		for d := range n {
			cands[d] = cands[d] && has[d]
		}
	}
	needText := len(q.Phrases)+len(q.Regexps) > 0
	for d := range n {
		inPhrase := phraseDoc != nil && phraseDoc[d]
		if !cands[d] && !inPhrase {
			continue
		}
		tf := make([]int, len(q.Words)+len(q.Phrases))
		for k := range q.Words {
			tf[k] = sc.tf[k][d]
		}
		c := cand{part: pi, doc: int32(d), tf: tf}
		if needText {
			c.text = &textMatch{candidate: cands[d], phraseDocs: inPhrase}
		}
		out = append(out, c)
	}
	return out, nil
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// allOf marks the messages that hold, for each list of ordinals, one of
// its words (nil: a damaged blob).
func (b *blob) allOf(lists [][]uint32) []bool {
	has := make([]bool, b.nDocs)
	for k := range has {
		has[k] = true
	}
	in := make([]bool, b.nDocs)
	for _, ords := range lists {
		clear(in)
		if b.postings(ords, func(d, _ int) { in[d] = true }) != nil {
			return nil
		}
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
			// A literal matched in any case is not narrowed by the index:
			// RE2 folds more than lower case does (ſ, K, ς).
			if r.Flags&syntax.FoldCase == 0 {
				lits = append(lits, string(r.Rune))
			}
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
func verify(q *Query, parts []part, all []cand, damaged func(path string)) {
	byFile := map[string][]*cand{}
	for i := range all {
		if c := &all[i]; c.text != nil {
			p := parts[c.part].path
			byFile[p] = append(byFile[p], c)
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
				if !readTexts(q, parts, p, byFile[p]) {
					damaged(p)
				}
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
func readTexts(q *Query, parts []part, path string, cs []*cand) bool {
	match := func(c *cand, s *model.Session, i int, crc uint32) {
		if crc32.Checksum(s.Raw(i), castagnoli) != crc {
			return // the file changed since: not this message any more
		}
		m := s.EntryMessage(i)
		text := m.SearchText()
		ranges, tf, ok := q.Match(text)
		c.text.verified, c.text.ok = true, ok
		copy(c.tf, tf)
		c.text.snippet, c.text.marks = snippetOf(text, ranges)
	}
	if len(cs) <= 1024 {
		// Each record alone, the file opened once.
		recs := make([][2]int64, len(cs))
		crcs := make([]uint32, len(cs))
		for k, c := range cs {
			off, n, crc, ok := parts[c.part].b.info(int(c.doc))
			if !ok {
				return false
			}
			recs[k], crcs[k] = [2]int64{off, n}, crc
		}
		store.ReadEntries(path, recs, func(k int, s *model.Session) { match(cs[k], s, s.Len()-1, crcs[k]) })
		return true
	}
	whole, _, err := store.ReadText(path, nil)
	if err != nil {
		return true
	}
	at := make(map[int64]int, len(whole.Lines))
	for i, l := range whole.Lines {
		at[l[0]] = i
	}
	for _, c := range cs {
		off, _, crc, ok := parts[c.part].b.info(int(c.doc))
		if !ok {
			return false
		}
		if i, ok := at[off]; ok {
			match(c, whole.Session, i, crc)
		}
	}
	return true
}

// rank scores the hits with BM25 over the corpus, keeps the best limit
// (0: all) in order, and makes their hits, reading the snippets not read
// yet; a message no longer where the index found it is left out.
// The files whose index was found damaged are returned instead.
func rank(q *Query, parts []part, cs []cand, c corpus, limit int, perFile bool) ([]Hit, []string) {
	sc := scorer{n: c.n, df: c.df, avg: avgLength(c.n, c.words)}
	// In a file, its parts' messages in order: a part's after the last's.
	key := func(x *cand) rankKey {
		return rankKey{x.score, x.time, parts[x.part].path, int(x.part)<<32 | int(x.doc)}
	}
	for i := range cs {
		x := &cs[i]
		words, time, ok := parts[x.part].b.rank(int(x.doc))
		if !ok {
			return nil, []string{parts[x.part].path}
		}
		marks := 0
		if x.text != nil {
			marks = len(x.text.marks)
		}
		x.score, x.time = sc.score(x.tf, words, marks), time
	}
	if perFile {
		// Each file's best candidate only.
		best := map[string]int{}
		for i := range cs {
			p := parts[cs[i].part].path
			if j, ok := best[p]; !ok || order(key(&cs[i]), key(&cs[j])) < 0 {
				best[p] = i
			}
		}
		kept := make([]cand, 0, len(best))
		for i := range cs {
			if best[parts[cs[i].part].path] == i {
				kept = append(kept, cs[i])
			}
		}
		cs = kept
	}
	var out []Hit
	for len(cs) > 0 && (limit <= 0 || len(out) < limit) {
		// The next batch, as many as are still wanted: chosen, then sorted.
		want := len(cs)
		if limit > 0 {
			want = min(want, limit-len(out))
		}
		best := topK(cs, want, func(a, b *cand) int { return order(key(a), key(b)) })
		batch := make([]Hit, len(best))
		ok := make([]hitState, len(best))
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(runtime.GOMAXPROCS(0), len(best)) {
			wg.Go(func() {
				for i := range next {
					batch[i], ok[i] = hitOf(q, parts, &cs[best[i]])
				}
			})
		}
		for i := range best {
			next <- i
		}
		close(next)
		wg.Wait()
		var damaged []string
		for i := range batch {
			switch ok[i] {
			case hitShown:
				out = append(out, batch[i])
			case hitDamaged:
				damaged = append(damaged, parts[cs[best[i]].part].path)
			}
		}
		if len(damaged) > 0 {
			return nil, damaged
		}
		// What is left: the candidates not chosen.
		chosen := make(map[int]bool, len(best))
		for _, i := range best {
			chosen[i] = true
		}
		rest := cs[:0]
		for i := range cs {
			if !chosen[i] {
				rest = append(rest, cs[i])
			}
		}
		cs = rest
	}
	return out, nil
}

// topK is the indexes of the k first candidates by cmp, in order.
func topK(cs []cand, k int, cmp func(a, b *cand) int) []int {
	if k > 256 {
		idx := make([]int, len(cs))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(i, j int) int { return cmp(&cs[i], &cs[j]) })
		return idx[:k]
	}
	idx := make([]int, 0, k+1)
	// A sorted window of the best k seen: each candidate better than its
	// last goes in by binary search (k is small: a page of results).
	for i := range cs {
		if len(idx) == k && cmp(&cs[i], &cs[idx[k-1]]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(idx, i, func(j, i int) int { return cmp(&cs[j], &cs[i]) })
		idx = slices.Insert(idx, at, i)
		if len(idx) > k {
			idx = idx[:k]
		}
	}
	return idx
}

type hitState uint8

const (
	hitGone    hitState = iota // its record changed since: left out
	hitShown                   // a hit
	hitDamaged                 // the index is damaged there
)

// hitOf is a candidate's hit, its snippet read again when it was not.
func hitOf(q *Query, parts []part, x *cand) (Hit, hitState) {
	p := &parts[x.part]
	off, n, crc, ok1 := p.b.info(int(x.doc))
	role, id, ok2 := p.b.roleID(int(x.doc))
	if !ok1 || !ok2 {
		return Hit{}, hitDamaged
	}
	h := Hit{Path: p.path, Format: p.b.fmt, SessionID: p.b.sessionID, EntryID: id, Role: role, Score: x.score, Time: x.time}
	if x.text != nil {
		h.Snippet, h.Matches = x.text.snippet, x.text.marks
		return h, hitShown
	}
	sess, ok := store.ReadEntry(p.path, off, n)
	if !ok || crc32.Checksum(sess.Raw(sess.Len()-1), castagnoli) != crc {
		return h, hitGone // the file changed since: not this message any more
	}
	m := sess.EntryMessage(sess.Len() - 1)
	text := m.SearchText()
	ranges, _, _ := q.Match(text)
	h.Snippet, h.Matches = snippetOf(text, ranges)
	return h, hitShown
}
