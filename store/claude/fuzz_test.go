package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// exercise calls every reader of a session and checks what must hold
// whatever the bytes: a forest, a leaf among the entries, every entry
// found by its id, valid JSON out.
func exercise(t *testing.T, s *Session) {
	t.Helper()
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:     func(i int) string { return s.Entries[i].ID },
		NoLeaf: true,
		Forest: true,
		Entry: func(i int) {
			_ = s.Entry(i)
			_ = s.Raw(i)
			_ = s.MessageHead(model.ContextMessage{Entry: i})
			if n := s.Len(); i < 20 || i > n-20 {
				_ = s.BuildHistory(i)
				_ = s.BuildContext(i)
			}
		},
		Session: func() {
			_ = s.Info("x.jsonl", 0)
			_ = s.Name()
		},
	})
}

// hostile is a file of what a reader must survive: a BOM, garbage, lines
// that are JSON but not objects, members of the wrong types, a parent
// missing, cycles, a uuid repeated, escapes and bytes that are not UTF-8,
// CRLF, deep nesting, a line of several megabytes, a partial last line.
func hostile() []byte {
	var b bytes.Buffer
	b.WriteString("\xef\xbb\xbf")
	for _, l := range []string{
		// 1: the first prompt (after a BOM)
		`{"type":"user","uuid":"h1","parentUuid":null,"sessionId":"hostile","cwd":"/tmp/x","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"first prompt"}}`,
		// 2-5: not JSON, cut off, JSON but not objects
		`not json at all`,
		`{"type":"user"`,
		`[1,2,3]`,
		`"a string"`,
		// 6: members of the wrong types
		`{"type":5,"uuid":7,"parentUuid":{"x":1},"message":[]}`,
		// 7: a message that is a string
		`{"type":"user","uuid":"h2","parentUuid":"h1","message":"just a string"}`,
		// 8: an id that is a number, content a string, usage of strings and nulls
		`{"type":"assistant","uuid":"h3","parentUuid":"h2","message":{"id":42,"content":"text as a string","usage":{"input_tokens":"12","output_tokens":null}}}`,
		// 9: blocks of every wrong shape, two tool results
		`{"type":"user","uuid":"h4","parentUuid":"h3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":9,"content":{"x":1}},7,"str",{"type":"image","source":"bad"},{"type":"tool_result"}]}}`,
		// 10: a parent not in the file
		`{"type":"assistant","uuid":"h5","parentUuid":"missing-parent","message":{"id":"m5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":"not an object"},{"type":"tool_use"}]}}`,
		// 11-12: a cycle
		`{"type":"user","uuid":"c1","parentUuid":"c2","message":{"role":"user","content":"cycle one"}}`,
		`{"type":"user","uuid":"c2","parentUuid":"c1","message":{"role":"user","content":"cycle two"}}`,
		// 13: its own parent
		`{"type":"user","uuid":"self","parentUuid":"self","message":{"role":"user","content":"my own parent"}}`,
		// 14: a uuid line 1 has
		`{"type":"user","uuid":"h1","parentUuid":null,"message":{"role":"user","content":"a repeated uuid"}}`,
		// 15: escapes, a lone surrogate, U+2028, bytes that are not UTF-8, CRLF
		"{\"type\":\"user\",\"uuid\":\"e\\u0031\",\"parentUuid\":\"h5\",\"timestamp\":\"not a date\",\"message\":{\"role\":\"user\",\"content\":\"\\u001b[31mred\\u001b[0m \u2028 \\ud800 lone \\ud83d\\ude00 </script> \\\"q\\\" \xff\xfe bad bytes\"}}\r",
		// 16: a sidechain no call started
		`{"type":"user","uuid":"side1","parentUuid":null,"isSidechain":true,"agentId":"nobody","message":{"role":"user","content":"an agent no call started"}}`,
		// 17: a compact summary with no boundary
		`{"type":"user","uuid":"cs1","parentUuid":"e1","isCompactSummary":true,"message":{"role":"user","content":"a summary with no boundary"}}`,
		// 18: a boundary whose logical parent is not there
		`{"type":"system","subtype":"compact_boundary","uuid":"cb1","parentUuid":null,"logicalParentUuid":"nowhere","compactMetadata":{"preTokens":"many"}}`,
		// 19: m5 again, after a compaction
		`{"type":"assistant","uuid":"h6","parentUuid":"cb1","isApiErrorMessage":true,"message":{"id":"m5","model":"<synthetic>","content":[]}}`,
		// 20: deep nesting
		`{"type":"user","uuid":"deep","parentUuid":"h6","message":{"role":"user","content":[` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `]}}`,
		// 21: a result of 5 MB
		`{"type":"user","uuid":"huge","parentUuid":"deep","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + strings.Repeat(`x\"\\y\n`, 1<<20) + `"}]}}`,
		// 22: a summary, the title
		`{"type":"summary","summary":"` + strings.Repeat("s", 300) + `","leafUuid":"huge"}`,
		// 23: a title that is a number
		`{"type":"custom-title","customTitle":7}`,
		// 24: an empty object
		`{}`,
	} {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(`{"type":"assistant","uuid":"z`) // 25: a partial last line
	return b.Bytes()
}

func TestHostile(t *testing.T) {
	s, err := Parse(hostile())
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, s)
	var lines []int
	for _, d := range s.Diagnostics {
		lines = append(lines, d.Line)
		if d.Line == 25 && !strings.Contains(d.Msg, "partial last line") {
			t.Errorf("line 25: %q", d.Msg)
		}
	}
	slices.Sort(lines)
	// Skipped: 2 3 4 5 25; the wrong parentUuid of 6; the message of 7;
	// h5's missing parent (10); a cycle (11 or 12); the self-parent is
	// a root (13, no cycle: the line's parent is itself, never linked); the
	// repeated uuid (14); 16's agent has no call, which is not a problem.
	for _, want := range []int{2, 3, 4, 5, 6, 7, 10, 14, 25} {
		if !slices.Contains(lines, want) {
			t.Errorf("no diagnostic for line %d: %v", want, s.Diagnostics)
		}
	}
	if !slices.ContainsFunc(lines, func(l int) bool { return l == 11 || l == 12 }) {
		t.Errorf("no diagnostic for the cycle: %v", s.Diagnostics)
	}
	if got := idOf(s, s.Parent(formattest.Index(t, s, "h5"))); got != "h4" {
		t.Errorf("h5, whose parent is missing, hangs under %q, want h4 (the line before it)", got)
	}
	if m := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "h1")}); m.Text("") != "first prompt" {
		t.Error("the repeated uuid replaced the first line")
	}
	if m := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "e1")}); !strings.Contains(m.Text(""), "\x1b[31mred") || !strings.Contains(m.Text(""), "\U0001F600") {
		t.Errorf("escapes: %q", m.Text(""))
	}
	if m := s.Message(model.ContextMessage{Entry: formattest.Index(t, s, "huge")}); len(m.Text("")) != 5<<20 {
		t.Errorf("the huge result: %d bytes", len(m.Text("")))
	}
	if k := s.Entries[formattest.Index(t, s, "cs1")].kind; k != model.EntryCompaction {
		t.Errorf("a summary with no boundary: kind %v", k)
	}
	if idOf(s, s.Parent(formattest.Index(t, s, "h6"))) != "cb1" || s.Entries[formattest.Index(t, s, "h6")].Agent != -1 {
		t.Error("m5 after the compaction was merged into the reply before it")
	}
	if s.Name() != strings.Repeat("s", 300) {
		t.Errorf("name %q", s.Name())
	}
}

// FuzzParse feeds damaged logs to every reader: none may panic or loop.
// The seeds are the fixtures cut into pieces of a few lines: a seed of
// tens of kilobytes has the engine minimize each new input for up to
// -fuzzminimizetime (a minute), reporting nothing meanwhile.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for k := 0; k < len(lines); k += 6 {
			piece := bytes.Join(lines[k:min(k+6, len(lines))], nil)
			if len(piece) > 3000 {
				piece = piece[:3000]
			}
			f.Add(piece)
		}
	}
	h := hostile()
	f.Add(h[:2000])
	f.Add([]byte(`{"type":"assistant","uuid":"a","parentUuid":"b","message":{"id":"m","content":[]}}` + "\n" +
		`{"type":"assistant","uuid":"b","parentUuid":"a","message":{"id":"m","content":[]}}` + "\n" +
		`{"type":"user","uuid":"c","parentUuid":"b","message":{"content":[{"type":"tool_result","tool_use_id":"x"},{"type":"tool_result","tool_use_id":"y"},{"type":"text","text":"t"}]}}`))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","uuid":"b","logicalParentUuid":"b"}` + "\n" +
		`{"type":"user","uuid":"s","parentUuid":"b","isCompactSummary":true,"message":{"content":"x"}}` + "\n" +
		`{"type":"user","uuid":"t","parentUuid":"b","isCompactSummary":true,"message":{"content":"y"}}`))
	f.Add([]byte(`{"type":"user","uuid":"u","isSidechain":true,"message":{"content":"p"}}` + "\n" +
		`{"type":"assistant","uuid":"a","parentUuid":"u","isSidechain":true,"message":{"content":[{"type":"tool_use","id":"k","name":"Task","input":{"prompt":"p"}}]}}` + "\n" +
		`{"type":"user","uuid":"v","parentUuid":null,"isSidechain":false,"message":{"content":"p"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		_ = SessionIDOf(data)
		s, err := Parse(data)
		if err != nil {
			return
		}
		exercise(t, s)
		// The same bytes as a sub-agent's file of a session.
		s, err = ParseFiles([]byte(`{"type":"user","uuid":"root","message":{"content":[{"type":"tool_use","id":"x","name":"Agent","input":{"prompt":"p"}}]}}`),
			[]AgentFile{{Name: "agent-a.jsonl", Data: data, Meta: data}})
		if err != nil {
			t.Fatal(err)
		}
		exercise(t, s)
	})
}
