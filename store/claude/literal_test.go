package claude

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"skein/internal/jsjson"
	"skein/internal/synth"
	"skein/model"
)

// MessageLiteral gives every message Message gives, but a text or thinking
// it hands over as its literal: exactly what JSON.stringify writes of the
// text Message decodes, so that a writer copying it writes what it would
// have encoded. Over the fixtures, a synthetic log, and the hostile corpus
// (whose escapes encoding/json wrote: \u003c is decoded, not copied).
func TestMessageLiteralIsMessage(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/claude/*.jsonl")
	dir := t.TempDir()
	synthPath := filepath.Join(dir, "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70.jsonl")
	if err := os.WriteFile(synthPath, synth.ClaudeLog(1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	hostile := filepath.Join(dir, "5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a.jsonl")
	if err := os.WriteFile(hostile, []byte(synth.HostileImports()["claude.jsonl"]), 0o600); err != nil {
		t.Fatal(err)
	}
	files = append(files, synthPath, hostile)
	literals, decoded := 0, 0
	for _, path := range files {
		s, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i := range s.Entries {
			cm := model.ContextMessage{Entry: i}
			m, l := s.Message(cm), s.MessageLiteral(cm)
			if len(m.Blocks) != len(l.Blocks) {
				t.Fatalf("%s entry %d: %d blocks, %d literal", path, i, len(m.Blocks), len(l.Blocks))
			}
			for k := range m.Blocks {
				mb, lb := m.Blocks[k], l.Blocks[k]
				if lb.TextJSON != nil {
					literals++
					if want := jsjson.AppendString(nil, mb.Text); string(lb.TextJSON) != string(want) || lb.Text != "" {
						t.Fatalf("%s entry %d block %d: literal %s, JSON.stringify writes %s", path, i, k, lb.TextJSON, want)
					}
					lb.TextJSON, lb.Text = nil, mb.Text
				} else if mb.Text != "" {
					decoded++
				}
				if !reflect.DeepEqual(mb, lb) {
					t.Fatalf("%s entry %d block %d:\n%+v\n%+v", path, i, k, mb, lb)
				}
			}
			m.Blocks, l.Blocks = nil, nil
			if !reflect.DeepEqual(m, l) {
				t.Fatalf("%s entry %d:\n%+v\n%+v", path, i, m, l)
			}
		}
	}
	if literals < 100 || decoded < 10 {
		t.Errorf("%d texts given as literals, %d decoded: want many of both", literals, decoded)
	}
}
