package convert

import (
	"bytes"
	"fmt"

	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"skein/internal/jscan"
	"skein/model"
	"skein/store"
	"skein/store/dhara"
	"skein/store/pi"
)

// importSources are sessions of every format skein reads, each opened by
// its reader as an import would.
func importSources(t *testing.T) map[string]*model.Session {
	t.Helper()
	out := map[string]*model.Session{}
	add := func(format string, paths ...string) {
		for _, p := range paths {
			s, err := OpenAs(p, format)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			out[p] = s
		}
	}
	glob := func(pattern string) []string {
		m, _ := filepath.Glob(pattern)
		if len(m) == 0 {
			t.Fatalf("no fixture %s", pattern)
		}
		return m
	}
	add("pi", glob("../../testdata/pi/store/*/*.jsonl")...)
	add("claude", glob("../../testdata/claude/*.jsonl")...)
	add("codex", glob("../../testdata/codex/*.jsonl")...)
	add("openai", glob("../../testdata/openai/*.json")...)
	add("dhara-jsonl", glob("../../testdata/dhara05/sessions/*.jsonl")...)
	add("dhara", glob("../../testdata/dhara/store/*")...)
	// A review's cases: side notes, children of the leaf, compactions that
	// keep, an answer that was stopped, arguments over several lines.
	for _, p := range glob("../../testdata/import-edge/*") {
		f, err := GuessFormat(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		add(f, p)
	}
	return out
}

// A session of any format as pi's: every line a JSON object pi's reader
// (skein's, checked against pi 1.6.0 by the cross-check) takes with no
// problem; every call answered on its path before the next message; the
// source's leaf the file's last entry; and every prompt, answer, thinking
// block, call (id, name, arguments) and result of the source in it.
func TestFromSessionToPi(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for path, s := range importSources(t) {
		b, err := pi.FromSession(s, now, "/w", []byte(`{"path":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(b.Lines, []byte("\n")), []byte("\n"))
		for n, l := range lines {
			if !jscan.Valid(l) || l[0] != '{' {
				t.Fatalf("%s: line %d is not a JSON object: %.200s", path, n+1, l)
			}
		}
		got, err := pi.Parse(b.Lines)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if p := got.Problems(); len(p) > 0 {
			t.Errorf("%s: %v", path, p)
		}
		d := got.Domain(model.SessionInfo{Format: "pi"})
		if len(got.Entries) != len(lines)-1 {
			t.Errorf("%s: %d entries of %d lines", path, len(got.Entries), len(lines)-1)
		}
		for _, leaf := range leaves(d) {
			if open := unanswered(pathMessages(d, leaf)); len(open) > 0 {
				t.Errorf("%s: calls %v unanswered on the branch to %s", path, open, d.Entry(leaf).ID)
			}
		}
		// The leaf: the source's last message is the file's.
		if want, have := lastMessage(s, s.Leaf()), lastMessage(d, d.Leaf()); want != have {
			t.Errorf("%s: the leaf's last message\n got %.200s\nwant %.200s", path, have, want)
		}
		// pi's context at the leaf is the source's (a pi source's: other
		// formats' compactions keep what pi's cannot say), but for the
		// system prompt, kept as data, and the results written for calls
		// the source left unanswered.
		if s.Info.Format == "pi" && !contextDiffers[filepath.Base(path)] {
			if want, have := contextCanon(s), contextCanon(d); want != have {
				t.Errorf("%s: pi's context at the leaf differs: %s", path, closest(want, map[string]bool{have: true}))
			}
		}
		// Nothing lost.
		all := string(b.Lines)
		for _, want := range sourceTexts(s) {
			if !strings.Contains(all, want) {
				t.Errorf("%s: %.120s is not in the pi file", path, want)
			}
		}
	}
}

// pi to Dhara to pi keeps every message of every branch: the set of the
// branches' message sequences is the same (a call the source left
// unanswered gets a result saying so, both times).
func TestRoundTripPiDharaPi(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root := t.TempDir()
	files, _ := filepath.Glob("../../testdata/pi/store/*/*.jsonl")
	checked := 0
	for _, path := range files {
		src, err := OpenAs(path, "pi")
		if err != nil {
			t.Fatal(err)
		}
		dir, err := dhara.WriteNew(root, dhara.FromSession(src, now, nil))
		if err != nil {
			t.Fatal(err)
		}
		mid, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pi.FromSession(mid, now, src.Info.Cwd, nil)
		if err != nil {
			t.Fatal(err)
		}
		back, err := pi.Parse(b.Lines)
		if err != nil {
			t.Fatal(err)
		}
		d := back.Domain(model.SessionInfo{Format: "pi"})
		want, got := branchSet(src), branchSet(d)
		for k := range want {
			if !got[k] {
				t.Errorf("%s: a branch is lost: %s", path, closest(k, got))
			}
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%s: a branch that was not there: %s", path, closest(k, want))
			}
		}
		if len(want) > 1 {
			checked++
		}
	}
	if checked < 3 {
		t.Errorf("only %d sessions with branches", checked)
	}
}

func leaves(s *model.Session) []int {
	var out []int
	for i := range s.Len() {
		if len(s.Children(i)) == 0 {
			out = append(out, i)
		}
	}
	return out
}

// pathMessages are the messages of the branch to leaf as its format shows
// them (a Dhara message with its calls).
func pathMessages(s *model.Session, leaf int) []model.Message {
	var out []model.Message
	for _, m := range s.BuildHistory(leaf).Messages {
		if m.Kind == model.KindMessage {
			out = append(out, s.Message(m))
		}
	}
	return out
}

// unanswered are the calls no result answers before the next message
// that is not a result.
func unanswered(msgs []model.Message) []string {
	var out []string
	for k, m := range msgs {
		// pi leaves an answer that failed or was stopped out of what it
		// sends, calls and all.
		if m.Role != model.RoleAssistant || m.StopReason == "error" || m.StopReason == "aborted" {
			continue
		}
		got := map[string]bool{}
		for j := k + 1; j < len(msgs) && msgs[j].Role == model.RoleToolResult; j++ {
			got[msgs[j].ToolCallID] = true
		}
		for _, c := range m.ToolCalls() {
			if !got[c.ID] {
				out = append(out, c.ID)
			}
		}
	}
	return out
}

func lastMessage(s *model.Session, leaf int) string {
	msgs := pathMessages(s, leaf)
	for k := len(msgs) - 1; k >= 0; k-- {
		if m := msgs[k]; m.Role == model.RoleUser || m.Role == model.RoleAssistant {
			return canon(m)
		}
	}
	return ""
}

// sourceTexts are the texts of a session an import must keep, as JSON
// string contents: every text and thinking block, call id, name and
// argument, and result.
func sourceTexts(s *model.Session) []string {
	var out []string
	q := func(v string) string { b := jsonString(v); return string(b[1 : len(b)-1]) }
	for i := range s.Len() {
		if s.Entry(i).Kind != model.EntryMessage {
			continue
		}
		m := s.Message(model.ContextMessage{Entry: i})
		for _, blk := range m.Blocks {
			switch blk.Type {
			case model.BlockText, model.BlockThinking:
				if blk.Text != "" {
					out = append(out, q(blk.Text))
				}
			case model.BlockToolCall:
				out = append(out, `"id":`+string(jsonString(blk.Call.ID)), `"name":`+string(jsonString(blk.Call.Name)))
			}
		}
	}
	return out
}

func jsonString(s string) []byte { return []byte(quote(s)) }

// canon is a message as the round trip compares it: role, text, thinking,
// calls, result.
func canon(m model.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", m.Role)
	if m.Role == model.RoleToolResult {
		fmt.Fprintf(&b, " %s %s %v", m.ToolCallID, m.ToolName, m.IsError)
	}
	if m.Role == model.RoleBashExecution {
		fmt.Fprintf(&b, " %q %q %s", m.Command, m.Output, m.ExitCode)
	}
	for _, blk := range m.Blocks {
		switch blk.Type {
		case model.BlockText:
			fmt.Fprintf(&b, " text:%q", blk.Text)
		case model.BlockThinking:
			fmt.Fprintf(&b, " thinking:%q", blk.Text)
		case model.BlockToolCall:
			fmt.Fprintf(&b, " call:%s/%s/%s", blk.Call.ID, blk.Call.Name, callInput(blk.Call.Input))
		case model.BlockImage:
			fmt.Fprintf(&b, " image:%s/%d", blk.MimeType, len(blk.Data))
		}
	}
	return b.String()
}

func callInput(raw []byte) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	return string(raw)
}

// branchSet is the set of a session's branches as their message sequences
// (user, assistant, results, commands; not the system prompt, which an
// import keeps as data), without those that are a prefix of another and
// without the results an import writes for unanswered calls.
func branchSet(s *model.Session) map[string]bool {
	var seqs []string
	for _, leaf := range leaves(s) {
		var lines []string
		for _, m := range pathMessages(s, leaf) {
			if m.Role == model.RoleSystem || m.Role == model.RoleToolResult && strings.HasPrefix(m.Text(""), "(no result") {
				continue
			}
			lines = append(lines, canon(m))
		}
		seqs = append(seqs, strings.Join(lines, "\n")+"\n")
	}
	out := map[string]bool{}
	for _, a := range seqs {
		if a == "\n" || slices.ContainsFunc(seqs, func(b string) bool { return len(b) > len(a) && strings.HasPrefix(b, a) }) {
			continue
		}
		out[a] = true
	}
	return out
}

// closest says where branch a differs from the branch of others that
// shares the most lines with it.
func closest(a string, others map[string]bool) string {
	al := strings.Split(a, "\n")
	best, at := "", -1
	for b := range others {
		bl := strings.Split(b, "\n")
		n := 0
		for n < len(al) && n < len(bl) && al[n] == bl[n] {
			n++
		}
		if n > at {
			best, at = b, n
		}
	}
	short := func(s string) string {
		if len(s) > 160 {
			return s[:160] + "…"
		}
		return s
	}
	bl := strings.Split(best, "\n")
	other := "(none)"
	if at >= 0 && at < len(bl) {
		other = short(bl[at])
	}
	if at < 0 {
		at = 0
	}
	return fmt.Sprintf("%d lines, line %d %q; the closest has %q", len(al), at+1, short(al[at]), other)
}

// The format of every fixture is guessed from its first bytes, the hostile
// ones' too (a first line that does not parse, a byte-order mark).
func TestGuessFormat(t *testing.T) {
	want := map[string]string{
		"../../testdata/codex/hostile.jsonl":                                                                 "codex",
		"../../testdata/codex/legacy.jsonl":                                                                  "codex",
		"../../testdata/claude/rewind-compact.jsonl":                                                         "claude",
		"../../testdata/openai/tool-call.json":                                                               "openai",
		"../../testdata/openai/plain-array.json":                                                             "openai",
		"../../testdata/unseen/openai/chat.json":                                                             "openai",
		"../../testdata/unseen/claude-ai/conversations.json":                                                 "claude-ai",
		"../../testdata/unseen/chatgpt/conversations.json":                                                   "chatgpt",
		"../../testdata/unseen/chatgpt-split/conversations-001.json":                                         "chatgpt",
		"../../testdata/unseen/claude-code/f1223443-4724-4b0d-9b6a-1f1b8a55e1fc.jsonl":                       "claude",
		"../../testdata/unseen/codex/rollout-2026-05-04T10-11-12-019df2c4-7a31-7d52-9b0e-4c1f6a2e8d93.jsonl": "codex",
		"../../testdata/dhara05/sessions/b7e0d5a2-1c3f-4d8e-9b6a-0f4e2c8d7a13.jsonl":                         "dhara-jsonl",
	}
	pis, _ := filepath.Glob("../../testdata/pi/store/*/*.jsonl")
	for _, p := range pis {
		want[p] = "pi"
	}
	for path, format := range want {
		if got, err := GuessFormat(path); got != format {
			t.Errorf("%s: guessed %q (%v), want %s", path, got, err, format)
		}
	}
}

// contextDiffers are the review's cases where pi's context of the import
// is not the source's, by design: a result that is not on its call's
// branch right after it (after a compaction between them, on another
// branch) is kept as data, and the call answered as unanswered.
var contextDiffers = map[string]bool{"p3-compact-mid.jsonl": true, "p8-otherbranch.jsonl": true}

// contextCanon is the context at the leaf as the comparison of contexts
// sees it: its messages, but the system prompt, the results an import
// writes for unanswered calls, and the results of calls pi does not send.
func contextCanon(s *model.Session) string {
	var lines []string
	for _, m := range s.BuildContext(s.Leaf()).Messages {
		if m.Kind == model.KindSystemCheckpoint {
			continue
		}
		msg := s.Message(m)
		if msg.Role == model.RoleSystem || msg.Role == model.RoleToolResult && strings.HasPrefix(msg.Text(""), "(no result") {
			continue
		}
		lines = append(lines, canon(msg))
	}
	return strings.Join(lines, "\n") + "\n"
}
