package summarize

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"skein/model"
)

// usage is what one answer cost, as the provider counted it. Input excludes
// tokens read from the cache, as pi counts them.
type usage struct {
	Input, Output, CacheRead, CacheWrite, Reasoning, Total int64
}

// Default addresses of the providers' APIs.
const (
	anthropicURL = "https://api.anthropic.com"
	openaiURL    = "https://api.openai.com/v1"
)

// complete streams one answer to pi's summarization system prompt and user,
// and returns its text and what it cost: Anthropic's Messages API, or the
// Chat Completions API of OpenAI or of a compatible server, as server-sent
// events over plain HTTP (two small clients instead of the providers'
// SDKs, which brought the AWS and Google Cloud SDKs along).
func (c Config) complete(ctx context.Context, user string, maxTokens int64, onDelta func(string)) (string, usage, error) {
	var req *http.Request
	var err error
	var read func(event string, data []byte) (text string, done bool, err error)
	var u usage
	switch c.Provider {
	case Anthropic:
		req, err = c.anthropicRequest(ctx, user, maxTokens)
		read = u.anthropicEvent
	case OpenAI, OpenAICompatible:
		req, err = c.openaiRequest(ctx, user, maxTokens)
		read = u.openaiChunk
	default:
		return "", u, fmt.Errorf("unknown provider %q", c.Provider)
	}
	if err != nil {
		return "", u, err
	}
	resp, err := send(ctx, req)
	if err != nil {
		return "", u, err
	}
	defer resp.Body.Close()
	var b strings.Builder
	err = readEvents(resp.Body, func(event string, data []byte) (bool, error) {
		text, done, err := read(event, data)
		if text != "" {
			b.WriteString(text)
			if onDelta != nil {
				onDelta(text)
			}
		}
		return done, err
	})
	if cerr := ctx.Err(); cerr != nil {
		return "", u, cerr
	}
	if err == errEarlyEnd && c.Provider != Anthropic {
		err = nil // some compatible servers end without [DONE]
	}
	if err != nil {
		return "", u, fmt.Errorf("%s: %w", c.Provider, err)
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return "", u, errors.New("the model returned no text")
	}
	return text, u, nil
}

func (c Config) anthropicRequest(ctx context.Context, user string, maxTokens int64) (*http.Request, error) {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type message struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}
	body, err := json.Marshal(struct {
		Model     string    `json:"model"`
		MaxTokens int64     `json:"max_tokens"`
		System    []block   `json:"system"`
		Messages  []message `json:"messages"`
		Stream    bool      `json:"stream"`
	}{c.Model, maxTokens, []block{{"text", model.SummarizationSystemPrompt}}, []message{{"user", []block{{"text", user}}}}, true})
	if err != nil {
		return nil, err
	}
	base := c.BaseURL
	if base == "" {
		base = anthropicURL
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("X-Api-Key", c.APIKey)
	req.Header.Set("Anthropic-Version", "2023-06-01")
	return req, nil
}

// anthropicEvent reads one event of a Messages stream.
func (u *usage) anthropicEvent(_ string, data []byte) (string, bool, error) {
	var ev struct {
		Type    string `json:"type"`
		Message struct {
			Usage anthropicUsage `json:"usage"`
		} `json:"message"`
		Delta struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"delta"`
		Usage anthropicUsage `json:"usage"`
		Error *apiError      `json:"error"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return "", false, fmt.Errorf("unreadable event: %w", err)
	}
	switch ev.Type {
	case "message_start":
		ev.Message.Usage.addTo(u)
	case "content_block_delta":
		if ev.Delta.Type == "text_delta" {
			return ev.Delta.Text, false, nil
		}
	case "message_delta":
		ev.Usage.addTo(u)
	case "message_stop":
		return "", true, nil
	case "error":
		return "", false, ev.Error
	}
	return "", false, nil
}

// anthropicUsage is a Messages usage; a count it leaves out is nil, and
// output_tokens is the count so far, not an increment.
type anthropicUsage struct {
	Input      *int64 `json:"input_tokens"`
	Output     *int64 `json:"output_tokens"`
	CacheRead  *int64 `json:"cache_read_input_tokens"`
	CacheWrite *int64 `json:"cache_creation_input_tokens"`
}

func (a anthropicUsage) addTo(u *usage) {
	set := func(dst *int64, v *int64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&u.Input, a.Input)
	set(&u.Output, a.Output)
	set(&u.CacheRead, a.CacheRead)
	set(&u.CacheWrite, a.CacheWrite)
	u.Total = u.Input + u.Output
}

func (c Config) openaiRequest(ctx context.Context, user string, maxTokens int64) (*http.Request, error) {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	req := map[string]any{
		"model":          c.Model,
		"messages":       []message{{"system", model.SummarizationSystemPrompt}, {"user", user}},
		"stream":         true,
		"stream_options": map[string]bool{"include_usage": true},
	}
	// OpenAI's reasoning models take max_completion_tokens, and refuse max_tokens.
	if c.Provider == OpenAI && reasoningModel(c.Model) {
		req["max_completion_tokens"] = maxTokens
	} else {
		req["max_tokens"] = maxTokens
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	base := c.BaseURL
	if base == "" {
		base = openaiURL
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "text/event-stream")
	if c.APIKey != "" {
		r.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	return r, nil
}

func reasoningModel(id string) bool {
	for _, p := range []string{"o1", "o3", "o4", "oss"} {
		if strings.HasPrefix(id, p) || strings.Contains(id, "-"+p) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(id), "gpt-5")
}

// openaiChunk reads one chunk of a Chat Completions stream.
func (u *usage) openaiChunk(_ string, data []byte) (string, bool, error) {
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		return "", true, nil
	}
	var ch struct {
		Choices []struct {
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
		} `json:"choices"`
		Usage *struct {
			Prompt     int64 `json:"prompt_tokens"`
			Completion int64 `json:"completion_tokens"`
			Total      int64 `json:"total_tokens"`
			Prompts    struct {
				Cached int64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
			Completions struct {
				Reasoning int64 `json:"reasoning_tokens"`
			} `json:"completion_tokens_details"`
		} `json:"usage"`
		Error *apiError `json:"error"`
	}
	if err := json.Unmarshal(data, &ch); err != nil {
		return "", false, fmt.Errorf("unreadable chunk: %w", err)
	}
	if ch.Error != nil {
		return "", false, ch.Error
	}
	if v := ch.Usage; v != nil && v.Total > 0 {
		*u = usage{Input: max(v.Prompt-v.Prompts.Cached, 0), Output: v.Completion, CacheRead: v.Prompts.Cached,
			Reasoning: v.Completions.Reasoning, Total: v.Total}
	}
	var text strings.Builder
	for _, c := range ch.Choices {
		text.WriteString(c.Delta.Content)
	}
	return text.String(), false, nil
}

// apiError is the error object both APIs send, in a stream or as a body.
type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	if e.Type != "" && e.Message != "" {
		return e.Type + ": " + e.Message
	}
	return e.Type + e.Message
}

// send posts req, retrying twice, as the providers' SDKs do, when the
// server is overloaded or limits the rate (408, 409, 429, 5xx) or the
// connection fails, after half a second and then a second, or as long as
// the server's Retry-After asks (up to a minute). Any other status is an
// error with the server's reason.
func send(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		r := req.Clone(ctx)
		if req.GetBody != nil {
			r.Body, _ = req.GetBody()
		}
		resp, err := http.DefaultClient.Do(r)
		retry := err != nil
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				return resp, nil
			}
			retry = resp.StatusCode == 408 || resp.StatusCode == 409 || resp.StatusCode == 429 || resp.StatusCode >= 500
			err = statusError(resp)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !retry || attempt == 2 {
			return nil, err
		}
		wait := time.Duration(500<<attempt) * time.Millisecond
		if resp != nil {
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 && s <= 60 {
				wait = time.Duration(s) * time.Second
			}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// statusError is a failed response's status and reason, read from its body.
func statusError(resp *http.Response) error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var e struct {
		Error *apiError `json:"error"`
	}
	reason := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Error != nil {
		reason = e.Error.Error()
	}
	if len(reason) > 500 {
		reason = reason[:500] + "..."
	}
	msg := fmt.Sprintf("%s %s: %s", resp.Request.URL.Redacted(), resp.Status, reason)
	return errors.New(strings.TrimSuffix(msg, ": "))
}

// readEvents reads a server-sent event stream, calling fn with each event's
// name and data until fn says it is done, or errs, or the stream ends.
func readEvents(r io.Reader, fn func(event string, data []byte) (bool, error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var event string
	var data []byte
	has := false // data was given, perhaps empty
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if has {
				if done, err := fn(event, data); done || err != nil {
					return err
				}
			}
			event, data, has = "", data[:0], false
		case line[0] == ':': // a comment
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				event = string(value)
			case "data":
				if has {
					data = append(data, '\n')
				}
				data, has = append(data, value...), true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if has {
		if done, err := fn(event, data); done || err != nil {
			return err
		}
	}
	return errEarlyEnd
}

// errEarlyEnd says a stream ended before the answer did.
var errEarlyEnd = errors.New("the stream ended before the answer did")
