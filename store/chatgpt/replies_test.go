package chatgpt

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/store/pi"
)

// TestBrowsing2023 reads a browsing exchange of 2023 (testdata/browsing-2023.json,
// see FORMAT.md): a search answered by its results, then an mclick answered by
// three replies (a display, then a quote of each page opened), which are one
// result, their texts in order, each reply's original kept where it is.
func TestBrowsing2023(t *testing.T) {
	const (
		search   = "8e4c3f5b-0a67-4d2b-9f94-3c5a6b7d8e93"
		results  = "9f5d4a6c-1b78-4e3c-8a05-4d6b7c8e9fa4"
		click    = "0a6e5b7d-2c89-4f4d-9b16-5e7c8d9fab05"
		clicking = "1b7f6c8e-3d9a-4a5e-8c27-6f8d9eab0c16" // an empty display
		quote1   = "2c8a7d9f-4eab-4b6f-9d38-7a9eafbc1d27"
		quote2   = "3d9b8eaf-5fbc-4c7a-8e49-8bafb0cd2e38"
		answer   = "4eac9fb0-6acd-4d8b-9f5a-9cb0c1de3f49"
	)
	convs, err := Open(filepath.Join("testdata", "browsing-2023.json"))
	if err != nil || len(convs) != 1 {
		t.Fatalf("%d conversations, %v", len(convs), err)
	}
	s := parse(t, convs[0])
	want := []string{"7d3b2e4a-9f56-4c1a-8e83-2b4f5a6c7d82", search, results, raw(results), click, clicking, answer, raw(answer), "title"}
	if got := pathIDs(s, s.Leaf()); !slices.Equal(got, want) {
		t.Errorf("leaf path\n got %v\nwant %v", got, want)
	}
	for _, id := range []string{quote1, quote2} {
		if _, ok := s.Index(id); ok {
			t.Errorf("the reply %s has an entry of its own", id)
		}
	}
	res := s.Entries[formattest.Index(t, s, clicking)]
	if id := str(res.MessageField("toolCallId")); id != click {
		t.Fatalf("the mclick's replies answer %q", id)
	}
	var texts []string
	for _, b := range arrayOf(res.MessageField("content")) {
		texts = append(texts, str(objectOf(b)["text"]))
	}
	if len(texts) != 2 || !strings.HasPrefix(texts[0], "NASA Names Astronauts") || !strings.HasSuffix(texts[0], "will fly around the Moon on Artemis II.") ||
		!strings.HasPrefix(texts[1], "Meet the Artemis II crew") {
		t.Errorf("the mclick's result %q: want both quotes, in order", texts)
	}
	if want := "2023-04-04T19:00:15.900Z"; res.Timestamp != want {
		t.Errorf("the result's time %s, want its last reply's, %s", res.Timestamp, want)
	}
	if id := str(s.Entries[formattest.Index(t, s, results)].MessageField("toolCallId")); id != search {
		t.Errorf("the search's results answer %q", id)
	}
}

// TestRepliesJoined checks how replies to one call become its result when
// the tree branches among them, and that a reply to a call answered higher
// up is kept as data rather than made a second result.
func TestRepliesJoined(t *testing.T) {
	node := func(id, parent, role, name, recipient, text string, children ...string) string {
		ct := `{"content_type":"text","parts":[` + strconvQuote(text) + `]}`
		if recipient != "" {
			ct = `{"content_type":"code","language":"unknown","text":` + strconvQuote(text) + `}`
		}
		kids, _ := json.Marshal(children)
		return strconvQuote(id) + `:{"parent":` + strconvQuote(parent) + `,"children":` + string(kids) +
			`,"message":{"id":` + strconvQuote(id) + `,"author":{"role":"` + role + `","name":` + strconvQuote(name) + `},"recipient":` + strconvQuote(orDefault(recipient, "all")) + `,"content":` + ct + `}}`
	}
	conv := `[{"title":"t","current_node":"r3","mapping":{` + strings.Join([]string{
		node("u", "", "user", "", "", "look it up", "c"),
		node("c", "u", "assistant", "", "browser", `search("x")`, "r1"),
		// r1 has a regenerated answer a1 and the next reply r2: two branches.
		node("r1", "c", "tool", "browser", "", "one", "a1", "r2"),
		node("a1", "r1", "assistant", "", "", "answer after one"),
		node("r2", "r1", "tool", "browser", "", "two", "a2"),
		node("a2", "r2", "assistant", "", "", "answer after two", "r3"),
		node("r3", "a2", "tool", "browser", "", "late"),
	}, ",") + `}}]`
	convs, err := Read([]byte(conv))
	if err != nil {
		t.Fatal(err)
	}
	s := parse(t, convs[0])
	texts := func(i int) []string {
		var out []string
		for _, b := range arrayOf(s.Entries[i].MessageField("content")) {
			out = append(out, str(objectOf(b)["text"]))
		}
		return out
	}
	// The branch that stopped after one reply has a result of one text;
	// the branch that went on has its own result of both.
	a1, a2 := formattest.Index(t, s, "a1"), formattest.Index(t, s, "a2")
	r1, r12 := s.Parent(a1), s.Parent(a2)
	if r1 == r12 || s.Parent(r1) != formattest.Index(t, s, "c") || s.Parent(r12) != formattest.Index(t, s, "c") {
		t.Fatalf("results %d and %d, want two under the call", r1, r12)
	}
	if got := texts(r1); !slices.Equal(got, []string{"one"}) {
		t.Errorf("the first branch's result %q", got)
	}
	if got := texts(r12); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("the second branch's result %q", got)
	}
	// A reply after the answer is none of the call's results.
	if e := s.Entries[formattest.Index(t, s, "r3")]; e.Type != pi.TypeCustom || !bytes.Contains(e.Raw, []byte(`"chatgpt.text"`)) {
		t.Errorf("a late reply: %s", e.Raw)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestSkipped reads an export of three conversations whose second has no
// messages (mapping null, as ChatGPT's list of conversations gives one):
// the other two are read, and the second is named, with the reason.
func TestSkipped(t *testing.T) {
	convs, skipped, err := OpenExport(filepath.Join("testdata", "mapping-null.json"))
	if err != nil || len(convs) != 2 || convs[0].Title != "Boiling an egg" || convs[1].Title != "Sourdough starter" {
		t.Fatalf("%d conversations, %v", len(convs), err)
	}
	want := []Skipped{{ID: "6790e4f7-11aa-8002-b3c4-2d1e0f9a8b02", Title: "Lisbon in three days",
		Reason: "its mapping (the messages) is null: the export holds no messages of it"}}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped %+v\nwant %+v", skipped, want)
	}
	for _, tt := range []struct {
		input  string
		reason string
	}{
		{`[{"id":"a","title":"no mapping"}]`, "it has no mapping (the messages): the export holds no messages of it"},
		{`[{"id":"a","title":"a list","mapping":[]}]`, "its mapping (the messages) is a list: the export holds no messages of it"},
		{`[{"id":"a","mapping":{}},7]`, "element 2 of file 1: not a conversation but a number"},
		{`[{"id":"a","messages":[{"author":{"role":"user"}}]}]`, "it has no mapping but a messages member, a shape of ChatGPT's export no source shows: not read"},
	} {
		_, skipped, _ := ReadExport([]byte(tt.input))
		if len(skipped) != 1 || skipped[0].Reason != tt.reason {
			t.Errorf("%s: skipped %+v, want %q", tt.input, skipped, tt.reason)
		}
	}
	// Only skipped: an error that says so, the skipped named.
	_, skipped, err = ReadExport([]byte(`[{"id":"a","title":"t","mapping":null}]`))
	if err == nil || !strings.Contains(err.Error(), "1 skipped") || len(skipped) != 1 || skipped[0].Title != "t" {
		t.Errorf("%v, %+v", err, skipped)
	}
	if !Detect([]byte(`[{"id":"a","title":"t","mapping":null,"current_node":null}]`)) {
		t.Error("an export whose first conversation has no messages is not detected")
	}
}
