package model

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
