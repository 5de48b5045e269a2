// Package summarize writes compaction summaries: with a language model
// (Anthropic, OpenAI, or any OpenAI-compatible server, over their HTTP APIs), sending pi's instructions and pi's serialization of the
// conversation; or offline, with the model package's extractive summarizer.
package summarize

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/model"
	"skein/store"
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

// piUsage is a summary's cost in pi's shape ({input, output, cacheRead,
// cacheWrite, totalTokens, cost {input, output, cacheRead, cacheWrite,
// total}}): pi 1.6.0 reads usage.cost.total without a check, so the cost is
// always there, zeros where no price is known.
func piUsage(parts ...usage) []byte {
	var u usage
	for _, p := range parts {
		u.Input += p.Input
		u.Output += p.Output
		u.CacheRead += p.CacheRead
		u.CacheWrite += p.CacheWrite
		u.Reasoning += p.Reasoning
		u.Total += p.Total
	}
	total := u.Total
	if total == 0 {
		total = u.Input + u.Output + u.CacheRead + u.CacheWrite
	}
	b := fmt.Appendf(nil, `{"input":%d,"output":%d,"cacheRead":%d,"cacheWrite":%d,`, u.Input, u.Output, u.CacheRead, u.CacheWrite)
	if u.Reasoning > 0 {
		b = fmt.Appendf(b, `"reasoning":%d,`, u.Reasoning)
	}
	return fmt.Appendf(b, `"totalTokens":%d,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`, total)
}

// LLM summarizes the plan's messages with a model, as pi 1.6.0's compact
// does: the history with pi's prompt (its update prompt and the previous
// summary when there is one), and a split turn's prefix with pi's
// turn-prefix prompt, both at once, joined. It returns the summary and its
// usage (piUsage's JSON). The file lists are not included: Entry adds them.
func LLM(ctx context.Context, c Config, s *model.Session, p *model.Plan, instructions string) (string, []byte, error) {
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
		return text, piUsage(u...), nil
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
	return JoinSummaries(hist, prefix), piUsage(append(usage, prefixUsage)...), nil
}

// Compaction is the entry a compaction writes.
type Compaction struct {
	Summary          string
	FirstKeptEntryID string
	TokensBefore     float64
	ReadFiles        []string
	ModifiedFiles    []string
	// Usage is what the summary cost, in pi's shape (an LLM summary); nil
	// for an extractive one.
	Usage []byte
	// System is the current system message of the compacted context, which
	// pi 1.6.0 stores as the compaction's checkpoint; nil when it has none.
	System []byte
}

// Entry makes the compaction for a plan and a summary: the summary followed by
// the file lists as pi writes them, and the system prompt checkpoint.
func Entry(s *model.Session, p *model.Plan, summary string, usage []byte) Compaction {
	return Compaction{
		Summary:          strings.TrimRight(summary, "\n") + FormatFileOperations(p.ReadFiles, p.ModifiedFiles),
		FirstKeptEntryID: p.FirstKeptEntryID,
		TokensBefore:     p.TokensBefore,
		ReadFiles:        p.ReadFiles,
		ModifiedFiles:    p.ModifiedFiles,
		Usage:            usage,
		System:           s.CurrentSystemMessage(p.Context.Messages),
	}
}

func stringsJSON(list []string) []byte {
	b := []byte{'['}
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsjson.AppendString(b, s)
	}
	return append(b, ']')
}

// New is the compaction as an entry to append after parent, with pi 1.6.0's
// keys in its order: summary, firstKeptEntryId, tokensBefore, details
// {readFiles, modifiedFiles}, usage (an LLM summary's), systemMessage (the
// checkpoint stamped with the entry's time, when the context has a system
// prompt).
func (c Compaction) New(parent string) store.NewEntry {
	details := append(append(append([]byte(`{"readFiles":`), stringsJSON(c.ReadFiles)...), `,"modifiedFiles":`...), stringsJSON(c.ModifiedFiles)...)
	details = append(details, '}')
	e := store.NewEntry{Type: model.TypeCompaction, Parent: &parent, Fields: []store.Field{
		{Key: "summary", Value: jsjson.AppendString(nil, c.Summary)},
		{Key: "firstKeptEntryId", Value: jsjson.AppendString(nil, c.FirstKeptEntryID)},
		{Key: "tokensBefore", Value: []byte(jsjson.FormatNumber(c.TokensBefore))},
		{Key: "details", Value: details},
		{Key: "usage", Value: c.Usage},
	}}
	if c.System != nil {
		e.Stamped = func(ts string) []store.Field {
			return []store.Field{{Key: "systemMessage", Value: model.StampSystemMessage(c.System, jsdate.Parse(ts))}}
		}
	}
	return e
}

// JSON describes the compaction for --json: the entry's id ("" when nothing
// was written) and its fields.
func (c Compaction) JSON(id string) []byte {
	b := []byte(`{"id":`)
	if id == "" {
		b = append(b, "null"...)
	} else {
		b = jsjson.AppendString(b, id)
	}
	b = append(b, `,"summary":`...)
	b = jsjson.AppendString(b, c.Summary)
	b = append(b, `,"firstKeptEntryId":`...)
	b = jsjson.AppendString(b, c.FirstKeptEntryID)
	b = append(b, `,"tokensBefore":`...)
	b = append(b, jsjson.FormatNumber(c.TokensBefore)...)
	b = append(b, `,"readFiles":`...)
	b = append(b, stringsJSON(c.ReadFiles)...)
	b = append(b, `,"modifiedFiles":`...)
	b = append(b, stringsJSON(c.ModifiedFiles)...)
	return append(b, '}')
}
