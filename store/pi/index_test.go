package pi

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIDIndexMatchesAMap builds sessions whose ids repeat (from few distinct
// ones to none repeated) and checks the index against a map filled in file
// order: every id finds the last entry that had it, and each repeat is
// reported on its own line naming the line before.
func TestIDIndexMatchesAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 40, 3000} {
		for _, distinct := range []int{1, 3, n/2 + 1, n * 4} {
			var b strings.Builder
			b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n")
			want := map[string]int{}
			var wantDiags []string
			for i := range n {
				id := fmt.Sprintf("%08x", r.IntN(distinct)*2654435761%(1<<32))
				if i%97 == 5 {
					id = "not-hex-" + fmt.Sprint(r.IntN(distinct)) // the map path
				}
				line := i + 2
				if prev, ok := want[id]; ok {
					wantDiags = append(wantDiags, fmt.Sprintf("%d: duplicate id %s (also on line %d)", line, id, prev+2))
				}
				want[id] = i
				fmt.Fprintf(&b, `{"type":"custom","id":%q,"parentId":null,"timestamp":"2026-01-01T00:00:01.000Z"}`+"\n", id)
			}
			s, err := Parse([]byte(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			for id, i := range want {
				if got, ok := s.Index(id); !ok || got != i {
					t.Fatalf("n=%d distinct=%d: Index(%s) = %d, %v; want %d", n, distinct, id, got, ok, i)
				}
			}
			if _, ok := s.Index("0000000g"); ok {
				t.Fatalf("n=%d: an id no entry has is found", n)
			}
			var got []string
			for _, d := range s.Diagnostics {
				if strings.HasPrefix(d.Msg, "duplicate") {
					got = append(got, fmt.Sprintf("%d: %s", d.Line, d.Msg))
				}
			}
			if strings.Join(got, "\n") != strings.Join(wantDiags, "\n") {
				t.Fatalf("n=%d distinct=%d: diagnostics\n%s\nwant\n%s", n, distinct, strings.Join(got, "\n"), strings.Join(wantDiags, "\n"))
			}
		}
	}
}

// TestHexID checks the word-at-a-time reading of ids against the plain one,
// on every byte at every position.
func TestHexID(t *testing.T) {
	plain := func(id string) (uint32, bool) {
		if len(id) != 8 {
			return 0, false
		}
		var v uint32
		for i := 0; i < 8; i++ {
			c := id[i]
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | uint32(c-'0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | uint32(c-'a'+10)
			default:
				return 0, false
			}
		}
		return v, true
	}
	check := func(id string) {
		t.Helper()
		gv, gok := hexID(id)
		wv, wok := plain(id)
		if gv != wv && wok || gok != wok {
			t.Fatalf("hexID(%q) = %x, %v; want %x, %v", id, gv, gok, wv, wok)
		}
	}
	for _, id := range []string{"00000000", "ffffffff", "0123abcd", "deadbeef", "a1b2c3d4", "", "abc", "abcdef012", "ABCDEF01"} {
		check(id)
	}
	base := []byte("9a0f3e7c")
	for pos := range 8 {
		for c := range 256 {
			id := append([]byte(nil), base...)
			id[pos] = byte(c)
			check(string(id))
		}
	}
}

// TestChunkedIndexMatchesSerial parses sessions large enough to be parsed
// in chunks on every core (each chunk noting what the index needs), with
// branches, repeated and non-hex ids, labels, malformed lines and entries
// without ids, and checks parents, labels and problems against an index
// noted in one pass over the entries.
func TestChunkedIndexMatchesSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pad := strings.Repeat("x", 2000)
	for _, dupRate := range []int{0, 500} {
		var b strings.Builder
		b.WriteString(`{"type":"session","version":3,"id":"0000aaaa","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n")
		var ids []string
		for i := 0; b.Len() < 20<<20; i++ {
			id := fmt.Sprintf("%08x", i+1)
			switch {
			case i%50 == 7:
				id = fmt.Sprintf("str-%d", i)
			case dupRate > 0 && i > 10 && r.IntN(dupRate) == 0:
				id = ids[r.IntN(len(ids))]
			}
			parent := "null"
			switch {
			case i == 0:
				parent = `"0000aaaa"` // the header's id, which no entry has
			case r.IntN(20) == 0:
				parent = fmt.Sprintf("%q", ids[r.IntN(len(ids))]) // a branch
			case r.IntN(200) == 0:
				parent = `"missing"`
			default:
				parent = fmt.Sprintf("%q", ids[len(ids)-1])
			}
			switch r.IntN(100) {
			case 0:
				b.WriteString("{not json\n")
			case 1:
				fmt.Fprintf(&b, `{"type":"label","id":"%08x","parentId":%s,"targetId":%q,"label":"l%d","timestamp":"2026-01-01T00:00:01.000Z"}`+"\n", 1<<30+i, parent, ids[r.IntN(max(1, len(ids)))%max(1, len(ids))], i)
			case 2:
				fmt.Fprintf(&b, `{"type":"custom","parentId":%s}`+"\n", parent)
			}
			fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":%q}}`+"\n", id, parent, pad[:r.IntN(len(pad))])
			ids = append(ids, id)
		}
		s, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		// The same entries, noted in one pass.
		want := &Session{Header: s.Header, Entries: s.Entries}
		for _, d := range s.Diagnostics {
			if strings.Contains(d.Msg, "malformed JSON") {
				want.Diagnostics = append(want.Diagnostics, d)
			}
		}
		var g gathered
		for i := range want.Entries {
			var prev *Entry
			if i > 0 {
				prev = &want.Entries[i-1]
			}
			g.note(&want.Entries[i], prev, i)
		}
		want.index(&g)
		if len(s.parent) != len(want.parent) {
			t.Fatalf("%d parents, want %d", len(s.parent), len(want.parent))
		}
		for i := range s.parent {
			if s.parent[i] != want.parent[i] {
				t.Fatalf("dupRate %d: entry %d (line %d): parent %d, want %d", dupRate, i, s.Entries[i].Line, s.parent[i], want.parent[i])
			}
		}
		if fmt.Sprint(s.Diagnostics) != fmt.Sprint(want.Diagnostics) || fmt.Sprint(s.labels) != fmt.Sprint(want.labels) {
			t.Errorf("dupRate %d: diagnostics or labels differ:\n%v\n%v", dupRate, s.Diagnostics, want.Diagnostics)
		}
		if len(s.Diagnostics) < 10 {
			t.Errorf("dupRate %d: only %d problems: the session is too tame", dupRate, len(s.Diagnostics))
		}
	}
}
