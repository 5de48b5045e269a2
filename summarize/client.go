package summarize

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
)

// usage is what one answer cost, as the provider counted it. Input excludes
// tokens read from the cache, as pi counts them.
type usage struct {
	Input, Output, CacheRead, CacheWrite, Reasoning, Total int64
}

// complete streams one answer to pi's summarization system prompt and user,
// and returns its text and what it cost, through the providers' official
// SDKs: Anthropic's Messages API, or the Chat Completions API of OpenAI or
// of a compatible server (its base URL). The SDKs retry overloaded and
// rate-limited requests (408, 409, 429, 5xx) twice.
func (c Config) complete(ctx context.Context, user string, maxTokens int64, onDelta func(string)) (string, usage, error) {
	var b strings.Builder
	emit := func(text string) {
		if text == "" {
			return
		}
		b.WriteString(text)
		if onDelta != nil {
			onDelta(text)
		}
	}
	var u usage
	var err error
	switch c.Provider {
	case Anthropic:
		u, err = c.anthropic(ctx, user, maxTokens, emit)
	case OpenAI, OpenAICompatible:
		u, err = c.openai(ctx, user, maxTokens, emit)
	default:
		return "", u, fmt.Errorf("unknown provider %q", c.Provider)
	}
	if cerr := ctx.Err(); cerr != nil {
		return "", u, cerr
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

// errEarlyEnd says a stream ended before the answer did.
var errEarlyEnd = errors.New("the stream ended before the answer did")

func (c Config) anthropic(ctx context.Context, user string, maxTokens int64, emit func(string)) (usage, error) {
	opts := []aoption.RequestOption{aoption.WithAPIKey(c.APIKey)}
	if c.BaseURL != "" {
		opts = append(opts, aoption.WithBaseURL(c.BaseURL))
	}
	// The Messages service alone, not a whole client: a client holds every
	// service of the API, and the binary kept them all.
	messages := anthropic.NewMessageService(append(anthropic.DefaultClientOptions(), opts...)...)
	stream := messages.NewStreaming(ctx, anthropic.MessageNewParams{
		Model:     anthropic.Model(c.Model),
		MaxTokens: maxTokens,
		System:    []anthropic.TextBlockParam{{Text: SummarizationSystemPrompt}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(user))},
	})
	defer stream.Close()
	var msg anthropic.Message
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return usage{}, err
		}
		switch ev := ev.AsAny().(type) {
		case anthropic.ContentBlockDeltaEvent:
			if d, ok := ev.Delta.AsAny().(anthropic.TextDelta); ok {
				emit(d.Text)
			}
		case anthropic.MessageStopEvent:
			stopped = true
		}
	}
	mu := msg.Usage
	u := usage{Input: mu.InputTokens, Output: mu.OutputTokens, CacheRead: mu.CacheReadInputTokens,
		CacheWrite: mu.CacheCreationInputTokens, Total: mu.InputTokens + mu.OutputTokens}
	if err := stream.Err(); err != nil {
		return u, err
	}
	if !stopped {
		return u, errEarlyEnd
	}
	return u, nil
}

func (c Config) openai(ctx context.Context, user string, maxTokens int64, emit func(string)) (usage, error) {
	var opts []ooption.RequestOption
	if c.APIKey != "" {
		opts = append(opts, ooption.WithAPIKey(c.APIKey))
	}
	if c.BaseURL != "" {
		opts = append(opts, ooption.WithBaseURL(c.BaseURL))
	}
	// The Chat Completions service alone, not a whole client (which holds
	// every service of the API, all kept in the binary).
	completions := openai.NewChatCompletionService(append(openai.DefaultClientOptions(), opts...)...)
	params := openai.ChatCompletionNewParams{
		Model:         openai.ChatModel(c.Model),
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(SummarizationSystemPrompt), openai.UserMessage(user)},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	// OpenAI's reasoning models take max_completion_tokens, and refuse max_tokens.
	if c.Provider == OpenAI && reasoningModel(c.Model) {
		params.MaxCompletionTokens = openai.Int(maxTokens)
	} else {
		params.MaxTokens = openai.Int(maxTokens)
	}
	stream := completions.NewStreaming(ctx, params)
	defer stream.Close()
	var u usage
	for stream.Next() {
		ch := stream.Current()
		for _, choice := range ch.Choices {
			emit(choice.Delta.Content)
		}
		// OpenAI counts the cached tokens among the prompt's.
		if v := ch.Usage; v.TotalTokens > 0 {
			cached := v.PromptTokensDetails.CachedTokens
			u = usage{Input: max(v.PromptTokens-cached, 0), Output: v.CompletionTokens, CacheRead: cached,
				Reasoning: v.CompletionTokensDetails.ReasoningTokens, Total: v.TotalTokens}
		}
	}
	return u, stream.Err()
}

func reasoningModel(id string) bool {
	for _, p := range []string{"o1", "o3", "o4", "oss"} {
		if strings.HasPrefix(id, p) || strings.Contains(id, "-"+p) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(id), "gpt-5")
}
