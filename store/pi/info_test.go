package pi

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestNumberMatchesParseFloat covers the integer fast path and its edges.
func TestNumberMatchesParseFloat(t *testing.T) {
	for _, raw := range []string{"0", "7", "1767225603198", "999999999999999", "9999999999999999", "12345678901234567890",
		"-5", "1.5", "1e3", "1767225603198.5", "-0", "0.1", "x", ""} {
		got, ok := number([]byte(raw))
		want, err := strconv.ParseFloat(raw, 64)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("number(%q) = %v, %v; ParseFloat says %v, %v", raw, got, ok, want, err)
		}
	}
}

// pi 1.6.0 lists with readline (a lone CR ends a line, CRLF is one break) and
// checks only the header's type; an id that is not a string is listed as it is.
func TestScanInfoAsPi16Lists(t *testing.T) {
	const head = `{"type":"session","version":3,"id":"a1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}`
	m1 := `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1767225601000}}`
	m2 := `{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"second","timestamp":1767225602000}}`
	for _, c := range []struct {
		name, data, id string
		count          int
	}{
		{"lone CR ends a line", head + "\n" + m1 + "\r" + m2 + "\n", `"a1"`, 2},
		{"CRLF", head + "\r\n" + m1 + "\r\n" + m2 + "\r\n", `"a1"`, 2},
		{"CR as white space inside a line splits it", head + "\n" + `{"type":"message",` + "\r" + `"id":"m1"}` + "\n", `"a1"`, 0},
		{"a numeric id", `{"type":"session","id":5,"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/y"}` + "\n" + m1 + "\n", `5`, 1},
		{"no id", `{"type":"session","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/z"}` + "\n" + m1 + "\n", `null`, 1},
	} {
		info, err := ScanInfo([]byte(c.data), 0)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		out := string(info.AppendJSON(nil))
		if !strings.Contains(out, `"id":`+c.id+`,`) || info.MessageCount != c.count {
			t.Errorf("%s: %s, %d messages, want id %s and %d", c.name, out, info.MessageCount, c.id, c.count)
		}
	}
	if _, err := ReadHeader(writeTemp(t, `{"type":"session","id":5}`+"\n")); err == nil {
		t.Error("a header without a string id opened: pi 1.6.0 does not open it")
	}
}

func writeTemp(t *testing.T, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A scan stopped at any line and taken up again, its state through JSON
// (through gob, as the index keeps it), gives the record the whole scan gives.
func TestScanResumesAtEveryLine(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pi", "*", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pi", "store", "*", "*.jsonl"))
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := ScanInfo(data, 1234)
		for cut := 0; cut <= len(data); cut++ {
			if cut > 0 && cut < len(data) && data[cut-1] != '\n' {
				continue
			}
			var st ScanState
			err := st.Feed(data[:cut])
			if err == nil {
				var buf bytes.Buffer
				if jerr := gob.NewEncoder(&buf).Encode(st); jerr != nil {
					t.Fatal(jerr)
				}
				var back ScanState
				if jerr := gob.NewDecoder(&buf).Decode(&back); jerr != nil {
					t.Fatal(jerr)
				}
				err = back.Feed(data[cut:])
				st = back
			}
			got, gotErr := st.Result(1234)
			if (err != nil) != (wantErr != nil) && gotErr == nil {
				t.Fatalf("%s cut at %d: error %v, want %v", f, cut, err, wantErr)
			}
			if wantErr == nil && !sameInfo(got, want) {
				t.Fatalf("%s cut at %d:\n got %+v\nwant %+v", f, cut, got, want)
			}
		}
	}
}

// sameInfo is reflect.DeepEqual with NaN equal to NaN.
func sameInfo(a, b Info) bool {
	nan := func(x, y float64) bool { return x == y || x != x && y != y }
	if !nan(a.Created, b.Created) || !nan(a.Modified, b.Modified) {
		return false
	}
	a.Created, a.Modified, b.Created, b.Modified = 0, 0, 0, 0
	if len(a.IDJSON) == 0 && len(b.IDJSON) == 0 {
		a.IDJSON, b.IDJSON = nil, nil
	}
	return reflect.DeepEqual(a, b)
}
