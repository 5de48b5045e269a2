package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Claude Code log of one line holds "role" inside its message: it is
// Claude Code's, not OpenAI Chat JSON, however deep one of its values nests
// (encoding/json refuses past 10,000 levels, which named two formats the
// file is not).
func TestOneLineClaudeLogIsClaudes(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	line := `{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"5c0375b4-57a5-4f26-b12d-d022ee4e51b7","version":"2.1.3","type":"user","message":{"role":"user","content":"hello there"},"uuid":"e2ab9812-8be7-4e9e-8194-d9b7b9d6da14","timestamp":"2025-09-03T00:47:19.000Z","deep":` + deep + "}\n"
	path := filepath.Join(t.TempDir(), "one.jsonl")
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := GuessFormat(path)
	if err != nil || f != "claude" {
		t.Fatalf("guessed %q %v", f, err)
	}
	s, err := OpenAs(path, f)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if n := s.Source.Len(); n != 1 {
		t.Errorf("%d entries", n)
	}
}
