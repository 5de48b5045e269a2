// Package llmtest is a local stand-in for the model providers' HTTP APIs
// (Anthropic Messages and OpenAI Chat Completions, streamed as server-sent
// events), recording what it is asked: for tests, and for trying compaction
// without a key (testdata/fakellm).
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Server answers summarization requests like a provider.
type Server struct {
	mu       sync.Mutex
	Requests []map[string]any
	Headers  []http.Header
	Paths    []string
}

// Answer is what the stand-in model says, in pieces: a turn-prefix summary
// when asked for one, else a history summary.
func Answer(prompt string) []string {
	if strings.Contains(prompt, "earlier context from an ongoing conversation") {
		return []string{"## Original Request\n", "Add the endpoint.\n\n", "## Early Progress\n- read the server"}
	}
	return []string{"## Goal\n", "Add a /health endpoint.\n\n", "## Progress\n### Done\n- [x] Added it"}
}

func (s *Server) record(r *http.Request) map[string]any {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	json.Unmarshal(body, &req)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests = append(s.Requests, req)
	s.Headers = append(s.Headers, r.Header.Clone())
	s.Paths = append(s.Paths, r.URL.Path)
	return req
}

func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// Anthropic serves POST /v1/messages, streaming.
func (s *Server) Anthropic(w http.ResponseWriter, r *http.Request) {
	req := s.record(r)
	w.Header().Set("Content-Type", "text/event-stream")
	user := fmt.Sprint(req["messages"])
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": req["model"], "content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 100, "output_tokens": 1}}})
	sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	for _, piece := range Answer(user) {
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": piece}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]any{"output_tokens": 20}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// OpenAI serves POST /v1/chat/completions, streaming.
func (s *Server) OpenAI(w http.ResponseWriter, r *http.Request) {
	req := s.record(r)
	w.Header().Set("Content-Type", "text/event-stream")
	user := fmt.Sprint(req["messages"])
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": req["model"],
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	sse(w, "", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, piece := range Answer(user) {
		sse(w, "", chunk(map[string]any{"content": piece}, nil))
	}
	sse(w, "", chunk(map[string]any{}, "stop"))
	if opts, _ := req["stream_options"].(map[string]any); opts["include_usage"] == true {
		// As OpenAI sends it: a last chunk without choices, prompt_tokens
		// counting the cached ones too.
		sse(w, "", map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": req["model"], "choices": []any{},
			"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 20, "total_tokens": 140,
				"prompt_tokens_details": map[string]any{"cached_tokens": 20}, "completion_tokens_details": map[string]any{"reasoning_tokens": 5}}})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// Handler routes both APIs by path.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.Anthropic)
	mux.HandleFunc("POST /v1/chat/completions", s.OpenAI)
	return mux
}
