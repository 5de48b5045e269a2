// Package summarize writes compaction summaries: with a language model
// (Anthropic, OpenAI, or any OpenAI-compatible server, over their HTTP APIs), sending pi's instructions and pi's serialization of the
// conversation; or offline, with the extractive summarizer (summary.go).
package summarize

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"skein/model"
)

// Providers skein can summarize with.
const (
	Anthropic        = "anthropic"
	OpenAI           = "openai"
	OpenAICompatible = "openai-compatible"
)

// Config says which model summarizes.
type Config struct {
	Provider string
	Model    string
	APIKey   string
	BaseURL  string
	// ReserveTokens is pi's compaction setting: summaries may use 80% of it,
	// a split turn's prefix summary 50%.
	ReserveTokens int64
	// OnDelta, when set, is told of each piece of text as it streams in.
	OnDelta func(text string)
}

// Name is provider/model.
func (c Config) Name() string { return c.Provider + "/" + c.Model }

// Default models when only a key is set.
var defaultModels = map[string]string{Anthropic: "claude-sonnet-4-5", OpenAI: "gpt-5-mini"}

// ErrNoModel says no model is configured.
var ErrNoModel = errors.New("no language model configured: set ANTHROPIC_API_KEY, or OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server (with --model), or use --summarizer extractive")

// FromEnv reads the model from --model PROVIDER/MODEL and the environment:
// ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL), OPENAI_API_KEY and
// OPENAI_BASE_URL. Without --model, an Anthropic key wins, then an OpenAI
// key, then an OpenAI-compatible base URL.
func FromEnv(flag string) (Config, error) {
	env := func(k string) string { return strings.TrimSpace(os.Getenv(k)) }
	c := Config{ReserveTokens: 16384}
	if flag != "" {
		p, m, ok := strings.Cut(flag, "/")
		if !ok || m == "" {
			return c, fmt.Errorf("--model wants PROVIDER/MODEL (anthropic, openai or openai-compatible), not %q", flag)
		}
		c.Provider, c.Model = p, m
	} else {
		switch {
		case env("ANTHROPIC_API_KEY") != "":
			c.Provider = Anthropic
		case env("OPENAI_API_KEY") != "" && env("OPENAI_BASE_URL") == "":
			c.Provider = OpenAI
		case env("OPENAI_BASE_URL") != "":
			c.Provider = OpenAICompatible
		default:
			return c, ErrNoModel
		}
		c.Model = defaultModels[c.Provider]
	}
	switch c.Provider {
	case Anthropic:
		c.APIKey, c.BaseURL = env("ANTHROPIC_API_KEY"), env("ANTHROPIC_BASE_URL")
		if c.APIKey == "" {
			return c, errors.New("ANTHROPIC_API_KEY is not set")
		}
	case OpenAI:
		c.APIKey, c.BaseURL = env("OPENAI_API_KEY"), env("OPENAI_BASE_URL")
		if c.APIKey == "" {
			return c, errors.New("OPENAI_API_KEY is not set")
		}
	case OpenAICompatible:
		c.APIKey, c.BaseURL = env("OPENAI_API_KEY"), env("OPENAI_BASE_URL")
		if c.BaseURL == "" {
			return c, errors.New("OPENAI_BASE_URL is not set (the server's address, e.g. http://localhost:11434/v1)")
		}
	default:
		return c, fmt.Errorf("unknown provider %q (anthropic, openai or openai-compatible)", c.Provider)
	}
	if c.Model == "" {
		return c, fmt.Errorf("name the model: --model %s/MODEL", c.Provider)
	}
	return c, nil
}

// sumUsage adds up what the summary's calls cost.
func sumUsage(parts ...usage) *model.Usage {
	var u usage
	for _, p := range parts {
		u.Input += p.Input
		u.Output += p.Output
		u.CacheRead += p.CacheRead
		u.CacheWrite += p.CacheWrite
		u.Reasoning += p.Reasoning
		u.Total += p.Total
	}
	return &model.Usage{Input: float64(u.Input), Output: float64(u.Output), CacheRead: float64(u.CacheRead),
		CacheWrite: float64(u.CacheWrite), Reasoning: float64(u.Reasoning), Total: float64(u.Total)}
}

// LLM summarizes the plan's messages with a model, as pi 1.6.0's compact
// does: the history with pi's prompt (its update prompt and the previous
// summary when there is one), and a split turn's prefix with pi's
// turn-prefix prompt, both at once, joined. It returns the summary and its
// usage. The file lists are not included: Entry adds them.
func LLM(ctx context.Context, c Config, s *model.Session, p *model.Plan, instructions string) (string, *model.Usage, error) {
	switch c.Provider {
	case Anthropic, OpenAI, OpenAICompatible:
	default:
		return "", nil, fmt.Errorf("unknown provider %q", c.Provider)
	}
	if c.ReserveTokens == 0 {
		c.ReserveTokens = 16384
	}
	var mu sync.Mutex
	onDelta := c.OnDelta
	if onDelta != nil {
		onDelta = func(t string) { mu.Lock(); defer mu.Unlock(); c.OnDelta(t) }
	}
	previous := PreviousSummary(s, p)
	history := func() (string, []usage, error) {
		prompt := SummaryPrompt(SerializeConversation(s, p.MessagesToSummarize), previous, instructions)
		text, u, err := c.complete(ctx, prompt, c.ReserveTokens*8/10, onDelta)
		return text, []usage{u}, err
	}
	if !p.IsSplitTurn || len(p.TurnPrefixMessages) == 0 {
		text, u, err := history()
		if err != nil {
			return "", nil, err
		}
		return text, sumUsage(u...), nil
	}
	if len(p.MessagesToSummarize) == 0 {
		// As pi: nothing before the split turn but the previous summary, if any.
		history = func() (string, []usage, error) {
			if previous != "" {
				return previous, nil, nil
			}
			return "No prior history.", nil, nil
		}
	}
	var prefix string
	var prefixUsage usage
	var prefixErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		prefix, prefixUsage, prefixErr = c.complete(ctx, TurnPrefixPrompt(SerializeConversation(s, p.TurnPrefixMessages), instructions), c.ReserveTokens/2, onDelta)
	}()
	hist, usage, err := history()
	<-done
	if err != nil {
		return "", nil, err
	}
	if prefixErr != nil {
		return "", nil, prefixErr
	}
	return JoinSummaries(hist, prefix), sumUsage(append(usage, prefixUsage)...), nil
}

// Entry makes the compaction for a plan made on s and a summary: the
// summary followed by the file lists as pi writes them.
func Entry(s *model.Session, p *model.Plan, summary string, usage *model.Usage) model.Compaction {
	return model.Compaction{
		Summary:          strings.TrimRight(summary, "\n") + FormatFileOperations(p.ReadFiles, p.ModifiedFiles),
		FirstKeptEntryID: p.FirstKeptEntryID,
		TokensBefore:     p.TokensBefore,
		ReadFiles:        p.ReadFiles,
		ModifiedFiles:    p.ModifiedFiles,
		Usage:            usage,
		Plan:             p,
		From:             s,
	}
}
