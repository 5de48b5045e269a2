package model

import (
	"strings"

	"skein/internal/utf8js"
)

// BlockType is the kind of a content block.
type BlockType uint8

const (
	BlockOther    BlockType = iota // a block skein does not know; Name says what it is
	BlockText                      // Text
	BlockThinking                  // Text is the model's reasoning
	BlockToolCall                  // Call
	BlockImage                     // MimeType, DataLen
)

// Block is one block of a message's content, normalized: whatever the
// format called its fields, a tool call has an id, a name and an input.
type Block struct {
	Type     BlockType
	Name     string // the format's name for the block's type
	Text     string
	Call     ToolCall
	MimeType string
	DataLen  int    // an image's base64 data length
	Data     string // an image's base64 data (for an import or an export)
	// TextJSON, set only by MessageLiteral, is a text or thinking block's
	// text as the JSON string literal JSON.stringify writes for it, in the
	// source's memory (Text is "" then): a writer copies it as it is.
	TextJSON []byte
}

// ToolCall is a tool call normalized as the first seed's normalize.ts does:
// toolCallId, then id; toolName, then name; input, then arguments (the first
// that is an object); defaults "", "", {}.
type ToolCall struct {
	ID    string
	Name  string
	Input []byte // a JSON object
}

// Usage is what a model call cost.
type Usage struct {
	Input, Output, CacheRead, CacheWrite float64
	Reasoning                            float64 // of Output, when the model says
	Total                                float64 // 0: the sum of the four
	Cost                                 float64
	HasCost                              bool
}

// Section is a named section of a system prompt; Removed when a patch
// removed it.
type Section struct {
	Name, Text string
	Removed    bool
}

// Message is a message as every screen shows it, whatever stored it.
type Message struct {
	Role    string
	Time    float64 // ms since the epoch, when HasTime
	HasTime bool
	Blocks  []Block
	// An assistant's reply.
	Model, Provider string
	Usage           *Usage
	StopReason      string
	Error           string
	// A tool's result: the call it answers.
	ToolCallID, ToolName string
	IsError              bool
	// A command the user ran.
	Command, Output string
	ExitCode        string // as written; "" when none
	Cancelled       bool
	Excluded        bool // not sent to the model
	// A user message its agent wrote (Codex's AGENTS.md instructions and
	// environment context): context for the model, not the user's words.
	Injected bool
	// An extension's message.
	CustomType string
	Hidden     bool // not shown to the user
	// A compaction's or a branch's summary.
	Summary      string
	TokensBefore float64
	// A system prompt: its sections and the tools added and removed.
	Sections                 []Section
	ToolsAdded, ToolsRemoved []string
}

// Text is the message's text blocks joined with sep.
func (m *Message) Text(sep string) string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, sep)
}

// ToolCalls are the message's tool calls, in order.
func (m *Message) ToolCalls() []ToolCall {
	var out []ToolCall
	for _, b := range m.Blocks {
		if b.Type == BlockToolCall {
			out = append(out, b.Call)
		}
	}
	return out
}

// PairTools pairs each tool call of msgs with the message of its result:
// by call id, the result closest after the call. A call without a result
// is absent.
func PairTools(msgs []Message) map[string]int {
	out := map[string]int{}
	open := map[string]bool{}
	for i := range msgs {
		m := &msgs[i]
		for _, c := range m.ToolCalls() {
			open[c.ID] = true
		}
		if m.Role == RoleToolResult && open[m.ToolCallID] {
			out[m.ToolCallID] = i
			delete(open, m.ToolCallID)
		}
	}
	return out
}

// SearchText is everything of a message a search looks in: its text,
// thinking, tool calls (name and input), results, commands and their
// output, summaries, and a system prompt's sections.
func (m *Message) SearchText() string {
	var b strings.Builder
	add := func(s string) {
		if s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	for _, blk := range m.Blocks {
		switch blk.Type {
		case BlockText, BlockThinking:
			add(blk.Text)
		case BlockToolCall:
			add(blk.Call.Name + " " + string(blk.Call.Input))
		}
	}
	add(m.ToolName)
	add(m.Command)
	add(m.Output)
	add(m.Summary)
	add(m.Error)
	add(m.CustomType)
	for _, sec := range m.Sections {
		add(sec.Name)
		add(sec.Text)
	}
	return b.String()
}

// EstimateTokens estimates what a message takes in a context as the
// formats without a tokenizer of their own do: a quarter of its text's
// UTF-16 length (its summary, text, thinking, each call's name and input,
// 4,800 for an image as pi counts one), rounded up.
func (m *Message) EstimateTokens() int {
	chars := utf8js.Len16(m.Summary)
	for _, b := range m.Blocks {
		switch b.Type {
		case BlockText, BlockThinking:
			chars += utf8js.Len16(b.Text)
		case BlockToolCall:
			chars += utf8js.Len16(b.Call.Name) + len(b.Call.Input)
		case BlockImage:
			chars += 4800 // pi's estimate for an image
		}
	}
	return (chars + 3) / 4
}
