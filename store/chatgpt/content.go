package chatgpt

import (
	"encoding/json"
	"slices"
	"strings"
)

// extracted is what a message's content and metadata give pi's blocks.
type extracted struct {
	texts    []string
	thinking []string
	code     string // a code content's text, for a tool call's arguments
	isCode   bool
	language string
	// lost names the first thing that has no home in the blocks (a
	// content type read only in part, an image, citations): the original
	// message is then kept in a custom entry as well. "" when nothing is.
	lost string
}

func (x *extracted) text(s string) {
	if s != "" {
		x.texts = append(x.texts, s)
	}
}

func (x *extracted) lose(what string) {
	if x.lost == "" {
		x.lost = safeName(what)
	}
}

// field returns the string member key of c; a member that is there but is
// not a string is lost.
func (x *extracted) field(c map[string]json.RawMessage, key, ct string) string {
	s, ok := stringOf(c[key])
	if !ok && nonEmpty(c[key]) {
		x.lose(ct)
	}
	return s
}

// readContent reads a message's content by its content type. Types not
// listed give the text of their usual members, and are kept whole.
func readContent(raw json.RawMessage) (x extracted, ct string) {
	c := objectOf(raw)
	if c == nil {
		if nonEmpty(raw) {
			x.lose("content")
		}
		return x, ""
	}
	ct = str(c["content_type"])
	used := []string{"content_type"}
	switch ct {
	case "text", "multimodal_text":
		x.parts(c["parts"], ct)
		used = append(used, "parts")
	case "code":
		x.code, x.isCode = x.field(c, "text", ct), true
		x.language = x.field(c, "language", ct)
		used = append(used, "text", "language")
	case "execution_output":
		x.text(x.field(c, "text", ct))
		used = append(used, "text")
	case "tether_quote":
		// A page the browser quoted: its title, address and text.
		x.text(joinNonEmpty("\n", x.field(c, "title", ct), x.field(c, "url", ct), x.field(c, "text", ct)))
		used = append(used, "title", "url", "text", "domain")
	case "tether_browsing_display":
		x.text(x.field(c, "result", ct))
		x.text(x.field(c, "summary", ct))
		used = append(used, "result", "summary", "tether_id")
	case "system_error":
		x.text(joinNonEmpty(": ", x.field(c, "name", ct), x.field(c, "text", ct)))
		used = append(used, "name", "text")
	case "thoughts":
		x.thoughts(c["thoughts"], ct)
		used = append(used, "thoughts", "source_analysis_msg_id")
	case "reasoning_recap":
		if s := x.field(c, "content", ct); s != "" {
			x.thinking = append(x.thinking, s)
		}
		used = append(used, "content")
	case "user_editable_context":
		x.text(x.field(c, "user_profile", ct))
		x.text(x.field(c, "user_instructions", ct))
		used = append(used, "user_profile", "user_instructions")
	case "model_editable_context":
		x.text(x.field(c, "model_set_context", ct))
		used = append(used, "model_set_context")
	default:
		for _, k := range []string{"title", "url", "text", "result", "content", "summary"} {
			x.text(str(c[k]))
		}
		x.parts(c["parts"], ct)
		x.lose(orDefault(ct, "content"))
		return x, ct
	}
	for k, v := range c {
		if !slices.Contains(used, k) && nonEmpty(v) {
			x.lose(ct)
			break
		}
	}
	return x, ct
}

// parts reads a text's parts: strings, and objects (an image, an audio
// clip and its transcription, ...) that become text placeholders.
func (x *extracted) parts(raw json.RawMessage, ct string) {
	if !nonEmpty(raw) {
		return
	}
	list := arrayOf(raw)
	if list == nil {
		x.lose(ct)
		return
	}
	for _, p := range list {
		if s, ok := stringOf(p); ok {
			x.text(s)
			continue
		}
		if !nonEmpty(p) {
			continue
		}
		obj := objectOf(p)
		if obj == nil { // a number or a list where text should be
			x.text(string(p))
			x.lose(ct)
			continue
		}
		x.part(obj)
	}
}

func (x *extracted) part(p map[string]json.RawMessage) {
	pct := str(p["content_type"])
	switch pct {
	case "audio_transcription":
		x.text(str(p["text"]))
		for k, v := range p {
			if k != "content_type" && k != "text" && k != "direction" && k != "decoding_id" && nonEmpty(v) {
				x.lose(pct)
			}
		}
		return
	case "image_asset_pointer":
		x.text("[image: " + str(p["asset_pointer"]) + "]")
	case "audio_asset_pointer":
		x.text("[audio: " + str(p["asset_pointer"]) + "]")
	case "real_time_user_audio_video_asset_pointer":
		x.text("[audio/video: " + str(objectOf(p["audio_asset_pointer"])["asset_pointer"]) + "]")
	default:
		if s, ok := stringOf(p["text"]); ok {
			x.text(s)
		} else {
			x.text("[" + orDefault(pct, "part") + "]")
		}
	}
	x.lose(orDefault(pct, "part"))
}

// thoughts reads a reasoning model's thoughts: each a summary (its title)
// and its content, which chunks repeats in pieces.
func (x *extracted) thoughts(raw json.RawMessage, ct string) {
	if !nonEmpty(raw) {
		return
	}
	list := arrayOf(raw)
	if list == nil {
		x.lose(ct)
		return
	}
	for _, t := range list {
		th := objectOf(t)
		if th == nil {
			if nonEmpty(t) {
				x.lose(ct)
			}
			continue
		}
		content := x.field(th, "content", ct)
		if content == "" {
			var chunks []string
			for _, c := range arrayOf(th["chunks"]) {
				if s := str(c); s != "" {
					chunks = append(chunks, s)
				}
			}
			content = strings.Join(chunks, " ")
		}
		if s := joinNonEmpty("\n\n", x.field(th, "summary", ct), content); s != "" {
			x.thinking = append(x.thinking, s)
		}
	}
}

// keptMetadata are the metadata members that carry what the reader saw or
// was given (sources, citations, uploaded files, search results) rather
// than bookkeeping: a message that has any is kept whole.
var keptMetadata = []string{"attachments", "citations", "content_references", "search_result_groups", "_cite_metadata", "image_results"}

// metadata notes what a message's metadata holds that must be kept, and
// the images a code run drew (aggregate_result.messages) as placeholders.
func (x *extracted) metadata(meta map[string]json.RawMessage) {
	for _, k := range keptMetadata {
		if nonEmpty(meta[k]) {
			x.lose(k)
		}
	}
	agg := objectOf(meta["aggregate_result"])
	for _, m := range arrayOf(agg["messages"]) {
		if url := str(objectOf(m)["image_url"]); url != "" {
			x.text("[image: " + url + "]")
		}
		x.lose("aggregate_result")
	}
}

func joinNonEmpty(sep string, s ...string) string {
	return strings.Join(slices.DeleteFunc(s, func(v string) bool { return v == "" }), sep)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// safeName keeps the letters, digits, '_', '-' and '.' of a name that goes
// into a custom type, so that "chatgpt.<name>" stays one readable word.
func safeName(s string) string {
	b := make([]byte, 0, min(len(s), 64))
	for _, c := range []byte(s) {
		if len(b) == 64 {
			break
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' {
			b = append(b, c)
		}
	}
	if len(b) == 0 {
		return "unknown"
	}
	return string(b)
}
