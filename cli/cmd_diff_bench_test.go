package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/model"
	"skein/store"
)

// branched100 is the synthetic 100 MB pi session with a second branch:
// a few entries off the entry halfway through the file, appended last
// (so the leaf). It returns the file and the ids of the two ends: the
// main chain's last entry and the branch's. Written once per machine.
func branched100(b *testing.B) (path, mainEnd, branchEnd string) {
	path = filepath.Join(os.TempDir(), "skein-bench-100mb-branched-v1.jsonl")
	mainEnd, branchEnd = "", "bbbb0004"
	if _, err := os.Stat(path); err != nil {
		tmp := path + ".tmp" + time.Now().Format(".150405.000000000")
		if err := synth.Session(tmp, "/home/dev/huge", 100<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
			b.Fatal(err)
		}
		data, err := os.ReadFile(tmp)
		if err != nil {
			b.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
		var mid struct{ ID string }
		if err := json.Unmarshal(lines[len(lines)/2], &mid); err != nil || mid.ID == "" {
			b.Fatalf("the middle line has no id: %v", err)
		}
		ts := `"timestamp":"2026-05-09T08:00:00.000Z"`
		branch := []string{
			`{"type":"message","id":"bbbb0001","parentId":"` + mid.ID + `",` + ts + `,"message":{"role":"user","content":"Try the other way.","timestamp":1778313600000}}`,
			`{"type":"message","id":"bbbb0002","parentId":"bbbb0001",` + ts + `,"message":{"role":"assistant","content":[{"type":"toolCall","id":"bw","name":"write","arguments":{"path":"main.go","content":"package main\n"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"toolUse","timestamp":1778313600000}}`,
			`{"type":"message","id":"bbbb0003","parentId":"bbbb0002",` + ts + `,"message":{"role":"toolResult","toolCallId":"bw","toolName":"write","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1778313600000}}`,
			`{"type":"message","id":"bbbb0004","parentId":"bbbb0003",` + ts + `,"message":{"role":"assistant","content":[{"type":"text","text":"Done the other way."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop","timestamp":1778313600000}}`,
		}
		for _, l := range branch {
			if err := synth.AppendLine(tmp, l); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.Rename(tmp, path); err != nil {
			b.Fatal(err)
		}
	}
	s, err := store.OpenMapped(path)
	if err != nil {
		b.Fatal(err)
	}
	// The main chain ends at the last entry before the branch.
	mainEnd = s.Entry(s.Len() - 5).ID
	return path, mainEnd, branchEnd
}

// BenchmarkDiffBranches compares the two branches of the 100 MB session:
// the comparison alone, on a session open (what the TUI's diff screen
// runs off Update), and `session diff` as a whole, open included. Issue
// 27's target is at most 1 s.
func BenchmarkDiffBranches(b *testing.B) {
	path, mainEnd, branchEnd := branched100(b)
	b.Run("compare", func(b *testing.B) {
		s, err := store.OpenMapped(path)
		if err != nil {
			b.Fatal(err)
		}
		l, _ := s.Index(mainEnd)
		r, _ := s.Index(branchEnd)
		for b.Loop() {
			d := model.CompareSessions(model.DiffEnd{Session: s, Leaf: l}, model.DiffEnd{Session: s, Leaf: r})
			if d.Shared == 0 || len(d.Right.Messages) != 4 {
				b.Fatalf("shared %d, right %d", d.Shared, len(d.Right.Messages))
			}
		}
	})
	b.Run("command", func(b *testing.B) {
		b.Setenv("HOME", b.TempDir())
		b.Setenv("XDG_CACHE_HOME", "")
		for b.Loop() {
			if code := Run([]string{"session", "diff", "--json", path + "@" + mainEnd, path + "@" + branchEnd}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
				b.Fatalf("exit %d", code)
			}
		}
	})
}
