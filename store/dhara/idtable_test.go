package dhara

import (
	"fmt"
	"strings"
	"testing"
)

// Lines whose ids repeat, in a session large enough for the id table to
// be built a part per core: each copy is dropped, its First is the kept
// entry with its id, SameBytes tells a copy from damage, the kept
// entries stay in order, and every id is found at its kept index.
func TestDuplicatesAtScale(t *testing.T) {
	const n = 1 << 17
	var b strings.Builder
	var wantIDs []string
	for i := range n {
		id := fmt.Sprintf("e%06d", i)
		fmt.Fprintf(&b, `{"id":%q,"type":"custom","timestamp":"2026-01-01T00:00:00.000Z","customType":"x","data":%d}`+"\n", id, i)
		wantIDs = append(wantIDs, id)
		switch {
		case i%1000 == 999: // an interrupted move's copy: the same bytes
			fmt.Fprintf(&b, `{"id":%q,"type":"custom","timestamp":"2026-01-01T00:00:00.000Z","customType":"x","data":%d}`+"\n", id, i)
		case i%1777 == 1776: // damage: the id of an earlier line
			fmt.Fprintf(&b, `{"id":"e%06d","type":"custom","timestamp":"2026-01-01T00:00:00.000Z","customType":"y","data":0}`+"\n", i/2)
		}
	}
	s := Parse(Files{Entries: []byte(b.String())})
	if len(s.Entries) != n {
		t.Fatalf("%d entries kept, want %d", len(s.Entries), n)
	}
	for i, e := range s.Entries {
		if e.ID != wantIDs[i] {
			t.Fatalf("entry %d is %s, want %s", i, e.ID, wantIDs[i])
		}
		if j, ok := s.byID.get(e.ID); !ok || j != i {
			t.Fatalf("id %s found at %d (%v), want %d", e.ID, j, ok, i)
		}
	}
	same, other := 0, 0
	for _, d := range s.Duplicates {
		if first := s.Entries[d.First]; first.ID != d.Entry.ID {
			t.Fatalf("duplicate %s: First %d is %s", d.Entry.ID, d.First, first.ID)
		}
		if d.SameBytes {
			same++
		} else {
			other++
		}
	}
	if want := n / 1000; same != want {
		t.Errorf("%d same-byte copies, want %d", same, want)
	}
	if want := n / 1777; other < want-1 || other > want+1 {
		t.Errorf("%d damaged copies, want about %d", other, want)
	}
	if _, ok := s.byID.get("e999999"); ok {
		t.Error("an id no entry has is found")
	}
}
