package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolText is a tool result's text, and whether it is an error.
func toolText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, map[string]any, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	var out map[string]any
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &out)
	return b.String(), out, res.IsError
}

// skein mcp in this process, on pipes as its stdin and stdout: a label
// written through the server is in `skein session tree`'s, then cleared.
func TestMCPCommandLabelsAsTheTreeShows(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var errb strings.Builder
		done <- Run([]string{"mcp", filepath.Dir(f)}, inR, outW, &errb)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text, _, isErr := toolText(t, cs, "label_entry", map[string]any{"session": "019cb3ff", "entry": "d20164ee", "label": "redis path"}); isErr {
		t.Fatal(text)
	}
	tree, _, _ := skeinIn(t, home, "session", "tree", "--json", f)
	if !strings.Contains(tree, `"label":"redis path"`) {
		t.Error("the label is not in the tree")
	}
	plain, _, _ := skeinIn(t, home, "session", "tree", f)
	if !strings.Contains(plain, "[redis path]") {
		t.Errorf("the tree does not show the label: %s", plain)
	}
	toolText(t, cs, "label_entry", map[string]any{"session": f, "entry": "d20164ee"})
	if tree, _, _ := skeinIn(t, home, "session", "tree", "--json", f); strings.Contains(tree, `"label":"redis path"`) {
		t.Error("the label was not cleared")
	}
	cs.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("skein mcp ended with %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("skein mcp did not end when its client went")
	}
}

// The built skein, run as an agent runs it (skein mcp, the SDK's
// CommandTransport on its stdin and stdout): every tool answers.
func TestMCPSubprocess(t *testing.T) {
	bin := skeinBinary(t)
	dir := t.TempDir()
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	os.Rename(f, filepath.Join(dir, filepath.Base(f)))
	f = filepath.Join(dir, filepath.Base(f))
	cmd := exec.Command(bin, "mcp", dir)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CACHE_HOME=", "PI_CODING_AGENT_DIR=", "PI_CODING_AGENT_SESSION_DIR=")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.InitializeResult().ServerInfo.Name != "skein" {
		t.Errorf("server %+v", cs.InitializeResult().ServerInfo)
	}
	text, out, isErr := toolText(t, cs, "search_sessions", map[string]any{"query": "redis", "limit": 1})
	if isErr || len(out["hits"].([]any)) != 1 || out["next_cursor"] == nil {
		t.Fatalf("search: %v %q %v", isErr, text, out)
	}
	hit := out["hits"].([]any)[0].(map[string]any)
	if _, out, isErr := toolText(t, cs, "list_sessions", nil); isErr || out["total"].(float64) != 1 {
		t.Errorf("list: %v", out)
	}
	text, out, isErr = toolText(t, cs, "read_session", map[string]any{"session": hit["session_id"], "entry": hit["entry_id"], "before": 1, "after": 1, "max_chars": 2000})
	if isErr || len(text) > 2000 || !strings.Contains(text, "entry "+hit["entry_id"].(string)) {
		t.Errorf("read: %v %d %q", isErr, len(text), text)
	}
	if _, out, isErr := toolText(t, cs, "session_stats", map[string]any{"session": f}); isErr || out["row_count"].(float64) != 1 {
		t.Errorf("stats: %v", out)
	}
	if text, _, isErr := toolText(t, cs, "label_entry", map[string]any{"session": f, "entry": "d20164ee", "label": "from a process"}); isErr {
		t.Errorf("label: %s", text)
	}
	if text, _, isErr := toolText(t, cs, "read_session", map[string]any{"session": "no-such-session"}); !isErr || !strings.HasPrefix(text, "session: ") {
		t.Errorf("a bad session: %v %q", isErr, text)
	}
	data, _ := os.ReadFile(f)
	if !strings.Contains(string(data), `"label":"from a process"`) {
		t.Error("the label is not in the file")
	}
}

// A folder that is not there is an error before the server starts, as
// for every command over PATHs.
func TestMCPMissingFolder(t *testing.T) {
	_, stderr, code := skein(t, "mcp", filepath.Join(t.TempDir(), "nowhere"))
	if code != 1 || !strings.Contains(stderr, "nowhere") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}
