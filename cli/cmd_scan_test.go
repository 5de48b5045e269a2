package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/synth"
)

// secretFile writes a pi session holding every kind of secret in every
// place (synth.SecretSession) and returns its path.
func secretFile(t *testing.T) (string, []synth.Secret) {
	t.Helper()
	secrets := synth.Secrets()
	var texts []string
	for _, s := range secrets {
		texts = append(texts, s.Text)
	}
	f := filepath.Join(t.TempDir(), "2026-05-01T10-00-00-000Z_sec1.jsonl")
	if err := os.WriteFile(f, synth.SecretSession("/srv/app", texts), 0o600); err != nil {
		t.Fatal(err)
	}
	return f, secrets
}

// scan names the kinds a session holds and where, each secret by its
// kind, its first 4 characters and its length, never whole (text and
// --json), and exits 1; a session with none exits 0.
func TestScan(t *testing.T) {
	f, secrets := secretFile(t)
	out, stderr, code := skein(t, "scan", f)
	if code != 1 || stderr != "" {
		t.Errorf("exit %d, %q", code, stderr)
	}
	for _, s := range secrets {
		if strings.Contains(out, s.Value[:min(12, len(s.Value))]) && s.Kind != "aws-access-key" {
			t.Errorf("the %s is printed:\n%s", s.Kind, out)
		}
		if !strings.Contains(out, s.Kind+" "+string([]rune(s.Value)[:4])+"…") {
			t.Errorf("no %s %s…:\n%s", s.Kind, s.Value[:4], out)
		}
	}
	if !strings.Contains(out, "entry e0001 (line 2): anthropic-key sk-a… (66 characters)") || !strings.Contains(out, "1 session scanned, 1 holds secrets") {
		t.Errorf("text:\n%s", out)
	}
	js, _, code := skein(t, "scan", "--json", f)
	var rs []struct {
		Path    string
		Kinds   map[string]int
		Secrets []struct {
			Entry  string
			Line   int
			Kind   string
			Head   string
			Length int
		}
	}
	if code != 1 || json.Unmarshal([]byte(js), &rs) != nil || len(rs) != 1 || rs[0].Kinds["jwt"] == 0 || len(rs[0].Secrets) < 100 {
		t.Fatalf("--json: exit %d\n%.500s", code, js)
	}
	for _, s := range secrets {
		if strings.Contains(js, s.Value) {
			t.Errorf("--json prints the %s", s.Kind)
		}
	}
	clean := fixture(t, webapp, "2026-03-03")
	if out, _, code := skein(t, "scan", clean); code != 0 || !strings.Contains(out, "0 hold secrets") {
		t.Errorf("a clean session: exit %d\n%s", code, out)
	}
}

// export redacts by default: json's count on stderr, markdown's at its
// top; --no-redact keeps the secrets (the check can fail).
func TestExportRedacts(t *testing.T) {
	f, secrets := secretFile(t)
	for _, format := range []string{"json", "markdown", "html"} {
		out, stderr, code := skein(t, "session", "export", f, "--format", format)
		if code != 0 || format == "json" && (!strings.Contains(stderr, "secrets: ") || !strings.Contains(stderr, "private-key")) {
			t.Errorf("%s: exit %d, stderr %q", format, code, stderr)
		}
		for _, s := range secrets {
			if strings.Contains(out, s.Value) {
				t.Errorf("%s holds the %s", format, s.Kind)
			}
		}
		if format == "markdown" && !strings.Contains(out, "- Secrets: ") {
			t.Errorf("markdown: no count at the top:\n%.600s", out)
		}
		kept, stderr, _ := skein(t, "session", "export", f, "--format", format, "--no-redact")
		if !strings.Contains(kept, secrets[0].Value) || strings.Contains(stderr, "secrets") {
			t.Errorf("%s --no-redact: the secrets are not kept, or %q", format, stderr)
		}
	}
}
