package chatgpt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store/pi"
)

// The fixture (testdata/conversations.json, and the same two conversations
// split over testdata/split/conversations-00N.json) is written by hand in
// the shape of a real export: see FORMAT.md for what each node stands for.
const (
	convWeather = "676a9f00-3c1d-8005-b2e7-4f9a0c6d8e22"
	convSine    = "6733a1c0-8f2e-800c-9d41-5e0b7c3a9f11"

	// Plotting sine and cosine.
	customContext = "f0a7d2c9-61b3-4e8a-b5d4-3c9e1a2f7b02" // user_editable_context, hidden
	promptFirst   = "1b6e0d4f-7a2c-4f35-8e91-d2c4a6b8f003" // the prompt as first written
	answerFirst   = "5c9d3e7a-0f1b-48c2-a6d3-9e4b2f1c8a04"
	promptEdited  = "a4f2c8e1-3d5b-4a7c-9f60-1e8d3b5c7a05" // the prompt edited
	thoughts      = "d7b3e9f2-4c6a-4b8d-a1e5-2f9c4d6e8b06"
	recap         = "2e8c4a6f-5b7d-4c9e-b2f6-3a0d5e7f9c07"
	pythonCall    = "9f1d5b7e-6c8a-4d0f-83a7-4b1e6f8a0d08"
	pythonOutput  = "3a9e5c7b-7d0f-4e1a-94b8-5c2f7a9b1e09" // execution_output with a chart
	answerOld     = "4b0f6d8c-8e1a-4f2b-a5c9-6d3a8b0c2f10"
	answerRegen   = "c5a1e7d9-9f2b-4a3c-b6d0-7e4b9c1d3a11" // the regenerated answer
	photoPrompt   = "6d2b8f0a-0a3c-4b4d-87e1-8f5c0d2e4b12" // multimodal_text with an image
	browserSearch = "7e3c9a1b-1b4d-4c5e-98f2-9a6d1e3f5c13"
	browserShow   = "8f4d0b2c-2c5e-4d6f-a9a3-0b7e2f4a6d14" // tether_browsing_display
	browserClick  = "9a5e1c3d-3d6f-4e7a-b0b4-1c8f3a5b7e15"
	browserQuote  = "0b6f2d4e-4e7a-4f8b-81c5-2d9a4b6c8f16" // tether_quote
	answerCited   = "1c7a3e5f-5f8b-4a9c-92d6-3e0b5c7d9a17" // the current node

	// Paris weather and a watercolor.
	askWeather   = "f3b5d7f9-1b2c-4d3e-9f4a-5b6c7d8e9f22"
	memory       = "04c6e8fa-2c3d-4e4f-a05b-6c7d8e9fa023" // model_editable_context
	thinking2    = "15d7f90b-3d4e-4f5a-b16c-7d8e9fa0b124"
	webCall      = "26e80a1c-4e5f-4a6b-827d-8e9fa0b1c225"
	webResult    = "37f91b2d-5f6a-4b7c-938e-9fa0b1c2d326"
	webPage      = "480a2c3e-6a7b-4c8d-a49f-a0b1c2d3e427" // sonic_webpage
	spinner      = "591b3d4f-7b8c-4d9e-b5a0-b1c2d3e4f528" // a file_search reply to no call
	answerWeathr = "6a2c4e5a-8c9d-4e0f-86b1-c2d3e4f5a629" // create_time null
	askPaint     = "7b3d5f6b-9d0e-4f1a-97c2-d3e4f5a6b72a"
	dalleCall    = "8c4e6a7c-0e1f-4a2b-a8d3-e4f5a6b7c82b"
	dalleImage   = "9d5f7b8d-1f2a-4b3c-b9e4-f5a6b7c8d92c"
	dalleNote    = "0e6a8c9e-2a3b-4c4d-8af5-a6b7c8d9e02d"
	answerPaint  = "1f7b9d0f-3b4c-4d5e-9b06-b7c8d9e0f12e"
	askPDF       = "20a8c0e1-4c5d-4e6f-ac17-c8d9e0f1a22f"
	pdfCall      = "31b9d1f2-5d6e-4f7a-bd28-d9e0f1a2b330"
	pdfError     = "42c0e2a3-6e7f-4a8b-8e39-e0f1a2b3c431" // system_error
	answerSorry  = "53d1f3b4-7f8a-4b9c-9f4a-f1a2b3c4d532" // the current node
)

func raw(id string) string { return id + "-raw" }

func openFixture(t *testing.T) []Conversation {
	t.Helper()
	convs, err := Open(filepath.Join("testdata", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 2 {
		t.Fatalf("%d conversations, want 2", len(convs))
	}
	return convs
}

// parse reads a conversation's lines with pi's reader and checks what every
// conversion must give: a v3 header, no problem, every parent before its
// children, and the title last.
func parse(t testing.TB, c Conversation) *pi.Session {
	t.Helper()
	s, err := pi.Parse(c.Lines)
	if err != nil {
		t.Fatalf("pi.Parse: %v\n%s", err, c.Lines)
	}
	if s.Header.Version != 3 || s.Header.Cwd != "" || s.Header.ID == "" {
		t.Fatalf("header %+v", s.Header)
	}
	if c.ID != "" && s.Header.ID != "chatgpt-"+c.ID {
		t.Fatalf("header id %q for conversation %q", s.Header.ID, c.ID)
	}
	if len(s.Diagnostics) > 0 {
		t.Fatalf("diagnostics %v\n%s", s.Diagnostics, c.Lines)
	}
	if n := bytes.Count(c.Lines, []byte("\n")); n != s.Len()+1 || !bytes.HasSuffix(c.Lines, []byte("\n")) {
		t.Fatalf("%d lines for %d entries", n, s.Len())
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		if p := s.Parent(i); p >= i || (p < 0) != (e.ParentID == "") {
			t.Fatalf("entry %d (%s) has parent %d (%q)", i, e.ID, p, e.ParentID)
		}
		if e.Timestamp == "" {
			t.Fatalf("entry %s has no timestamp", e.ID)
		}
	}
	if leaf := s.Leaf(); leaf < 0 || s.Entries[leaf].Type != pi.TypeSessionInfo || s.Name() != c.Title {
		t.Fatalf("the last entry is not the title %q", c.Title)
	}
	return s
}

func pathIDs(s *pi.Session, i int) []string {
	var ids []string
	for _, j := range s.Path(i) {
		ids = append(ids, s.Entries[j].ID)
	}
	return ids
}

func TestFixtureTree(t *testing.T) {
	convs := openFixture(t)
	if convs[0].ID != convWeather || convs[1].ID != convSine {
		t.Fatalf("ids %q, %q", convs[0].ID, convs[1].ID)
	}
	if convs[0].Title != "Paris weather and a watercolor" || convs[1].Title != "Plotting sine and cosine" {
		t.Fatalf("titles %q, %q", convs[0].Title, convs[1].Title)
	}

	sine := parse(t, convs[1])
	// The leaf is the current node's path: the edited prompt, the
	// regenerated answer, the photo, the browsing.
	want := []string{customContext, promptEdited, thoughts, recap, pythonCall, pythonOutput, raw(pythonOutput),
		answerRegen, photoPrompt, raw(photoPrompt), browserSearch, browserShow, raw(browserShow),
		browserClick, browserQuote, answerCited, raw(answerCited), "title"}
	if got := pathIDs(sine, sine.Leaf()); !slices.Equal(got, want) {
		t.Errorf("leaf path\n got %v\nwant %v", got, want)
	}
	// The prompt as first written is kept as a branch, with its answer.
	if got, want := pathIDs(sine, formattest.Index(t, sine, answerFirst)), []string{customContext, promptFirst, answerFirst}; !slices.Equal(got, want) {
		t.Errorf("first prompt's branch %v, want %v", got, want)
	}
	// So is the answer that was regenerated, beside the new one.
	if p, q := sine.Parent(formattest.Index(t, sine, answerOld)), sine.Parent(formattest.Index(t, sine, answerRegen)); p != q || sine.Entries[p].ID != raw(pythonOutput) {
		t.Errorf("the two answers hang from %d and %d", p, q)
	}
	if kids := sine.Children(formattest.Index(t, sine, customContext)); len(kids) != 2 {
		t.Errorf("the custom instructions have %d children, want the two prompts", len(kids))
	}
	// The root (no message) and the hidden empty system message give nothing.
	if sine.Len() != 21 {
		t.Errorf("%d entries, want 21", sine.Len())
	}

	weather := parse(t, convs[0])
	// web.run's two replies are one result, and so are DALL·E's image and
	// note: the later reply has no entry of its own, only its original
	// when it is kept.
	want = []string{askWeather, memory, thinking2, webCall, webResult, raw(webResult), raw(webPage), spinner,
		answerWeathr, raw(answerWeathr), askPaint, dalleCall, dalleImage, raw(dalleImage), answerPaint,
		askPDF, pdfCall, pdfError, answerSorry, "title"}
	if got := pathIDs(weather, weather.Leaf()); !slices.Equal(got, want) {
		t.Errorf("leaf path\n got %v\nwant %v", got, want)
	}
	if weather.Len() != len(want) {
		t.Errorf("%d entries, want %d: one branch", weather.Len(), len(want))
	}
}

// entries decodes every line but the header.
func entries(t *testing.T, c Conversation) []map[string]any {
	t.Helper()
	var out []map[string]any
	for k, line := range bytes.Split(bytes.TrimSuffix(c.Lines, []byte("\n")), []byte("\n")) {
		var e map[string]any
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
		if k > 0 {
			out = append(out, e)
		}
	}
	return out
}

func byID(t *testing.T, es []map[string]any, id string) map[string]any {
	t.Helper()
	for _, e := range es {
		if e["id"] == id {
			return e
		}
	}
	t.Fatalf("no entry %s", id)
	return nil
}

func TestFixtureMessages(t *testing.T) {
	convs := openFixture(t)
	sine, weather := entries(t, convs[1]), entries(t, convs[0])
	msg := func(es []map[string]any, id string) map[string]any {
		e := byID(t, es, id)
		if e["type"] != "message" {
			t.Fatalf("%s is a %v", id, e["type"])
		}
		return e["message"].(map[string]any)
	}
	block := func(m map[string]any, k int) map[string]any { return m["content"].([]any)[k].(map[string]any) }

	if m := msg(sine, promptEdited); m["role"] != "user" || block(m, 0)["text"] != "Plot sin(x) and cos(x) from 0 to 2π on one chart." || m["timestamp"] != float64(1731400060000) {
		t.Errorf("edited prompt %v", m)
	}
	if m := msg(sine, thoughts); m["role"] != "assistant" || block(m, 0)["type"] != "thinking" || m["model"] != "gpt-5-thinking" ||
		block(m, 0)["thinking"] != "Planning the chart\n\nTwo curves on one set of axes, x from 0 to 2π; label the axes as the user asks." {
		t.Errorf("thoughts %v", m)
	}
	if m := msg(sine, recap); block(m, 0)["type"] != "thinking" || block(m, 0)["thinking"] != "Thought for 4s" {
		t.Errorf("reasoning recap %v", m)
	}
	call := block(msg(sine, pythonCall), 0)
	if call["type"] != "toolCall" || call["id"] != pythonCall || call["name"] != "python" ||
		!strings.HasPrefix(call["arguments"].(map[string]any)["code"].(string), "import numpy as np\n") {
		t.Errorf("python call %v", call)
	}
	if m := msg(sine, pythonOutput); m["role"] != "toolResult" || m["toolCallId"] != pythonCall || m["toolName"] != "python" ||
		m["isError"] != false || block(m, 1)["text"] != "[image: file-service://file-7QpXnTz3kVb1Lm9RsEw2Hd]" {
		t.Errorf("python output %v", m)
	}
	if m := msg(sine, photoPrompt); block(m, 0)["text"] != "[image: sediment://file_00000000a1b2c3d4e5f60718293a4b5c]" ||
		block(m, 1)["text"] != "Where was this photo taken, and what is the weather there now?" {
		t.Errorf("photo prompt %v", m)
	}
	if e := byID(t, sine, customContext); e["type"] != "custom_message" || e["customType"] != "chatgpt.user_editable_context" || e["display"] != false {
		t.Errorf("custom instructions %v", e)
	}
	if m := msg(sine, browserQuote); block(m, 0)["text"] != "Paris - Météo-France\nhttps://meteofrance.com/previsions-meteo-france/paris/75000\nNow: cloudy, 14 °C. This afternoon: showers likely, 15 °C." {
		t.Errorf("quote %v", m)
	}
	// A null create_time is the previous entry's time.
	if e := byID(t, weather, answerWeathr); e["timestamp"] != byID(t, weather, spinner)["timestamp"] {
		t.Errorf("a message without a time at %v", e["timestamp"])
	}
	if args := block(msg(weather, webCall), 0)["arguments"].(map[string]any); args["response_length"] != "short" {
		t.Errorf("web.run arguments %v: the call's JSON text is the arguments", args)
	}
	if m := msg(weather, pdfError); block(m, 0)["text"] != "AceInternalException: Encountered exception: <class 'ace_common.ace_exception.AceInternalException'>." {
		t.Errorf("system error %v", m)
	}
	if e := byID(t, weather, spinner); e["type"] != "custom" || e["customType"] != "chatgpt.tether_browsing_display" {
		t.Errorf("a tool's reply to no call %v", e)
	}
	if e := byID(t, weather, memory); e["type"] != "custom_message" || e["customType"] != "chatgpt.model_editable_context" {
		t.Errorf("memory %v", e)
	}
	if m := msg(weather, answerPaint); m["model"] != "gpt-4o" {
		t.Errorf("model %v", m["model"])
	}
	kept := map[string]string{raw(webResult): "chatgpt.search_result_groups", raw(webPage): "chatgpt.sonic_webpage",
		raw(answerWeathr): "chatgpt.content_references", raw(dalleImage): "chatgpt.image_asset_pointer"}
	for id, typ := range kept {
		if e := byID(t, weather, id); e["type"] != "custom" || e["customType"] != typ {
			t.Errorf("%s: %v %v, want a custom %s", id, e["type"], e["customType"], typ)
		}
	}
}

// TestToolCallsPaired checks that every tool call has its result below it,
// and that pi's context at the leaf pairs them.
func TestToolCallsPaired(t *testing.T) {
	for _, c := range openFixture(t) {
		s := parse(t, c)
		calls := map[string]int{}
		for i := range s.Entries {
			if s.Entries[i].Role != pi.RoleAssistant {
				continue
			}
			for _, b := range arrayOf(s.Entries[i].MessageField("content")) {
				if str(objectOf(b)["type"]) == "toolCall" {
					calls[str(objectOf(b)["id"])] = i
				}
			}
		}
		answered := map[string]bool{}
		for i := range s.Entries {
			if s.Entries[i].Role != pi.RoleToolResult {
				continue
			}
			id := str(s.Entries[i].MessageField("toolCallId"))
			ci, ok := calls[id]
			if !ok || !slices.Contains(s.Path(i), ci) {
				t.Errorf("%s: result %s answers %q, not a call above it", c.Title, s.Entries[i].ID, id)
			}
			answered[id] = true
		}
		// One result a call: pi pairs the first result on a call's path and
		// keeps any other as data no screen shows.
		for i := range s.Entries {
			if len(s.Children(i)) > 0 {
				continue // not a leaf
			}
			seen := map[string]bool{}
			for _, j := range s.Path(i) {
				if s.Entries[j].Role != pi.RoleToolResult {
					continue
				}
				id := str(s.Entries[j].MessageField("toolCallId"))
				if seen[id] {
					t.Errorf("%s: a second result of %q on the path to %s", c.Title, id, s.Entries[i].ID)
				}
				seen[id] = true
			}
		}
		if len(calls) == 0 || len(answered) != len(calls) {
			t.Errorf("%s: %d calls, %d answered", c.Title, len(calls), len(answered))
		}
		ctx := s.BuildContext(s.Leaf())
		var msgs []model.Message
		onPath := 0
		for _, m := range ctx.Messages {
			msg := s.Message(m)
			msgs = append(msgs, msg)
			onPath += len(msg.ToolCalls())
		}
		if pairs := model.PairTools(msgs); onPath == 0 || len(pairs) != onPath {
			t.Errorf("%s: %d of %d calls on the leaf's path paired", c.Title, len(pairs), onPath)
		}
	}
}

// TestNothingLost checks that the text of every message of the fixture is
// in the converted messages (not only in the originals kept beside them),
// and that every original kept is the export's message as it was.
func TestNothingLost(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var export []struct {
		Mapping map[string]struct {
			Message map[string]any `json:"message"`
		} `json:"mapping"`
	}
	if err := json.Unmarshal(data, &export); err != nil {
		t.Fatal(err)
	}
	convs := openFixture(t)
	for k, conv := range export {
		es := entries(t, convs[k])
		var converted []string // every string of the entries but the originals kept
		for _, e := range es {
			if e["type"] != "custom" {
				converted = strs(converted, e)
			}
		}
		for id, node := range conv.Mapping {
			m := node.Message
			if m == nil {
				continue
			}
			for _, s := range textOf(m["content"], "") {
				if !slices.ContainsFunc(converted, func(c string) bool { return strings.Contains(c, s) }) {
					t.Errorf("%s: %q is not in the converted messages", id, s)
				}
			}
		}
		for _, e := range es {
			if e["type"] != "custom" {
				continue
			}
			data := e["data"].(map[string]any)
			if want := conv.Mapping[data["id"].(string)].Message; !reflect.DeepEqual(data, want) {
				t.Errorf("%s: the original kept differs from the export's", e["id"])
			}
		}
	}
}

// textOf returns the text a message's content carries: every string but
// names of types and what image parts say of themselves; a JSON object (a
// tool call's text) by its strings.
func textOf(v any, key string) []string {
	switch v := v.(type) {
	case string:
		var obj map[string]any
		if strings.HasPrefix(v, "{") && json.Unmarshal([]byte(v), &obj) == nil {
			return textOf(obj, "")
		}
		if v == "" || key == "content_type" || key == "language" || key == "domain" || key == "source_analysis_msg_id" {
			return nil
		}
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, textOf(x, key)...)
		}
		return out
	case map[string]any:
		var out []string
		for k, x := range v {
			if k == "metadata" || k == "snippet" || k == "ref_id" {
				continue
			}
			out = append(out, textOf(x, k)...)
		}
		return out
	}
	return nil
}

func strs(dst []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(dst, v)
	case []any:
		for _, x := range v {
			dst = strs(dst, x)
		}
	case map[string]any:
		for _, x := range v {
			dst = strs(dst, x)
		}
	}
	return dst
}

func TestSplitExport(t *testing.T) {
	whole := openFixture(t)
	for _, name := range []string{"conversations-000.json", "conversations-001.json"} {
		parts, err := Open(filepath.Join("testdata", "split", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != len(whole) {
			t.Fatalf("%s: %d conversations, want %d", name, len(parts), len(whole))
		}
		for k := range parts {
			if !reflect.DeepEqual(parts[k], whole[k]) {
				t.Errorf("%s: conversation %d differs from the whole export's", name, k)
			}
		}
	}
	// A file of the split export read on its own is one of its parts.
	data, err := os.ReadFile(filepath.Join("testdata", "split", "conversations-001.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	single := filepath.Join(dir, "conversations.json")
	if err := os.WriteFile(single, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if convs, err := Open(single); err != nil || len(convs) != 1 || convs[0].ID != convSine {
		t.Errorf("conversations.json beside nothing: %v, %v", convs, err)
	}
}

func TestSplitOrder(t *testing.T) {
	dir := t.TempDir()
	one := func(id string) string {
		return `[{"title":"` + id + `","conversation_id":"` + id + `","mapping":{}}]`
	}
	for name, body := range map[string]string{
		"conversations-010.json": one("ten"), "conversations-2.json": one("two"),
		"conversations-001.json": one("one"), "conversations-extra.json": one("extra"),
		"conversations.json": one("whole"), "other.json": one("other"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	convs, err := Open(filepath.Join(dir, "conversations-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range convs {
		got = append(got, c.ID)
	}
	if want := []string{"one", "two", "ten", "extra"}; !slices.Equal(got, want) {
		t.Errorf("parts read in order %v, want %v", got, want)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "conversations.json")); err == nil {
		t.Error("a missing file opened")
	}
	for name, body := range map[string]string{
		"empty.json":   `[]`,
		"pi.jsonl":     `{"type":"session","version":3,"id":"x","timestamp":"2024-01-01T00:00:00.000Z","cwd":""}` + "\n",
		"openai.json":  `[{"role":"user","content":"hi"}]`,
		"mapping.json": `[{"title":"t","mapping":[]}]`,
		"text.json":    `not json`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if convs, err := Open(p); err == nil || convs != nil {
			t.Errorf("%s: %d conversations, %v; want an error", name, len(convs), err)
		}
	}
}

func TestDetect(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{len(data), 4096, 300} {
		if !Detect(data[:n]) {
			t.Errorf("the fixture's first %d bytes not detected", n)
		}
	}
	for head, want := range map[string]bool{
		`[{"title":"t","create_time":1,"mapping":{}}]`:                       true,
		`[{"current_node":"a","mapping":{"a":{`:                              true,
		"\ufeff [ {\"mapping\" : {\"a\": {\"id\":\"a\"}}, \"title\": null}]": true,
		`[{"mapping":{"n1":{"id":"n1","message":null,"parent":null,"chil`:    true,
		`[{"mapping":{"n1":{"id":"n1","x":`:                                  false,
		`[{"mapping":{}}]`:                                                   false,
		`[{"title":"t","mapping":[]}]`:                                       false,
		`[{"title":"t"}]`:                                                    false,
		`[{"title":{"mapping":{}}, "x":1}]`:                                  false,
		`{"title":"t","mapping":{}}`:                                         false,
		`[{"role":"user","content":"hi"}]`:                                   false,
		`{"type":"session","version":3,"id":"x"}`:                            false,
		`[]`: false,
		``:   false,
		`[{"a":"\"mapping\"","title":"x","b":[{"mapping":{}}]}]`:               false,
		`[{"title":"a \" \\ b","moderation_results":[[],{}],"mapping":{"x":{}`: true,
	} {
		if got := Detect([]byte(head)); got != want {
			t.Errorf("Detect(%q) = %v, want %v", head, got, want)
		}
	}
}

func TestTimes(t *testing.T) {
	convs, err := Read([]byte(`[{"title":"t","create_time":null,"mapping":{
		"a":{"message":{"id":"a","author":{"role":"user"},"create_time":null,"content":{"content_type":"text","parts":["one"]}},"children":["b"]},
		"b":{"message":{"id":"b","author":{"role":"assistant"},"create_time":"2024-05-01T10:00:00.5Z","content":{"content_type":"text","parts":["two"]}},"parent":"a","children":["c"]},
		"c":{"message":{"id":"c","author":{"role":"user"},"create_time":1e300,"update_time":1714557601.25,"content":{"content_type":"text","parts":["three"]}},"parent":"b","children":["d"]},
		"d":{"message":{"id":"d","author":{"role":"assistant"},"create_time":-5,"content":{"content_type":"text","parts":["four"]}},"parent":"c"}},
		"current_node":"d"}]`))
	if err != nil {
		t.Fatal(err)
	}
	s := parse(t, convs[0])
	var got []string
	for i := range s.Entries {
		got = append(got, s.Entries[i].Timestamp)
	}
	want := []string{"1970-01-01T00:00:00.000Z", "2024-05-01T10:00:00.500Z", "2024-05-01T10:00:01.250Z", "2024-05-01T10:00:01.250Z", "2024-05-01T10:00:01.250Z"}
	if !slices.Equal(got, want) {
		t.Errorf("times %v, want %v", got, want)
	}
	if s.Header.Timestamp != "1970-01-01T00:00:00.000Z" {
		t.Errorf("header at %s: the earliest entry's time without a create_time", s.Header.Timestamp)
	}
}

// TestHostile feeds wrong and damaged exports: none may panic, each
// conversation read must be a valid session, and what can be kept is.
func TestHostile(t *testing.T) {
	good := `{"title":"good","conversation_id":"g","mapping":{"r":{"message":null,"children":["u"]},"u":{"parent":"r","message":{"id":"u","author":{"role":"user"},"content":{"content_type":"text","parts":["hello"]}}}},"current_node":"u"}`
	tests := []struct {
		name  string
		input string
		n     int                                               // conversations read; 0 for an error
		check func(t *testing.T, s *pi.Session, c Conversation) // may be nil
	}{
		{"mapping array", `[{"title":"x","mapping":[]}]`, 0, nil},
		{"not an array", `"x"`, 0, nil},
		{"no mapping", `[{"title":"x","current_node":"a"}]`, 0, nil},
		{"elements of other types", `[1,"x",null,[],` + good + `]`, 1, nil},
		{"damaged after a good one", `[` + good + `,{"mapping":{"a":`, 1, nil},
		{"one object", good, 1, nil},
		{"empty mapping", `[{"title":"  two\r\n\nlines  ","mapping":{}}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if s.Len() != 1 || c.Title != "two lines" || c.ID != "" || !strings.HasPrefix(s.Header.ID, "chatgpt-") {
				t.Errorf("%d entries, title %q, id %q", s.Len(), c.Title, s.Header.ID)
			}
		}},
		{"nodes of wrong types", `[{"mapping":{"a":5,"b":"x","c":[],"d":null,"e":{"message":7,"parent":3,"children":{}}}}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if i := formattest.Index(t, s, "e-raw"); s.Entries[i].Type != pi.TypeCustom {
				t.Errorf("a message that is a number: %s", s.Entries[i].Raw)
			}
		}},
		{"cycle", `[{"mapping":{"a":{"parent":"b","message":{"id":"a","author":{"role":"user"},"content":{"content_type":"text","parts":["A"]}}},"b":{"parent":"a","message":{"id":"b","author":{"role":"assistant"},"content":{"content_type":"text","parts":["B"]}}}},"current_node":"b"}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if got := pathIDs(s, s.Leaf()); !slices.Equal(got, []string{"a", "b", "title"}) {
				t.Errorf("path %v", got)
			}
		}},
		{"self parent and missing parent", `[{"mapping":{"a":{"parent":"a","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["A"]}}},"b":{"parent":"nowhere","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["B"]}}}},"current_node":"a"}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if len(s.Roots()) != 2 || s.Entries[s.Parent(s.Leaf())].ID != "a" {
				t.Errorf("roots %v", s.Roots())
			}
		}},
		{"children only", `[{"mapping":{"r":{"children":["u"]},"u":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["U"]}},"children":["a"]},"a":{"message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["A"]}}}}}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if got := pathIDs(s, s.Leaf()); !slices.Equal(got, []string{"u", "a", "title"}) {
				t.Errorf("path %v: without a current node, the latest leaf", got)
			}
		}},
		{"wrong types in a message", `[{"title":5,"create_time":"soon","default_model_slug":[],"mapping":{"a":{"message":{"id":9,"author":"user","create_time":{},"content":"text","recipient":7,"metadata":[]}},
			"b":{"parent":"a","message":{"author":{"role":"user","name":5},"content":{"content_type":"text","parts":[1,{"x":1},null,["y"],"z"]}}},
			"c":{"parent":"b","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":[5,{"summary":7,"content":"deep"}]}}},
			"d":{"parent":"c","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":"flat"}}}},"current_node":"d"}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			for _, id := range []string{"a", "b-raw", "c-raw", "d-raw"} {
				formattest.Index(t, s, id)
			}
		}},
		{"unknown role and content type", `[{"mapping":{"a":{"message":{"author":{"role":"critic"},"content":{"content_type":"text","parts":["meh"]}}},"b":{"parent":"a","message":{"author":{"role":"assistant"},"content":{"content_type":"hologram","text":"3d"}}}}}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if e := s.Entries[formattest.Index(t, s, "a")]; e.Type != pi.TypeCustom || !bytes.Contains(e.Raw, []byte(`"chatgpt.critic"`)) {
				t.Errorf("unknown role %s", e.Raw)
			}
			if e := s.Entries[formattest.Index(t, s, "b-raw")]; !bytes.Contains(e.Raw, []byte(`"chatgpt.hologram"`)) {
				t.Errorf("unknown content %s", e.Raw)
			}
		}},
		{"repeated ids", `[{"mapping":{"m":{"message":{"id":"x","author":{"role":"assistant"},"recipient":"python","content":{"content_type":"code","text":"1"}},"children":["m-raw"]},
			"m-raw":{"parent":"m","message":{"id":"x","author":{"role":"assistant"},"recipient":"python","content":{"content_type":"code","text":"2"}},"children":["t"]},
			"t":{"parent":"m-raw","message":{"id":"x","author":{"role":"tool","name":"python"},"content":{"content_type":"execution_output","text":"2"},"metadata":{"attachments":[1]}},"children":["title"]},
			"title":{"parent":"t","message":{"author":{"role":"user"},"content":{"content_type":"multimodal_text","parts":[{"content_type":"image_asset_pointer","asset_pointer":"p"}]}}}},
			"mapping_extra":1,"current_node":"title"}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			res := s.Entries[formattest.Index(t, s, "t")]
			if id := str(res.MessageField("toolCallId")); id != "m-raw" {
				t.Errorf("the result answers %q, want the second call, whose id was taken", id)
			}
		}},
		{"tool reply without a call", `[{"mapping":{"u":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"children":["t"]},"t":{"parent":"u","message":{"author":{"role":"tool","name":"browser"},"content":{"content_type":"text","parts":["page"]}}}}}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if e := s.Entries[formattest.Index(t, s, "t")]; e.Type != pi.TypeCustom {
				t.Errorf("%s", e.Raw)
			}
		}},
		{"current node with children", `[{"mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["A"]}},"children":["b"]},"b":{"parent":"a","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["B"]}}}},"current_node":"a"}]`, 1, func(t *testing.T, s *pi.Session, c Conversation) {
			if got := pathIDs(s, s.Leaf()); !slices.Equal(got, []string{"a", "title"}) {
				t.Errorf("path %v", got)
			}
		}},
		{"huge and deep", `[{"mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["` + strings.Repeat("é\\n\\u2028", 200000) + `",` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `]}}}}}]`, 1, nil},
		{"invalid UTF-8", "[{\"title\":\"\xff\",\"mapping\":{\"a\":{\"message\":{\"author\":{\"role\":\"user\"},\"content\":{\"content_type\":\"text\",\"parts\":[\"\xfe\"]},\"metadata\":{\"citations\":[\"\xfd\"]}}}}}]", 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			convs, err := Read([]byte(tt.input))
			if tt.n == 0 {
				if err == nil {
					t.Fatalf("%d conversations, want an error", len(convs))
				}
				return
			}
			if err != nil || len(convs) != tt.n {
				t.Fatalf("%d conversations, %v; want %d", len(convs), err, tt.n)
			}
			for _, c := range convs {
				s := parse(t, c)
				if tt.check != nil {
					tt.check(t, s, c)
				}
			}
		})
	}
}
