package dhara

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// streamEntries writes, over many parts built at once on every core, the
// bytes of the lines in order: what the lines' own bytes joined are.
func TestStreamEntriesInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 4096, 4097, 50000} {
		b := &builder{}
		var want bytes.Buffer
		for k := range n {
			l := line{id: fmt.Sprintf("e%d", k), typ: TypeCustom, ts: "2026-01-01T00:00:00.000Z",
				fields: []Field{{"customType", []byte(`"x"`)}, {"data", []byte(fmt.Sprintf(`{"k":%d,"pad":%q}`, k, bytes.Repeat([]byte("p"), k%300)))}}}
			b.lines = append(b.lines, l)
			want.Write(l.build())
			want.WriteByte('\n')
		}
		path := filepath.Join(t.TempDir(), EntriesFile)
		if err := b.streamEntries(path); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%d lines: %d bytes written, want %d", n, len(got), want.Len())
		}
		if err := b.streamEntries(path); err == nil {
			t.Fatalf("%d lines: a second write replaced the file", n)
		}
	}
}
