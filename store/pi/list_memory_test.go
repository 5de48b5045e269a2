package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/store"
)

// TestListRecordsOwnTheirMemory lists small files, read one after another
// into a worker's reused buffer, and large ones, mapped and unmapped after
// their scan, then compares every record with one scanned from a copy of
// its own: a record pointing into the buffer shows a later file's bytes,
// one pointing into a mapping faults.
func TestListRecordsOwnTheirMemory(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	var files []string
	for k := range 24 {
		size := int64(2<<10 + k*3<<10)
		if k%12 == 5 {
			size = mmapMin + 1<<20
		}
		f := filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", k))
		if err := synth.Session(f, fmt.Sprintf("/home/dev/project-%d", k*k), size, start.Add(time.Duration(k)*time.Hour), uint64(100+k)); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf(`{"type":"session_info","id":"ffff%04x","parentId":null,"timestamp":"2026-04-02T00:00:00.000Z","name":"session number %d of the test"}`+"\n", k, k*k*k)
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString(name)
		fh.Close()
		files = append(files, f)
	}
	infos, problems := store.List(files, nil)
	if len(problems) > 0 || len(infos) != len(files) {
		t.Fatalf("%d records, problems %v", len(infos), problems)
	}
	runtime.GC()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("reading a listed record: %v", r)
		}
	}()
	for _, got := range infos {
		data, err := os.ReadFile(got.Path)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(got.Path)
		want, err := ScanInfo(data, float64(st.ModTime().UnixMilli()))
		if err != nil {
			t.Fatal(err)
		}
		want.Path = got.Path
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: listed as\n%+v\nscanned alone\n%+v", got.Path, got, want)
		}
	}
}
