package synth

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// treeSum hashes every file under dir, names and bytes, in walk order.
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// The default output is what the tests' and the TUI's goldens were made
// from: it must not change by a byte.
func TestDefaultOutputUnchanged(t *testing.T) {
	dir := t.TempDir()
	if err := Session(filepath.Join(dir, "s.jsonl"), "/home/dev/big", 2<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
		t.Fatal(err)
	}
	if got := treeSum(t, dir); got != sessionSum {
		t.Errorf("Session's output changed: sha256 %s, want %s", got, sessionSum)
	}
	dir = t.TempDir()
	if err := Store(dir, 25, 8<<20, 1); err != nil {
		t.Fatal(err)
	}
	if got := treeSum(t, dir); got != storeSum {
		t.Errorf("Store's output changed: sha256 %s, want %s", got, storeSum)
	}
}

const (
	sessionSum = "02a8fcc48d34e5e66c50925e154f79b9db3646e3c170ad148eb6e980257f6798"
	storeSum   = "2f31cbdd694381870166e01b5716c1c7881d2b663cca2e1f7179e40f9ff02224"
)

// The varied vocabulary writes the same bytes for a seed however many
// sessions are written at once, and still pi's lines: one JSON object
// each, every entry the child of the one before.
func TestVocabStore(t *testing.T) {
	fixture, files, missing, err := FixtureWords("../../testdata/pi")
	if err != nil || files == 0 || len(missing) > 0 || len(fixture) < 500 {
		t.Fatalf("FixtureWords: %d words from %d files, missing %v, %v", len(fixture), files, missing, err)
	}
	if fixture[0] != "the" {
		t.Errorf("the commonest fixture word is %q", fixture[0])
	}
	v := NewVocab(fixture, 20000, 1.2, 1)
	if w := NewVocab(fixture, 20000, 1.2, 1); !slices.Equal(v.words, w.words) || !slices.Equal(v.head, w.head) || !slices.Equal(v.tail, w.tail) {
		t.Fatal("NewVocab differs for the same arguments")
	}
	if v.Len() != v.Fixture+20000 || v.Word(0) != "the" {
		t.Fatalf("%d words, %d from the fixtures, the first %q", v.Len(), v.Fixture, v.Word(0))
	}
	one, three := t.TempDir(), t.TempDir()
	if err := StoreWith(one, 7, 3<<20, 5, StoreOptions{Vocab: v, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if err := StoreWith(three, 7, 3<<20, 5, StoreOptions{Vocab: v, Workers: 3}); err != nil {
		t.Fatal(err)
	}
	if treeSum(t, one) != treeSum(t, three) {
		t.Fatal("the bytes depend on the number of workers")
	}
	messages, marked, words := 0, 0, map[string]bool{}
	err = filepath.WalkDir(one, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		prev := ""
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var e struct {
				Type     string  `json:"type"`
				ID       string  `json:"id"`
				ParentID *string `json:"parentId"`
				Message  struct {
					Role string `json:"role"`
				} `json:"message"`
			}
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				return fmt.Errorf("%s:%d: %v", p, i+1, err)
			}
			if i == 0 {
				if e.Type != "session" {
					return fmt.Errorf("%s: header %q", p, e.Type)
				}
				continue
			}
			if e.Type != "message" || e.Message.Role == "" || (prev == "") != (e.ParentID == nil) || e.ParentID != nil && *e.ParentID != prev {
				return fmt.Errorf("%s:%d: %s", p, i+1, line[:min(len(line), 200)])
			}
			prev = e.ID
			messages++
			if strings.Contains(line, "wombat-") {
				marked++
			}
			for _, w := range strings.FieldsFunc(line, func(r rune) bool { return !unicode.IsLetter(r) }) {
				words[strings.ToLower(w)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if marked == 0 || marked > messages/50 {
		t.Errorf("%d of %d messages have wombat-", marked, messages)
	}
	if len(words) < 5000 {
		t.Errorf("only %d distinct words", len(words))
	}
}
