package convert

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/store"
)

// An output (an export) never replaces a session or an export of a format
// skein imports, with or without --force: store's check of the path asks
// this package, which alone knows the exports' JSON documents, and a plain
// file of the user's is still only "exists".
func TestCheckOutputRefusesWhatConvertReads(t *testing.T) {
	dir := t.TempDir()
	env := store.Env{Home: t.TempDir(), WorkingDirPath: dir}
	for _, src := range []string{
		"../../testdata/unseen/chatgpt/conversations.json",
		"../../testdata/unseen/chatgpt-split/conversations-001.json",
		"../../testdata/unseen/claude-ai/conversations.json",
		"../../testdata/unseen/openai/chat.json",
		"../../testdata/openai/plain-array.json",
		"../../testdata/unseen/codex/rollout-2026-05-04T10-11-12-019df2c4-7a31-7d52-9b0e-4c1f6a2e8d93.jsonl",
	} {
		format, _ := GuessFormat(src)
		_, err := env.CheckOutput(src)
		var oe *store.OutputError
		if !errors.As(err, &oe) || !strings.Contains(oe.Reason, "is a session ("+format+")") {
			t.Errorf("%s: %v, want it refused as a session (%s)", filepath.Base(src), err, format)
		}
	}
	notes := filepath.Join(dir, "notes.json")
	os.WriteFile(notes, []byte(`{"todo": ["write", "read"]}`+"\n"), 0o600)
	if exists, err := env.CheckOutput(notes); !exists || err != nil {
		t.Errorf("a plain file of the user's: exists %v, %v", exists, err)
	}
}
