package search

import (
	"strings"
	"testing"

	"skein/model"
	"skein/store"
)

func session(t *testing.T, lines ...string) *model.Session {
	t.Helper()
	s, err := store.Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s.Info.Path = "/s.jsonl"
	return s
}

// Ranked by BM25 (more of the word in a shorter message first), ties
// newest first; system prompts only with role:system; tool: narrows to a
// tool's calls and results; every branch is searched.
func TestRanking(t *testing.T) {
	s := session(t,
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"system","content":"You are a wombat helper.","timestamp":1}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"wombat wombat","timestamp":2}}`,
		`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"one wombat among many other words in a much longer message about nothing"}],"timestamp":3}}`,
		`{"type":"message","id":"a4","parentId":"a2","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"one wombat among many other words in a much longer message about nothing"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"timestamp":4}}`,
		`{"type":"message","id":"a6","parentId":"a2","timestamp":"2026-11-20T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"one wombat among many other words in a much longer message about nothing"}],"timestamp":6}}`,
		`{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-11-20T10:00:04.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":"no wombat here","isError":false,"timestamp":5}}`,
	)
	run := func(query string) []string {
		q, err := Parse(query)
		if err != nil {
			t.Fatal(err)
		}
		sr := New(q)
		sr.Add(s)
		var ids []string
		for _, h := range sr.Hits(0) {
			ids = append(ids, h.EntryID)
		}
		return ids
	}
	if got := strings.Join(run("wombat"), " "); got != "a2 a5 a6 a3 a4" {
		t.Errorf("wombat: %s (want the repeated short one first, ties newest first, no system prompt)", got)
	}
	if got := strings.Join(run("wombat role:system"), " "); got != "a1" {
		t.Errorf("role:system: %s", got)
	}
	if got := strings.Join(run("wombat tool:bash"), " "); got != "a5 a4" {
		t.Errorf("tool:bash: %s", got)
	}
	if got := strings.Join(run("wombat cwd:/elsewhere"), " "); got != "" {
		t.Errorf("cwd: %s", got)
	}
}
