package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The preview says a message's words, not its markup: no tags, no
// heading marks, no bold marks.
func TestPreviewLeavesOutMarkup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "--p--")
	os.MkdirAll(dir, 0o755)
	data := `{"type":"session","version":3,"id":"00000001-aaaa-4aaa-8aaa-aaaaaaaaaaaa","timestamp":"2026-11-20T09:12:00.000Z","cwd":"/p"}` + "\n" +
		`{"type":"message","id":"a1b2c3d1","parentId":null,"timestamp":"2026-11-20T09:12:01.000Z","message":{"role":"user","content":"<command-message>init is analyzing</command-message>","timestamp":1763629921000}}` + "\n" +
		`{"type":"message","id":"a1b2c3d2","parentId":"a1b2c3d1","timestamp":"2026-11-20T09:12:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"## Plan\n\nA **token bucket** per client."}],"api":"x","provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1763629922000}}` + "\n"
	os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte(data), 0o644)
	msg := loadPreview(filepath.Join(dir, "s.jsonl"))().(previewMsg)
	var all []string
	for _, l := range msg.lines {
		all = append(all, l.text)
	}
	got := strings.Join(all, " | ")
	if strings.ContainsAny(got, "<>#*") || !strings.Contains(got, "init is analyzing") || !strings.Contains(got, "A token bucket per client") {
		t.Errorf("preview lines: %q", got)
	}
}
