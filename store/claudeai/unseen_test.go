package claudeai

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/model"
	"skein/store/pi"
)

// TestUnseen reads the claude.ai export the project's unseen fixtures hold
// (made from the format's public descriptions, without reading this
// code) and checks what their expectations say an import must find.
func TestUnseen(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "unseen", "claude-ai", "conversations.json")
	data, err := os.ReadFile(path + ".expect.json")
	if os.IsNotExist(err) {
		t.Skip("no unseen fixture")
	}
	if err != nil {
		t.Fatal(err)
	}
	var expect struct {
		Sessions []struct {
			Prompts, Answers, Thinking, ToolCallIDs, ToolResults []string
			Branches                                             int
			LatestPrompt                                         string
		}
	}
	if err := json.Unmarshal(data, &expect); err != nil {
		t.Fatal(err)
	}
	convs, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != len(expect.Sessions) {
		t.Fatalf("%d conversations, want %d", len(convs), len(expect.Sessions))
	}
	raws := rawConversations(t, path)
	for n, want := range expect.Sessions {
		c := convs[n]
		s := checkLines(t, c.Lines)
		nothingLost(t, raws[n], c.Lines)
		var prompts, answers, thinking, results []string
		calls := map[string]bool{}
		for i := range s.Len() {
			if s.Entry(i).Type != "message" {
				continue
			}
			m := s.Message(model.ContextMessage{Entry: i, Kind: model.KindMessage})
			switch m.Role {
			case model.RoleUser:
				prompts = append(prompts, m.Text("\n"))
			case model.RoleAssistant:
				answers = append(answers, m.Text("\n"))
				for _, b := range m.Blocks {
					if b.Type == model.BlockThinking {
						thinking = append(thinking, b.Text)
					}
				}
				for _, tc := range m.ToolCalls() {
					calls[tc.ID] = true
				}
			case model.RoleToolResult:
				results = append(results, m.Text("\n"))
			}
		}
		for _, list := range []struct {
			name       string
			want, have []string
		}{{"prompt", want.Prompts, prompts}, {"answer", want.Answers, answers}, {"thinking", want.Thinking, thinking}, {"result", want.ToolResults, results}} {
			for _, w := range list.want {
				if !containsAny(list.have, w) {
					t.Errorf("conversation %d: no %s %q", n, list.name, w)
				}
			}
		}
		msgs := contextOf(s)
		pairs := model.PairTools(msgs)
		for _, id := range want.ToolCallIDs {
			if _, ok := pairs[id]; !calls[id] || !ok {
				t.Errorf("conversation %d: call %s missing or unanswered", n, id)
			}
		}
		if got := messageLeaves(s); got != want.Branches {
			t.Errorf("conversation %d: %d branches, want %d", n, got, want.Branches)
		}
		latest := ""
		for _, m := range msgs {
			if m.Role == model.RoleUser {
				latest = m.Text("\n")
			}
		}
		if !strings.HasPrefix(latest, want.LatestPrompt) {
			t.Errorf("conversation %d: latest prompt %q, want %q", n, latest, want.LatestPrompt)
		}
	}
}

func containsAny(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// messageLeaves counts the branches: the messages nearest to each entry
// that has no children (custom and title entries hang below messages).
func messageLeaves(s *pi.Session) int {
	seen := map[int]bool{}
	for i := range s.Len() {
		if len(s.Children(i)) > 0 {
			continue
		}
		j := i
		for j >= 0 && s.Entry(j).Type != "message" {
			j = s.Parent(j)
		}
		if j >= 0 {
			seen[j] = true
		}
	}
	return len(seen)
}
