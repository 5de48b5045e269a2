// Command fakellm serves the Anthropic and OpenAI APIs on 127.0.0.1 with a
// canned summary, to try `skein session compact --summarizer llm` without a
// key (see the README). It logs each request's model and size.
package main

import (
	"flag"
	"log"
	"net/http"

	"skein/internal/llmtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8089", "where to listen (loopback only)")
	flag.Parse()
	s := &llmtest.Server{}
	h := s.Handler()
	log.Printf("fake LLM on http://%s (Anthropic: /v1/messages, OpenAI: /v1/chat/completions)", *addr)
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s (%d bytes)", r.Method, r.URL.Path, r.ContentLength)
		h.ServeHTTP(w, r)
	})))
}
