package cli

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// unseenExpect is testdata/unseen's expectation of a file (written by
// hand, from the formats' descriptions, by someone who had not read
// skein's code; see testdata/unseen/README.md).
type unseenExpect struct {
	Format   string `json:"format"`
	Sessions []struct {
		Prompts, Answers, Thinking, ToolCallIDs, ToolResults []string
		Branches                                             int
		LatestPrompt                                         string
	} `json:"sessions"`
}

// Sessions of Claude Code, Codex, claude.ai, OpenAI Chat and ChatGPT that
// the tests never saw, imported into Dhara and into pi (format guessed):
// one session per conversation; doctor finds no problem; the markdown
// export of every branch holds every prompt, answer, thinking block and
// tool result; the json export every tool call id; as many branches as
// the conversation has; and the context ends on the latest prompt. (That
// pi 1.6.0 itself opens the pi files, pairs every call and continues them
// is testdata/pigen/importcheck.mjs, run by .ci/run.)
func TestImportUnseen(t *testing.T) {
	expects, _ := filepath.Glob("../testdata/unseen/*/*.expect.json")
	if len(expects) < 7 {
		t.Fatalf("%d expectation files", len(expects))
	}
	formats := map[string]bool{}
	for _, ef := range expects {
		src := strings.TrimSuffix(ef, ".expect.json")
		data, err := os.ReadFile(ef)
		if err != nil {
			t.Fatal(err)
		}
		var want unseenExpect
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: %v", ef, err)
		}
		formats[want.Format] = true
		// A split ChatGPT export is one export: its first part names it,
		// and the sessions are every part's.
		if part := regexp.MustCompile(`conversations-(\d+)\.json$`).FindStringSubmatch(src); part != nil {
			if part[1] != "000" {
				continue
			}
			more, _ := filepath.Glob(filepath.Join(filepath.Dir(src), "conversations-*.json.expect.json"))
			for _, m := range more[1:] {
				var w unseenExpect
				data, _ := os.ReadFile(m)
				if err := json.Unmarshal(data, &w); err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				want.Sessions = append(want.Sessions, w.Sessions...)
			}
		}
		for _, to := range []string{"dhara", "pi"} {
			out := t.TempDir()
			stdout, stderr, code := skein(t, "session", "import", "--file", src, "--to", to, "--out", out, "--json")
			if code != 0 {
				t.Errorf("%s --to %s: exit %d: %s", src, to, code, stderr)
				continue
			}
			var r struct {
				Path, Format string
				Sessions     []struct{ Path string }
			}
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatalf("%s: %v: %s", src, err, stdout)
			}
			if want.Format == "claude-ai" || want.Format == "chatgpt" {
				// The guess names the format the file is.
				if r.Format != want.Format {
					t.Errorf("%s: guessed %s", src, r.Format)
				}
			}
			paths := []string{r.Path}
			if len(r.Sessions) > 0 {
				paths = paths[:0]
				for _, s := range r.Sessions {
					paths = append(paths, s.Path)
				}
			}
			if len(paths) != len(want.Sessions) {
				t.Errorf("%s --to %s: %d sessions, want %d", src, to, len(paths), len(want.Sessions))
				continue
			}
			for k, p := range paths {
				w := want.Sessions[k]
				what := src + " --to " + to + " " + filepath.Base(p)
				if report, _, code := skein(t, "doctor", "--check-sessions", p); code != 0 || !strings.Contains(report, "0 problems") {
					t.Errorf("%s: doctor: exit %d\n%s", what, code, report)
				}
				md, _, code := skein(t, "session", "export", p, "--format", "markdown", "--all-branches")
				if code != 0 {
					t.Errorf("%s: markdown export: exit %d", what, code)
				}
				md = renderedText(t, md)
				for _, list := range [][]string{w.Prompts, w.Answers, w.Thinking, w.ToolResults} {
					for _, s := range list {
						if !strings.Contains(md, s) {
							t.Errorf("%s: the markdown export does not hold %q", what, s)
						}
					}
				}
				js, _, code := skein(t, "session", "export", p, "--format", "json")
				if code != 0 {
					t.Errorf("%s: json export: exit %d", what, code)
				}
				for _, id := range w.ToolCallIDs {
					if !strings.Contains(js, `"`+id+`"`) {
						t.Errorf("%s: the json export does not hold the call %q", what, id)
					}
				}
				var exported struct {
					Tree struct{ Branches []json.RawMessage }
				}
				if err := json.Unmarshal([]byte(js), &exported); err != nil {
					t.Errorf("%s: json export: %v", what, err)
				}
				if n := len(exported.Tree.Branches); n < w.Branches {
					t.Errorf("%s: %d branches, want %d", what, n, w.Branches)
				}
				ctx, _, code := skein(t, "session", "context", "--json", p)
				if code != 0 {
					t.Errorf("%s: context: exit %d", what, code)
				}
				if w.LatestPrompt != "" && !lastPromptHolds(ctx, w.LatestPrompt) {
					t.Errorf("%s: the context's last prompt is not %q", what, w.LatestPrompt)
				}
			}
		}
	}
	for _, f := range []string{"claude", "codex", "claude-ai", "openai", "chatgpt"} {
		if !formats[f] {
			t.Errorf("no unseen session of %s", f)
		}
	}
}

// renderedText is what a reader of the markdown sees: its HTML (goldmark,
// CommonMark and GFM) without the tags, entities decoded.
func renderedText(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(b.String(), ""))
}

// lastPromptHolds reports whether the last user message of a context
// (`session context --json`: pi's or Dhara's messages) holds text.
func lastPromptHolds(ctx, text string) bool {
	var c struct {
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	if json.Unmarshal([]byte(ctx), &c) != nil {
		return false
	}
	for k := len(c.Messages) - 1; k >= 0; k-- {
		if c.Messages[k].Role == "user" {
			return strings.Contains(string(c.Messages[k].Content), text)
		}
	}
	return false
}
