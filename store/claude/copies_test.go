package claude

import (
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// copied is a session whose compaction ran in a sub-agent whose file
// (subagents/agent-acompact-<id>.jsonl) copies two of the session's
// entries with their uuids, as Claude Code 2.1 writes it (issue 23).
const copied = fixtures + "/3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f.jsonl"

// TestCopiedUUIDs: a uuid another file has is that file's own, not a
// repeat: no problem is reported, the copies are the agent's entries,
// chained in its file, and the session's uuids name the session's.
func TestCopiedUUIDs(t *testing.T) {
	s := open(t, copied)
	if len(s.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", s.Diagnostics)
	}
	if len(s.Agents) != 1 || len(s.Entries) != 9 {
		t.Fatalf("%d agents, %d entries; want 1 and 9 (the boundary and its summary are one)", len(s.Agents), len(s.Entries))
	}
	var agent []string
	for k := range s.Entries {
		if s.Entries[k].Agent == 0 {
			agent = append(agent, idOf(s, k)+"<"+idOf(s, s.Parent(k)))
		}
	}
	if want := []string{"c-u1<", "c-a1<c-u1", "c-k1<c-a1", "c-k2<c-k1"}; !slices.Equal(agent, want) {
		t.Errorf("the agent's entries: %v, want %v", agent, want)
	}
	for k := range s.Entries {
		if e := &s.Entries[k]; e.Agent == 0 && s.Parent(k) >= 0 && s.Entries[s.Parent(k)].Agent != 0 {
			t.Errorf("the agent's %s hangs under the session's %s", e.ID, idOf(s, s.Parent(k)))
		}
	}
	if k := formattest.Index(t, s, "c-a1"); s.Entries[k].Agent != -1 {
		t.Errorf("c-a1 names the agent's copy")
	}
	if got := contextIDs(s, s.BuildContext(s.Leaf())); !slices.Equal(got, []string{"c-cb", "c-u2", "c-a2"}) {
		t.Errorf("context %v", got)
	}
	if got := s.Info(copied, 0).Branches; got != 1 {
		t.Errorf("%d branches", got)
	}
}

// A uuid that repeats inside one file is still reported, in the session's
// file and in an agent's.
func TestRepeatInOneFile(t *testing.T) {
	line := `{"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-11-02T09:00:00.000Z"}` + "\n"
	s, err := ParseFiles([]byte(line+line), []AgentFile{{Name: "s/subagents/agent-x.jsonl", Data: []byte(line + line)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range s.Diagnostics {
		got = append(got, d.File+":"+strings.Fields(d.Msg)[0]+" "+strings.Fields(d.Msg)[2]+" "+strings.Fields(d.Msg)[3])
	}
	if want := []string{`:uuid repeats line`, `s/subagents/agent-x.jsonl:uuid repeats line`}; !slices.Equal(got, want) {
		t.Errorf("diagnostics %v, want %v", got, want)
	}
}
