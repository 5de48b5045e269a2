package dhara

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"skein/internal/jsdate"
	"skein/model"
)

// The sessions of testdata/dhara were written by hand from the seed, with
// what skein must make of them, by someone who had not read this package
// (testdata/dhara/README.md).
const fixtures = "../../testdata/dhara"

type expectation struct {
	List struct {
		ID, Title, Cwd, Model, FirstMessage, Modified string
		MessageCount, Entries, Branches               int
	}
	Leaf    string
	Parents map[string]string
	Context []string
	History []string
	Doctor  []string
}

func TestFixturesListTreeContext(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixtures, "expect", "*.json"))
	if len(paths) < 8 {
		t.Fatalf("only %d expectations", len(paths))
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		t.Run(name, func(t *testing.T) {
			var want expectation
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(fixtures, "store", name)
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			// Each record is where its offset says (the text index reads it
			// again alone from there).
			for _, e := range s.Entries {
				data, _ := os.ReadFile(filepath.Join(dir, e.File()))
				if e.Off+len(e.Raw) > len(data) || !bytes.Equal(data[e.Off:e.Off+len(e.Raw)], e.Raw) {
					t.Errorf("%s: its record is not at offset %d of %s", e.ID, e.Off, e.File())
				}
			}
			info := s.Info(dir, 0)
			if scanned, err := ListInfo(dir, 0); err != nil || !reflect.DeepEqual(scanned, info) {
				t.Errorf("the list's scan\n got %+v (%v)\nwant %+v", scanned, err, info)
			}
			l := want.List
			if info.ID != l.ID || info.Name != l.Title || info.Cwd != l.Cwd || info.Model != l.Model ||
				info.MessageCount != l.MessageCount || info.Entries != l.Entries || info.Branches != l.Branches ||
				info.FirstMessage != l.FirstMessage || info.Modified != jsdate.Parse(l.Modified) {
				iso, _ := jsdate.ISO(info.Modified)
				t.Errorf("list record:\n got %+v (modified %s)\nwant %+v", info, iso, l)
			}
			leaf := ""
			if s.Leaf() >= 0 {
				leaf = s.Entries[s.Leaf()].ID
			}
			if leaf != want.Leaf {
				t.Errorf("leaf %q, want %q", leaf, want.Leaf)
			}
			parents := map[string]string{}
			for i := range s.Entries {
				parents[s.Entries[i].ID] = s.Entry(i).ParentID
			}
			if want.Parents == nil {
				want.Parents = map[string]string{}
			}
			for id, p := range want.Parents {
				if got, ok := parents[id]; !ok || got != p {
					t.Errorf("parent of %s: %q (present %v), want %q", id, got, ok, p)
				}
			}
			if len(parents) != len(want.Parents) {
				t.Errorf("%d entries, want %d", len(parents), len(want.Parents))
			}
			ctx := s.BuildContext(s.Leaf())
			var buf bytes.Buffer
			if err := s.WriteContextJSON(&buf, ctx); err != nil {
				t.Fatal(err)
			}
			var out struct{ EntryIDs []string }
			if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
				t.Fatalf("context JSON: %v\n%s", err, buf.Bytes())
			}
			if !slices.Equal(out.EntryIDs, want.Context) && !(len(out.EntryIDs) == 0 && len(want.Context) == 0) {
				t.Errorf("context\n got %q\nwant %q", out.EntryIDs, want.Context)
			}
			var history []string
			for _, i := range s.BuildHistory(s.Leaf()).Path {
				if e := &s.Entries[i]; e.kind == model.EntryMessage || e.Type == TypeCompaction {
					history = append(history, e.ID)
				}
			}
			if !slices.Equal(history, want.History) && !(len(history) == 0 && len(want.History) == 0) {
				t.Errorf("history\n got %q\nwant %q", history, want.History)
			}
			// Every message of the history is shown once, with its calls.
			h := s.BuildHistory(s.Leaf())
			calls := 0
			for _, m := range h.Messages {
				msg := s.Message(m)
				calls += len(msg.ToolCalls())
			}
			wantCalls := 0
			for _, id := range want.History {
				if i, ok := s.Index(id); ok && s.Entries[i].Type == TypeToolCall {
					wantCalls++
				}
			}
			if calls != wantCalls {
				t.Errorf("the history shows %d tool calls, want %d", calls, wantCalls)
			}
			diags, err := Check(dir)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, dir, diags, want.Doctor, 0)
		})
	}
}

// checkReport compares doctor's report with the expected lines
// ("file:line error", "file#/pointer warning") and exit code.
func checkReport(t *testing.T, dir string, diags []model.Diagnostic, want []string, exit int) {
	t.Helper()
	var got []string
	errs := 0
	for _, d := range diags {
		kind := "error"
		if d.Warning {
			kind = "warning"
		} else {
			errs++
		}
		where := strings.TrimPrefix(d.Where(dir), dir+"/")
		got = append(got, where+" "+kind)
	}
	norm := func(list []string) []string {
		out := make([]string, 0, len(list))
		for _, s := range list {
			where, kind, _ := strings.Cut(s, " ")
			out = append(out, strings.TrimSuffix(where, "#")+" "+kind)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if g, w := norm(got), norm(want); !slices.Equal(g, w) {
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, d.Where(dir)+": "+d.Msg)
		}
		t.Errorf("doctor\n got %q\nwant %q\n%s", g, w, strings.Join(msgs, "\n"))
	}
	if code := min(errs, 1); code != exit {
		t.Errorf("exit %d, want %d", code, exit)
	}
}

func TestFixturesDamaged(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixtures, "damaged", "*.expect"))
	if len(paths) < 17 {
		t.Fatalf("only %d damaged sessions", len(paths))
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".expect")
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var want []string
			exit := -1
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				switch {
				case line == "exit 0":
					exit = 0
				case line == "exit 1":
					exit = 1
				case line != "":
					want = append(want, line)
				}
			}
			dir := filepath.Join(fixtures, "damaged", name)
			diags, err := Check(dir)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, dir, diags, want, exit)
			// A damaged session still opens.
			if _, err := Open(dir); err != nil {
				t.Fatal(err)
			}
		})
	}
}
