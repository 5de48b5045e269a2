package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

// CodexRollout writes a rollout of about size bytes to path, as Codex
// 0.77 writes one: a session_meta line, then turns of a user prompt (and
// its event), a turn context, encrypted reasoning, shell calls whose
// outputs are JSON in a string (escaped quotes and newlines), an
// apply_patch call, token counts (repeated after each output), the reply
// and its agent_message event; a compaction every 50 turns.
func CodexRollout(path string, size int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2026, 1, 2, 16, 39, 45, 0, time.UTC)
	line := func(typ string, payload any) {
		at = at.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
		b, _ := json.Marshal(map[string]any{"timestamp": at.Format("2006-01-02T15:04:05.000Z"), "type": typ, "payload": payload})
		w.Write(b)
		w.WriteByte('\n')
	}
	words := strings.Fields("the quick brown fox jumps over the lazy dog func main import fmt return nil error if else for range go")
	text := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(12) == 0 {
				b.WriteString("\n")
			} else {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	const enc = "gAAAAABpV_TVqUKg_xF14gGLEt-ibHL3rQHlK-l4Eh3vH4eKtWHQ_kBVccXyAFCd-Mn_1tJ_JPSVEr70FWr2C84EVvc5i2OR"
	msg := func(role, kind, t string) map[string]any {
		return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": kind, "text": t}}}
	}
	line("session_meta", map[string]any{"id": "019b7f94-51b4-7593-922e-ba12b5b73b52", "timestamp": at.Format(time.RFC3339Nano),
		"cwd": "/home/dev/big", "originator": "codex_cli_rs", "cli_version": "0.77.0", "instructions": text(4000), "source": "cli", "model_provider": "openai"})
	line("response_item", msg("user", "input_text", "<environment_context>\n  <cwd>/home/dev/big</cwd>\n</environment_context>"))
	var in, out float64
	for turn := 0; ; turn++ {
		if st, _ := f.Stat(); st != nil && int(st.Size())+w.Buffered() >= size {
			break
		}
		prompt := text(80 + rng.IntN(400))
		line("response_item", msg("user", "input_text", prompt))
		line("event_msg", map[string]any{"type": "user_message", "message": prompt, "images": []any{}})
		line("turn_context", map[string]any{"cwd": "/home/dev/big", "approval_policy": "on-request", "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
		for c := 0; c < 3+rng.IntN(4); c++ {
			line("response_item", map[string]any{"type": "reasoning", "summary": []any{}, "content": nil, "encrypted_content": strings.Repeat(enc, 8+rng.IntN(16))})
			id := fmt.Sprintf("call_%d_%d", turn, c)
			args, _ := json.Marshal(map[string]any{"command": []string{"bash", "-lc", "sed -n '1,200p' main.go"}, "workdir": "/home/dev/big"})
			line("response_item", map[string]any{"type": "function_call", "name": "shell", "arguments": string(args), "call_id": id})
			in += 3000
			out += 80
			tok := map[string]any{"type": "token_count", "info": map[string]any{
				"total_token_usage": map[string]any{"input_tokens": in, "cached_input_tokens": in * 0.8, "output_tokens": out, "reasoning_output_tokens": 0, "total_tokens": in + out},
				"last_token_usage":  map[string]any{"input_tokens": 3000, "cached_input_tokens": 2400, "output_tokens": 80, "reasoning_output_tokens": 0, "total_tokens": 3080},
			}}
			line("event_msg", tok)
			res, _ := json.Marshal(map[string]any{"output": "package main\n\nimport \"fmt\"\n" + text(2000+rng.IntN(30000)), "metadata": map[string]any{"exit_code": 0, "duration_seconds": 0.1}})
			line("response_item", map[string]any{"type": "function_call_output", "call_id": id, "output": string(res)})
			line("event_msg", tok)
		}
		id := fmt.Sprintf("call_%d_p", turn)
		line("response_item", map[string]any{"type": "custom_tool_call", "status": "completed", "call_id": id, "name": "apply_patch",
			"input": "*** Begin Patch\n*** Update File: main.go\n@@\n-" + text(200) + "\n+" + text(200) + "\n*** End Patch\n"})
		line("response_item", map[string]any{"type": "custom_tool_call_output", "call_id": id, "output": "Success. Updated the following files:\nM main.go\n"})
		reply := text(200 + rng.IntN(1500))
		line("response_item", msg("assistant", "output_text", reply))
		line("event_msg", map[string]any{"type": "agent_message", "message": reply})
		if turn%50 == 49 {
			line("compacted", map[string]any{"message": codexSummaryPrefix + "\n" + text(2000)})
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// codexSummaryPrefix starts Codex's summary message (its
// core/templates/compact/summary_prefix.md, two spaces before "assist").
const codexSummaryPrefix = "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to  assist with your own analysis:"
