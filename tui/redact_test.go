package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/internal/synth"
)

// clipboard is what the commands of cmd put on the clipboard.
func clipboard(cmd tea.Cmd) []string {
	if cmd == nil {
		return nil
	}
	var out []string
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, clipboard(c)...)
		}
	default:
		if strings.Contains(fmt.Sprintf("%T", msg), "Clipboard") {
			out = append(out, fmt.Sprint(msg))
		}
	}
	return out
}

// y copies a message without its secrets (the status says how many went);
// x k asks for an export that keeps them, and says so.
func TestCopyAndExportRedact(t *testing.T) {
	secrets := synth.Secrets()
	var texts []string
	for _, s := range secrets {
		texts = append(texts, s.Text)
	}
	root := t.TempDir()
	file := filepath.Join(root, "--srv-app--", "2026-05-01T10-00-00-000Z_sec1.jsonl")
	os.MkdirAll(filepath.Dir(file), 0o700)
	if err := os.WriteFile(file, synth.SecretSession("/srv/app", texts), 0o600); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "deploy with")
	press(m, "tab")
	copies := 0
	for range 12 {
		for _, c := range clipboard(press(m, "y")) {
			copies++
			for _, s := range secrets {
				if strings.Contains(c, s.Value) {
					t.Errorf("copied a %s: %q", s.Kind, c)
				}
			}
			if !strings.Contains(c, "[REDACTED:") {
				t.Errorf("copied no placeholder: %q", c)
			}
		}
		press(m, "k")
	}
	if copies == 0 {
		t.Fatal("y copied nothing")
	}
	run(m, press(m, "x"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "[REDACTED:KIND]") {
		t.Errorf("the export dialog does not say it redacts:\n%s", v)
	}
	run(m, press(m, "k"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Secrets are KEPT") {
		t.Fatalf("k: the dialog does not say the secrets are kept:\n%s", v)
	}
	run(m, press(m, "j"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Export as json, secrets kept") {
		t.Errorf("j after k: not an export that keeps secrets:\n%s", v)
	}
}

// The preview marks a session that holds secrets, with their kinds (read
// where the preview is read, in its command); a session with none has no
// mark.
func TestPreviewMarksSecrets(t *testing.T) {
	secrets := synth.Secrets()
	root := t.TempDir()
	file := filepath.Join(root, "--srv-app--", "2026-05-01T10-00-00-000Z_sec1.jsonl")
	os.MkdirAll(filepath.Dir(file), 0o700)
	if err := os.WriteFile(file, synth.SecretSession("/srv/app", []string{secrets[0].Text, secrets[16].Text}), 0o600); err != nil {
		t.Fatal(err)
	}
	msg := loadPreview(file)().(previewMsg)
	// Each text is in a dozen places (messages, labels, a summary, the name).
	if !strings.HasPrefix(msg.secrets, "23 secrets: 11 anthropic-key, 12 jwt") {
		t.Errorf("preview: %q", msg.secrets)
	}
	m := loaded(t, 160, 40, true, root)
	m.Update(msg)
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "⚠ 23 secrets: 11 anthropic-key, 12 jwt") {
		t.Errorf("no mark in the preview:\n%s", v)
	}
	clean := loadPreview("../testdata/pi/store/--home-dev-webapp--/" + firstFile(t, "../testdata/pi/store/--home-dev-webapp--"))().(previewMsg)
	if clean.err != nil || clean.secrets != "" {
		t.Errorf("a clean session: %q %v", clean.secrets, clean.err)
	}
}

func firstFile(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil || len(es) == 0 {
		t.Fatal(err)
	}
	return es[0].Name()
}
