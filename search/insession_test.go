package search

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"skein/model"
	"skein/store"
)

// holdsAll is the search in a session without the index: the message's
// folded text holds every text.
func holdsAll(s *model.Session, i int, texts []string) bool {
	m := s.EntryMessage(i)
	low := Fold(m.SearchText())
	for _, t := range texts {
		if !strings.Contains(low, t) {
			return false
		}
	}
	return true
}

// What InSession says of each entry is what reading it finds: No where the
// message lacks a text, Yes (a text that is one word's letters) where it
// holds them, Maybe only where it may; only a file the index holds as it
// is gets an answer: one that grew since is not answered until the index
// is brought up to date, and then its new entry is known too; a damaged
// segment is no answer, and the next Update mends it.
func TestInSession(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	x := OpenIndex(idx)
	defer x.Close()
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	check := func(f string, s *model.Session, texts []string) {
		t.Helper()
		has, ok := x.InSession(f, s, texts)
		if !ok {
			t.Fatalf("%s: not answered", f)
		}
		for i, h := range has {
			switch want := holdsAll(s, i, texts); {
			case h == No && want, h == Yes && !want:
				t.Errorf("%s %q: entry %d is %d, reading it finds %v", f, texts, i, h, want)
			case h == Maybe && len(texts) == 1 && strings.IndexFunc(texts[0], func(r rune) bool { return !isWordRune(r) }) < 0:
				t.Errorf("%s %q: entry %d undecided", f, texts, i)
			}
		}
	}
	decided := 0
	for _, f := range files {
		s, err := store.Open(f)
		if err != nil {
			continue
		}
		for _, texts := range [][]string{{"the"}, {"he"}, {"ars"}, {"the file"}, {"e f"}, {"größe"}, {"zzqxj"}, {"read", "file"}, {"."}, {"error:"}} {
			check(f, s, texts)
		}
		has, _ := x.InSession(f, s, []string{"the"})
		for _, h := range has {
			if h != Unknown {
				decided++
			}
		}
	}
	if decided < 100 {
		t.Errorf("%d messages decided", decided)
	}
	// A file that grew: no answer until Update, then the new entry is known.
	f := files[0]
	id := "grown01"
	appendLine(t, f, fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-12-01T10:00:00.000Z","message":{"role":"user","content":"the zebracorn grazes","timestamp":1796119200000}}`, id, lastID(t, f)))
	s, err := store.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := x.InSession(f, s, []string{"zebracorn"}); ok {
		t.Fatal("answered for a file that grew since it was indexed")
	}
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	has, ok := x.InSession(f, s, []string{"zebracorn"})
	if i, _ := s.Index(id); !ok || has[i] != Yes {
		t.Fatalf("after Update: %v, the new entry %v", ok, has)
	}
	check(f, s, []string{"zebracorn"})
	// A segment damaged: no answer, and the next Update indexes it again.
	x.Close()
	segs, _ := filepath.Glob(filepath.Join(idx, "seg-*"))
	for _, seg := range segs {
		b, _ := os.ReadFile(seg)
		for k := len(b) / 3; k < len(b); k += 97 {
			b[k] ^= 0x55
		}
		os.WriteFile(seg, b, 0o600)
	}
	x = OpenIndex(idx)
	if _, ok := x.InSession(f, s, []string{"zebracorn"}); ok {
		t.Fatal("answered from a damaged segment")
	}
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	check(f, s, []string{"zebracorn"})
}

// foldRune is Fold as it was, rune by rune: the reference of its fast paths.
func foldRune(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch l := unicode.ToLower(r); {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[i])
		case utf8.RuneLen(l) == size:
			b.WriteRune(l)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Fold's ASCII paths fold as rune by rune does, on ASCII, other letters,
// bytes that are not UTF-8 and every mix of them.
func TestFoldFast(t *testing.T) {
	pieces := []string{"", "a", "Z", "abc", "ABC", "Hello, World", "\xff", "\xe2\x82", "ß", "İ", "K", "Größe", "ſ", "日本", "ΣΑΣ", "@[`{", "\x00"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if s := b.String(); Fold(s) != foldRune(s) {
			t.Fatalf("Fold(%q) = %q, want %q", s, Fold(s), foldRune(s))
		}
	}
}
