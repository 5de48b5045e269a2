package summarize

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/llmtest"
	"skein/model"
	"skein/store"
)

func session(t *testing.T, glob string) *model.Session {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join("..", "testdata", "pi", glob))
	if len(m) != 1 {
		t.Fatalf("%s: %v", glob, m)
	}
	data, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLLMAgainstEachProvider(t *testing.T) {
	s := session(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	for _, provider := range []string{Anthropic, OpenAI, OpenAICompatible} {
		t.Run(provider, func(t *testing.T) {
			f := &llmtest.Server{}
			srv := httptest.NewServer(f.Handler())
			defer srv.Close()
			base := srv.URL + "/v1"
			if provider == Anthropic {
				base = srv.URL
			}
			var streamed strings.Builder
			c := Config{Provider: provider, Model: "test-model", APIKey: "sk-test", BaseURL: base, ReserveTokens: 16384,
				OnDelta: func(s string) { streamed.WriteString(s) }}
			// A split turn: two requests at once, joined as pi joins them.
			p := s.PlanCompaction(s.Leaf(), 10)
			if p == nil || !p.IsSplitTurn || len(p.TurnPrefixMessages) == 0 || len(p.MessagesToSummarize) == 0 {
				t.Fatalf("plan %+v", p)
			}
			sum, usage, err := LLM(context.Background(), c, s, p, "mind the tests")
			if err != nil {
				t.Fatal(err)
			}
			// The two requests' tokens added (store/pi writes them in pi's shape).
			switch {
			case usage == nil:
				t.Error("no usage")
			case provider == Anthropic && (usage.Input != 200 || usage.Output != 40 || usage.CacheRead != 0):
				t.Errorf("usage %+v: want the two requests' tokens added", *usage)
			case provider != Anthropic && (usage.Input != 200 || usage.CacheRead != 40 || usage.Output != 40 || usage.Reasoning != 10 || usage.Total != 280):
				t.Errorf("usage %+v: want the two requests' tokens added, cached ones apart", *usage)
			}
			want := "## Goal\nAdd a /health endpoint.\n\n## Progress\n### Done\n- [x] Added it\n\n---\n\n**Turn Context (split turn):**\n\n## Original Request\nAdd the endpoint.\n\n## Early Progress\n- read the server"
			if sum != want {
				t.Errorf("summary:\n%s\nwant:\n%s", sum, want)
			}
			if streamed.Len() == 0 {
				t.Error("no progress while streaming")
			}
			if len(f.Requests) != 2 {
				t.Fatalf("%d requests", len(f.Requests))
			}
			var sawHistory, sawPrefix bool
			for k, req := range f.Requests {
				if req["model"] != "test-model" || req["stream"] != true {
					t.Errorf("request %d: model %v stream %v", k, req["model"], req["stream"])
				}
				body, _ := json.Marshal(req)
				text := string(body)
				if !strings.Contains(text, "You are a context summarization assistant") {
					t.Errorf("request %d lacks pi's system prompt", k)
				}
				if strings.Contains(text, "# Instructions") && strings.Contains(text, "earlier context from an ongoing conversation") {
					sawPrefix = true
					if !strings.Contains(text, "Additional focus: mind the tests") {
						t.Errorf("prefix request lacks the instructions")
					}
					continue
				}
				sawHistory = true
				for _, w := range []string{"\\u003cconversation\\u003e", "[User]: Add a /health endpoint", "Additional focus: mind the tests", "Create a structured context checkpoint summary"} {
					if !strings.Contains(text, w) {
						t.Errorf("history request lacks %q", w)
					}
				}
				if mt, _ := req["max_tokens"].(float64); provider == Anthropic && mt != 13107 {
					t.Errorf("max_tokens %v, want 80%% of 16384", req["max_tokens"])
				}
			}
			if !sawHistory || !sawPrefix {
				t.Errorf("history %v prefix %v", sawHistory, sawPrefix)
			}
			h := f.Headers[0]
			switch provider {
			case Anthropic:
				if h.Get("X-Api-Key") != "sk-test" || f.Paths[0] != "/v1/messages" {
					t.Errorf("anthropic: key %q path %s", h.Get("X-Api-Key"), f.Paths[0])
				}
			default:
				if h.Get("Authorization") != "Bearer sk-test" || f.Paths[0] != "/v1/chat/completions" {
					t.Errorf("%s: auth %q path %s", provider, h.Get("Authorization"), f.Paths[0])
				}
			}
		})
	}
}

func TestLLMUpdatesThePreviousSummary(t *testing.T) {
	s := session(t, "store/--home-dev-tools--/2026-03-04*.jsonl")
	f := &llmtest.Server{}
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	p := s.PlanCompaction(s.Leaf(), 0)
	if p == nil || p.PreviousCompaction < 0 || len(p.MessagesToSummarize) == 0 {
		t.Fatalf("plan %+v", p)
	}
	if _, _, err := LLM(context.Background(), Config{Provider: Anthropic, Model: "m", APIKey: "k", BaseURL: srv.URL}, s, p, ""); err != nil {
		t.Fatal(err)
	}
	// A split turn sends its prefix at the same time: find the history request.
	body, _ := json.Marshal(f.Requests)
	for _, w := range []string{"\\u003cprevious-summary\\u003e", "Update the existing structured summary", "PRESERVE all existing information"} {
		if !strings.Contains(string(body), w) {
			t.Errorf("requests lack %q", w)
		}
	}
}

func TestLLMErrorsAndCancel(t *testing.T) {
	s := session(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	p := s.PlanCompaction(s.Leaf(), 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	_, _, err := LLM(context.Background(), Config{Provider: Anthropic, Model: "m", APIKey: "bad", BaseURL: srv.URL}, s, p, "")
	if err == nil || !strings.Contains(err.Error(), "invalid x-api-key") && !strings.Contains(err.Error(), "401") {
		t.Errorf("err %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := LLM(ctx, Config{Provider: Anthropic, Model: "m", APIKey: "k", BaseURL: srv.URL}, s, p, ""); err == nil {
		t.Error("a cancelled summary succeeded")
	}
}

func TestFromEnv(t *testing.T) {
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	if _, err := FromEnv(""); err != ErrNoModel {
		t.Errorf("nothing set: %v", err)
	}
	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	if _, err := FromEnv(""); err == nil || !strings.Contains(err.Error(), "--model") {
		t.Errorf("compatible without a model: %v", err)
	}
	c, err := FromEnv("openai-compatible/llama3.2")
	if err != nil || c.BaseURL != "http://localhost:11434/v1" || c.Model != "llama3.2" {
		t.Errorf("compatible: %+v %v", c, err)
	}
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	if c, err := FromEnv(""); err != nil || c.Provider != Anthropic || c.Model != "claude-sonnet-4-5" {
		t.Errorf("anthropic by key: %+v %v", c, err)
	}
	if _, err := FromEnv("nope"); err == nil {
		t.Error("a --model without a provider accepted")
	}
}

// The compaction's summary ends with the file lists as pi writes them.
func TestEntry(t *testing.T) {
	s := session(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	p := s.PlanCompaction(s.Leaf(), 10)
	c := Entry(s, p, "## Goal\nx\n", nil)
	if !strings.HasSuffix(c.Summary, "\n\n<read-files>\nsrc/server.ts\n</read-files>") && !strings.Contains(c.Summary, "<modified-files>") {
		t.Errorf("summary %q", c.Summary)
	}
	if c.FirstKeptEntryID != p.FirstKeptEntryID || c.TokensBefore != p.TokensBefore || c.Plan != p {
		t.Errorf("compaction %+v for plan %+v", c, p)
	}
}

// TestClientStreams: what the providers send besides a clean answer. The
// SDK retries an overloaded server, the client gives the server's reason
// for a failure, and stops at an error in the stream or a stream cut short.
func TestClientStreams(t *testing.T) {
	answer := func(w http.ResponseWriter, events ...string) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			fmt.Fprintf(w, "%s\n\n", e)
		}
	}
	start := `event: message_start
data: {"type":"message_start","message":{"usage":{"input_tokens":7,"cache_read_input_tokens":3,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	delta := `event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Sum"}}`
	stop := `event: message_stop
data: {"type":"message_stop"}`
	cases := []struct {
		name    string
		handler func(calls int, w http.ResponseWriter)
		calls   int
		text    string
		err     string
	}{
		{"overloaded, then an answer", func(calls int, w http.ResponseWriter) {
			if calls < 3 {
				w.Header().Set("Retry-After", "0")
				http.Error(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, 529)
				return
			}
			answer(w, start, ": a comment", delta, `event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}`, stop)
		}, 3, "Sum", ""},
		{"overloaded three times", func(calls int, w http.ResponseWriter) {
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, 529)
		}, 3, "", "529"},
		{"a bad request is not retried", func(calls int, w http.ResponseWriter) {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`, 400)
		}, 1, "", "max_tokens: too large"},
		{"an error in the stream", func(calls int, w http.ResponseWriter) {
			answer(w, start, delta, `event: error
data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
		}, 1, "", "Overloaded"},
		{"a stream cut short", func(calls int, w http.ResponseWriter) { answer(w, start, delta) }, 1, "", "ended before the answer did"},
		{"no text", func(calls int, w http.ResponseWriter) { answer(w, start, stop) }, 1, "", "no text"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls++
				tc.handler(calls, w)
			}))
			defer srv.Close()
			c := Config{Provider: Anthropic, Model: "m", APIKey: "k", BaseURL: srv.URL + "/"}
			text, u, err := c.complete(context.Background(), "hi", 100, nil)
			if calls != tc.calls {
				t.Errorf("%d requests, want %d", calls, tc.calls)
			}
			if tc.err == "" {
				if err != nil || text != tc.text || u.Input != 7 || u.CacheRead != 3 || u.Output != 9 || u.Total != 16 {
					t.Errorf("got %q %+v %v", text, u, err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err %v, want %q", err, tc.err)
			}
		})
	}
}

func TestOpenAIRequests(t *testing.T) {
	f := &llmtest.Server{}
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	for _, c := range []Config{
		{Provider: OpenAI, Model: "gpt-5-mini", APIKey: "k", BaseURL: srv.URL + "/v1"},
		{Provider: OpenAI, Model: "gpt-4.1", APIKey: "k", BaseURL: srv.URL + "/v1"},
		{Provider: OpenAICompatible, Model: "llama3.2", BaseURL: srv.URL + "/v1/"},
	} {
		if _, _, err := c.complete(context.Background(), "hi", 100, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Reasoning models take max_completion_tokens; others, and servers
	// compatible with OpenAI, max_tokens. A server without a key gets none.
	if f.Requests[0]["max_completion_tokens"] != 100.0 || f.Requests[0]["max_tokens"] != nil ||
		f.Requests[1]["max_tokens"] != 100.0 || f.Requests[2]["max_tokens"] != 100.0 {
		t.Errorf("requests %v", f.Requests)
	}
	if f.Headers[2].Get("Authorization") != "" || f.Paths[2] != "/v1/chat/completions" {
		t.Errorf("compatible server: auth %q path %s", f.Headers[2].Get("Authorization"), f.Paths[2])
	}
	msgs, _ := f.Requests[0]["messages"].([]any)
	if first, _ := msgs[0].(map[string]any); len(msgs) != 2 || first["role"] != "system" || first["content"] != SummarizationSystemPrompt {
		t.Errorf("messages %v", msgs)
	}
}
