package gemini

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"skein/model"
)

// BuildContext is the conversation Gemini CLI resumes with at leaf: at the
// session's leaf, the messages as loadConversationRecord leaves them (each
// id where it was first set, a $set of messages replacing them, a rewind
// cutting them); at another leaf, the messages on its path from the last
// compaction on it. Its session context message comes first, as
// getInitialChatHistory puts a fresh one first.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := model.StartContext(leaf, len(s.Entries), s.Parent)
	if !ok {
		return ctx
	}
	var msgs []int32
	if leaf == s.leaf {
		msgs = s.conv
	} else {
		seen := map[int32]bool{}
		for _, i := range ctx.Path {
			e := &s.Entries[i]
			switch {
			case e.kind == model.EntryCompaction:
				msgs, seen = append([]int32(nil), e.kept...), map[int32]bool{}
				for _, k := range e.kept {
					seen[k] = true
				}
				ctx.Compaction = i
			case e.msg >= 0 && !seen[e.msg]:
				seen[e.msg] = true
				msgs = append(msgs, e.msg)
			}
		}
	}
	if leaf == s.leaf {
		for _, i := range ctx.Path {
			if s.Entries[i].kind == model.EntryCompaction {
				ctx.Compaction = i
			}
		}
	}
	// The stored session context goes first; the other messages follow
	// unless convertSessionToClientHistory leaves them out.
	envAt := -1
	for j, k := range msgs {
		if r := &s.msgs[k]; r.Type == "user" && strings.HasPrefix(strings.TrimSpace(partsString(parts(r.Content))), "<session_context>") {
			envAt = j
		}
	}
	add := func(k int32) {
		for _, e := range s.msgEntries[k] {
			first := len(ctx.Messages)
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: int(e)})
			ctx.Entries = append(ctx.Entries, model.Projected{Entry: int(e), First: first, N: 1})
		}
	}
	if envAt >= 0 {
		add(msgs[envAt])
	}
	for _, k := range msgs {
		if r := &s.msgs[k]; converted(r) {
			add(k)
		}
	}
	if n := len(msgs); n > 0 {
		if m := s.msgs[msgs[n-1]].Model; m != "" {
			ctx.Model = model.NewModelRef("google", m)
		}
	}
	return ctx
}

// converted reports whether convertSessionToClientHistory keeps a
// message: a user's that is not ignored content, a model's.
func converted(r *message) bool {
	switch r.Type {
	case "user":
		return !ignored(strings.TrimSpace(partsString(parts(r.Content))))
	case "gemini":
		return true
	}
	return false
}

// content is one of the API's contents: a role and its parts, each part
// a JSON object decoded with its numbers kept as written.
type content struct {
	Role  string           `json:"role"`
	Parts []map[string]any `json:"parts"`
}

// WriteContextJSON writes the contents Gemini CLI sends for the context,
// less the new prompt: {"contents": [{role, parts}]}.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	var msgs []int32
	for _, m := range ctx.Messages {
		if m.Entry < 0 || m.Entry >= len(s.Entries) {
			continue
		}
		k := s.Entries[m.Entry].msg
		if k >= 0 && (len(msgs) == 0 || msgs[len(msgs)-1] != k) {
			msgs = append(msgs, k)
		}
	}
	out := request(s.history(msgs))
	if out == nil {
		out = []content{}
	}
	b, err := json.Marshal(struct {
		Contents []content `json:"contents"`
	}{out})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// history is convertSessionToClientHistory of the messages (the session
// context among them kept as it is).
func (s *Session) history(msgs []int32) []content {
	var out []content
	for _, k := range msgs {
		r := &s.msgs[k]
		switch r.Type {
		case "user":
			out = append(out, content{"user", partArray(r.Content)})
		case "gemini":
			var model []map[string]any
			var cps []map[string]any
			if truthy(r.Content) {
				cps = partArray(r.Content)
			}
			inContent := false
			for _, p := range cps {
				if p["functionCall"] != nil || truthyAny(p["thought"]) {
					inContent = true
				}
			}
			if inContent {
				model = cps
			} else {
				for _, t := range r.Thoughts {
					model = append(model, map[string]any{"text": thoughtText(t), "thought": true})
				}
				model = append(model, cps...)
				for _, tc := range r.ToolCalls {
					model = append(model, map[string]any{"functionCall": map[string]any{"id": tc.ID, "name": tc.Name, "args": decode(tc.Args)}})
				}
			}
			if len(model) == 0 {
				continue
			}
			out = append(out, content{"model", model})
			var resp []map[string]any
			for _, tc := range r.ToolCalls {
				if !truthy(tc.Result) {
					continue
				}
				res := bytes.TrimSpace(tc.Result)
				switch res[0] {
				case '"':
					var t string
					_ = json.Unmarshal(res, &t)
					resp = append(resp, map[string]any{"functionResponse": map[string]any{"id": tc.ID, "name": tc.Name, "response": map[string]any{"output": t}}})
				case '[':
					resp = append(resp, partArray(res)...)
				default:
					if m, ok := decode(res).(map[string]any); ok {
						resp = append(resp, m)
					}
				}
			}
			if len(resp) > 0 {
				out = append(out, content{"user", resp})
			}
		}
	}
	return out
}

// request is what GeminiChat sends of a history: its curated turns
// (extractCuratedHistory), thoughts stripped (the first call of a turn
// that had them given the synthetic signature), consecutive turns of a
// role joined, and each call's id without the "name__" Gemini CLI put
// before it (stripToolCallIdPrefixes), empty texts dropped.
func request(h []content) []content {
	var cur []content
	for i := 0; i < len(h); {
		if h[i].Role == "user" {
			cur = append(cur, h[i])
			i++
			continue
		}
		j, valid := i, true
		for ; j < len(h) && h[j].Role == "model"; j++ {
			valid = valid && validContent(h[j])
		}
		if valid {
			cur = append(cur, h[i:j]...)
		}
		i = j
	}
	var out []content
	for _, c := range cur {
		hasThought := false
		for _, p := range c.Parts {
			hasThought = hasThought || truthyAny(p["thought"])
		}
		if hasThought {
			var kept []map[string]any
			patched := false
			for _, p := range c.Parts {
				if truthyAny(p["thought"]) {
					continue
				}
				if c.Role == "model" && !patched && p["functionCall"] != nil {
					patched = true
					if p["thoughtSignature"] == nil {
						q := clone(p)
						q["thoughtSignature"] = "skip_thought_signature_validator"
						p = q
					}
				}
				kept = append(kept, p)
			}
			if len(kept) == 0 {
				continue
			}
			c = content{c.Role, kept}
		}
		if n := len(out); n > 0 && out[n-1].Role == c.Role {
			out[n-1].Parts = append(append([]map[string]any(nil), out[n-1].Parts...), c.Parts...)
			continue
		}
		out = append(out, c)
	}
	for k := range out {
		var ps []map[string]any
		for _, p := range out[k].Parts {
			p = unprefix(p)
			if t, ok := p["text"].(string); ok && t == "" {
				if otherKeys(p) {
					p = clone(p)
					delete(p, "text")
				} else {
					continue
				}
			}
			ps = append(ps, p)
		}
		out[k].Parts = ps
	}
	return out
}

// validContent is isValidContent: a model's turn with no parts is valid;
// one with an empty part, or a lone empty text, is not.
func validContent(c content) bool {
	if len(c.Parts) == 0 {
		return c.Role == "model"
	}
	for _, p := range c.Parts {
		if len(p) == 0 {
			return false
		}
		if t, ok := p["text"].(string); ok && t == "" && !truthyAny(p["thought"]) && !otherKeys(p) {
			return false
		}
	}
	return true
}

func otherKeys(p map[string]any) bool {
	for k := range p {
		if k != "text" && k != "thought" && k != "callIndex" {
			return true
		}
	}
	return false
}

// unprefix drops the "name__" before a call's or a response's id.
func unprefix(p map[string]any) map[string]any {
	for _, key := range []string{"functionCall", "functionResponse"} {
		f, ok := p[key].(map[string]any)
		if !ok {
			continue
		}
		id, _ := f["id"].(string)
		name, _ := f["name"].(string)
		name = strings.TrimSpace(name)
		if name == "" {
			name = "generic_tool"
		}
		if id == "" || !strings.HasPrefix(id, name+"__") {
			continue
		}
		g := map[string]any{"name": f["name"], "id": id[len(name)+2:]}
		if key == "functionCall" {
			g["args"] = f["args"]
		} else {
			g["response"] = f["response"]
		}
		p = clone(p)
		p[key] = g
	}
	return p
}

func clone(p map[string]any) map[string]any {
	q := make(map[string]any, len(p)+1)
	for k, v := range p {
		q[k] = v
	}
	return q
}

// partArray is ensurePartArray: a string is a text part, an array's
// strings are text parts, an object is one part.
func partArray(raw json.RawMessage) []map[string]any {
	switch v := decode(raw).(type) {
	case string:
		return []map[string]any{{"text": v}}
	case []any:
		out := make([]map[string]any, 0, len(v))
		for _, x := range v {
			switch x := x.(type) {
			case string:
				out = append(out, map[string]any{"text": x})
			case map[string]any:
				out = append(out, x)
			default:
				out = append(out, map[string]any{})
			}
		}
		return out
	case map[string]any:
		return []map[string]any{v}
	}
	return nil
}

func decode(raw json.RawMessage) any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// truthy is JavaScript's truth of a JSON value: not null, false, 0 or "".
func truthy(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch string(raw) {
	case "null", "false", "0", `""`:
		return false
	}
	return true
}

func truthyAny(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case json.Number:
		return v.String() != "0"
	}
	return true
}
