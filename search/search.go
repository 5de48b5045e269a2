package search

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"skein/internal/jsdate"
	"skein/model"
)

// Hit is one message that matched.
type Hit struct {
	Path, Format, SessionID string
	EntryID, Role           string
	Snippet                 string   // the message's text around its first match, on one line
	Matches                 [][2]int // byte ranges in Snippet
	Score                   float64
	Time                    float64 // the entry's time (ms), for ties: newest first
}

// doc is a message that matched, before it is ranked.
type doc struct {
	hit    Hit
	tf     []int
	length int // words
	src    int // the index's candidate it came from
	pos    int // where it is in its file: entries in the file's order
}

// Searcher gathers the matches of one query over sessions, then ranks them.
type Searcher struct {
	q     *Query
	docs  []doc
	n     int   // messages looked at
	df    []int // per word and phrase: messages holding it
	words int   // words in every message looked at
}

// New starts a search.
func New(q *Query) *Searcher {
	return &Searcher{q: q, df: make([]int, len(q.Words)+len(q.Phrases))}
}

// Add searches every message of every branch of a session.
func (s *Searcher) Add(sess *model.Session) {
	q := s.q
	if !q.OfCwd(sess.Info.Cwd) {
		return
	}
	if !q.OfAgent(sess.Info.Format) {
		return
	}
	eachDoc(sess, func(i int, e model.Entry, m *model.Message) {
		// System prompts are searched only when asked for.
		if m.Role == model.RoleSystem && q.Role != model.RoleSystem {
			return
		}
		if q.Role != "" && m.Role != q.Role {
			return
		}
		if q.Tool != "" && !slices.Contains(toolNames(m), q.Tool) {
			return
		}
		text := m.SearchText()
		s.n++
		length := wordCount(text)
		s.words += length
		ranges, tf, ok := q.Match(text)
		for k, n := range tf {
			if n > 0 {
				s.df[k]++
			}
		}
		if !ok {
			return
		}
		snippet, marks := snippetOf(text, ranges)
		s.docs = append(s.docs, doc{hit: Hit{Path: sess.Info.Path, Format: sess.Info.Format, SessionID: sess.Info.ID,
			EntryID: e.ID, Role: m.Role, Snippet: snippet, Matches: marks, Time: jsdate.Parse(e.Timestamp)}, tf: tf, length: length, pos: i})
	})
}

// BM25's constants, as most engines use them.
const k1, b = 1.2, 0.75

// Hits are the matches ranked by BM25 (by their count, for patterns
// alone), ties newest first; at most limit (0: all).
func (s *Searcher) Hits(limit int) []Hit {
	s.rankDocs()
	n := len(s.docs)
	if limit > 0 && limit < n {
		n = limit
	}
	out := make([]Hit, n)
	for i := range out {
		out[i] = s.docs[i].hit
	}
	return out
}

// rankDocs scores the docs and sorts them, best first.
func (s *Searcher) rankDocs() {
	sc := scorer{n: s.n, df: s.df, avg: avgLength(s.n, s.words)}
	for i := range s.docs {
		d := &s.docs[i]
		d.hit.Score = sc.score(d.tf, d.length, len(d.hit.Matches))
	}
	slices.SortFunc(s.docs, func(a, c doc) int {
		return order(rankKey{a.hit.Score, a.hit.Time, a.hit.Path, a.pos}, rankKey{c.hit.Score, c.hit.Time, c.hit.Path, c.pos})
	})
}

func avgLength(n, words int) float64 {
	if n > 0 && words > 0 {
		return float64(words) / float64(n)
	}
	return 1
}

// scorer is BM25 over a corpus of n messages of avg words on average, df
// of them holding each word or phrase.
type scorer struct {
	n   int
	df  []int
	avg float64
}

// score is a message's BM25 from its count of each word and phrase and
// its length; with no words nor phrases, its count of matches (marks).
func (sc scorer) score(tf []int, length, marks int) float64 {
	if len(tf) == 0 {
		return float64(marks)
	}
	score := 0.0
	for k, t := range tf {
		df := float64(sc.df[k])
		idf := math.Log((float64(sc.n)-df+0.5)/(df+0.5) + 1)
		f := float64(t)
		score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(length)/sc.avg))
	}
	return score
}

// rankKey is what orders hits: the score, then newest first (a message
// with no time last), then in the files' order.
type rankKey struct {
	score, time float64
	path        string
	pos         int
}

// order is -1 when a comes before c.
func order(a, c rankKey) int {
	switch {
	case a.score != c.score:
		if a.score > c.score {
			return -1
		}
		return 1
	case a.time != c.time && !(a.time != a.time && c.time != c.time):
		if a.time > c.time || a.time == a.time && c.time != c.time {
			return -1
		}
		return 1
	case a.path != c.path:
		return strings.Compare(a.path, c.path)
	}
	return a.pos - c.pos
}

// snippetOf is the text around a match, on one line: some 60 bytes before
// it and 140 after, cut at characters, with the matches in it.
func snippetOf(text string, ranges [][2]int) (string, [][2]int) {
	if len(ranges) == 0 {
		return oneLine(cut(text, 0, min(len(text), 200))), nil
	}
	// Around the match from which the next 140 bytes hold the most of the
	// query's different terms (the first such): a snippet of two words
	// shows both where one message has them near each other.
	best, bestN := 0, 0
	for i := 0; i < len(ranges) && i < 64; i++ {
		seen := map[string]bool{}
		for _, r := range ranges[i:] {
			if r[0] > ranges[i][0]+140 {
				break
			}
			seen[Fold(text[r[0]:r[1]])] = true
		}
		if len(seen) > bestN {
			best, bestN = i, len(seen)
		}
	}
	from := max(0, ranges[best][0]-60)
	to := min(len(text), ranges[best][1]+140)
	from, to = charStart(text, from), charStart(text, to)
	var marks [][2]int
	for _, r := range ranges {
		if r[0] >= from && r[1] <= to {
			marks = append(marks, [2]int{r[0] - from, r[1] - from})
		}
	}
	// One line: white space becomes spaces, byte for byte, so the marks hold.
	return oneLine(text[from:to]), marks
}

func cut(s string, from, to int) string { return s[charStart(s, from):charStart(s, to)] }

// charStart moves i back to the start of the character it is in.
func charStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}
