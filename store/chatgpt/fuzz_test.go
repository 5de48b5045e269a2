package chatgpt

import (
	"testing"

	"skein/store/pi"
)

// fuzzSeeds are small conversations with every kind of node the fixture
// has. The fixture itself is no seed: the fuzzer minimizes each input that
// finds new code, for up to a minute, and on inputs of the fixture's size
// it did nothing else.
var fuzzSeeds = []string{
	`[{"title":"t","create_time":1700000000.5,"current_node":"a","mapping":{"r":{"id":"r","message":null,"parent":null,"children":["s"]},
"s":{"id":"s","message":{"id":"s","author":{"role":"system","name":null,"metadata":{}},"create_time":null,"content":{"content_type":"text","parts":[""]},"weight":0.0,"metadata":{"is_visually_hidden_from_conversation":true},"recipient":"all"},"parent":"r","children":["c"]},
"c":{"id":"c","message":{"id":"c","author":{"role":"user"},"content":{"content_type":"user_editable_context","user_profile":"p","user_instructions":"i"},"metadata":{"is_visually_hidden_from_conversation":true}},"parent":"s","children":["u","v"]},
"u":{"id":"u","message":{"id":"u","author":{"role":"user"},"create_time":1700000001,"content":{"content_type":"text","parts":["first"]}},"parent":"c","children":[]},
"v":{"id":"v","message":{"id":"v","author":{"role":"user"},"create_time":1700000002,"content":{"content_type":"text","parts":["edited"]}},"parent":"c","children":["a"]},
"a":{"id":"a","message":{"id":"a","author":{"role":"assistant"},"content":{"content_type":"text","parts":["answer"]},"metadata":{"model_slug":"gpt-4o"},"recipient":"all"},"parent":"v","children":[]}}}]`,
	`[{"mapping":{"t":{"message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":[{"summary":"s","content":"c","chunks":["c"],"finished":true}],"source_analysis_msg_id":"x"}},"children":["r"]},
"r":{"parent":"t","message":{"author":{"role":"assistant"},"content":{"content_type":"reasoning_recap","content":"Thought for 4s"}},"children":["p"]},
"p":{"parent":"r","message":{"id":"p","author":{"role":"assistant"},"recipient":"python","content":{"content_type":"code","language":"unknown","text":"print(1)"}},"children":["o"]},
"o":{"parent":"p","message":{"author":{"role":"tool","name":"python"},"content":{"content_type":"execution_output","text":"1"},"metadata":{"aggregate_result":{"messages":[{"message_type":"image","image_url":"file-service://f"}]}}},"children":["e"]},
"e":{"parent":"o","message":{"author":{"role":"tool","name":"python"},"content":{"content_type":"system_error","name":"E","text":"failed"}}}},"current_node":"e"}]`,
	`[{"mapping":{"u":{"message":{"author":{"role":"user"},"content":{"content_type":"multimodal_text","parts":[{"content_type":"image_asset_pointer","asset_pointer":"sediment://file_1","width":1},{"content_type":"audio_transcription","text":"hi","direction":"in"},"where?"]},"metadata":{"attachments":[{"name":"a.jpg"}]}},"children":["b"]},
"b":{"parent":"u","message":{"author":{"role":"assistant"},"recipient":"browser","content":{"content_type":"code","text":"search(\"x\")"}},"children":["d"]},
"d":{"parent":"b","message":{"author":{"role":"tool","name":"browser"},"content":{"content_type":"tether_browsing_display","result":"# 【0†x】","summary":null},"metadata":{"_cite_metadata":{"metadata_list":[]}}},"children":["q"]},
"q":{"parent":"d","message":{"author":{"role":"tool","name":"browser"},"content":{"content_type":"tether_quote","url":"https://x","domain":"x","title":"X","text":"quoted"}},"children":["w"]},
"w":{"parent":"q","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["it is 14 °C【1†source】"]},"metadata":{"citations":[{"start_ix":1}]}}}}}]`,
	`[{"default_model_slug":"gpt-5","mapping":{"m":{"message":{"author":{"role":"assistant"},"content":{"content_type":"model_editable_context","model_set_context":"memory","repository":null}},"children":["w"]},
"w":{"parent":"m","message":{"author":{"role":"assistant"},"recipient":"web.run","content":{"content_type":"code","text":"{\"search_query\":[{\"q\":\"x\"}]}"}},"children":["r"]},
"r":{"parent":"w","message":{"author":{"role":"tool","name":"web.run"},"content":{"content_type":"text","parts":[""]},"metadata":{"search_result_groups":[{"domain":"x"}]}},"children":["s"]},
"s":{"parent":"r","message":{"author":{"role":"tool","name":"web.run"},"content":{"content_type":"sonic_webpage","url":"u","title":"t","text":"page","snippet":"s"}},"children":["f"]},
"f":{"parent":"s","message":{"author":{"role":"tool","name":"file_search"},"content":{"content_type":"tether_browsing_display","result":"","assets":null},"metadata":{"is_visually_hidden_from_conversation":true}},"children":["d"]},
"d":{"parent":"f","message":{"author":{"role":"developer"},"content":{"content_type":"text","parts":["rules"]}}}}}]`,
	`[{"title":"t","mapping":{"a":{"parent":"b","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}},"b":{"parent":"a"},"c":{"parent":"c","message":"x"},"d":5},"current_node":"a"},1,{"mapping":[]}]`,
	`{"mapping":{"a":{"message":{"id":9,"author":"user","create_time":"2024-05-01T10:00:00Z","content":{"content_type":"text","parts":[1,{"x":1},null,["y"]]},"recipient":7,"metadata":[]}}}}`,
	`[{"mapping":{"a":{"message":{"author":{"role":"critic"},"create_time":1e999,"content":{"content_type":"hologram","text":"t"}}}}},{"mapping":{"a":`,
}

// FuzzRead feeds arbitrary bytes to Read and Detect: neither may panic, and
// every conversation Read returns must be a pi session that parses cleanly,
// parents before children, with the title as its leaf.
func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data)
		convs, err := Read(data)
		if err != nil {
			if convs != nil {
				t.Fatal("conversations with an error")
			}
			return
		}
		if len(convs) == 0 {
			t.Fatal("no conversation and no error")
		}
		for _, c := range convs {
			s, err := pi.Parse(c.Lines)
			if err != nil {
				t.Fatalf("pi.Parse: %v\n%s", err, c.Lines)
			}
			if s.Header.Version != 3 || s.Header.ID == "" {
				t.Fatalf("header %+v", s.Header)
			}
			if len(s.Diagnostics) > 0 {
				t.Fatalf("diagnostics %v\n%s", s.Diagnostics, c.Lines)
			}
			for i := range s.Entries {
				if p := s.Parent(i); p >= i || (p < 0) != (s.Entries[i].ParentID == "") {
					t.Fatalf("entry %d has parent %d (%q)", i, p, s.Entries[i].ParentID)
				}
			}
			if leaf := s.Leaf(); leaf < 0 || s.Entries[leaf].Type != pi.TypeSessionInfo {
				t.Fatal("the last entry is not the title")
			}
		}
	})
}

// TestFuzzSeeds runs the seeds through the checks of parse, as go test
// runs them through FuzzRead.
func TestFuzzSeeds(t *testing.T) {
	for k, s := range fuzzSeeds {
		convs, _ := Read([]byte(s))
		if len(convs) == 0 {
			t.Errorf("seed %d: no conversation", k)
		}
		for _, c := range convs {
			parse(t, c)
		}
	}
}
