package dhara

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// fill fills the disk dir is on, then frees pages of the filler, and
// returns its path.
func fill(t *testing.T, dir string, pages int) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	formattest.FillDisk(t, path)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, max(0, st.Size()/4096*4096-int64(pages)*4096)); err != nil {
		t.Fatal(err)
	}
	return path
}

// On a real full disk, with room for none to a few pages, each write
// either is made or leaves the folder as it was; made again with room, it
// adds its entry once; doctor reports nothing.
func TestWritesOnAFullDisk(t *testing.T) {
	disk := formattest.Tmpfs(t, "256k")
	zeroStillFor(t)
	for _, c := range faultCases {
		for _, padded := range []bool{false, true} {
			if padded && c.fixture != "seed" {
				continue
			}
			fullDiskCase(t, disk, c, padded)
		}
	}
}

// fullDiskCase makes the write c on the disk with 0 to 5 pages free; with
// padded, entries.jsonl fills its last page, so that an append needs a
// new one.
func fullDiskCase(t *testing.T, disk string, c faultCase, padded bool) {
	files := fixtureFiles(t, c.fixture)
	before := asBefore(t, c, files)
	if padded {
		line := `{"id":"pad","type":"custom","customType":"pad","data":"","timestamp":"2026-05-14T10:00:03Z"}` + "\n"
		n := 4096 - len(files[EntriesFile]) - len(line)
		files[EntriesFile] += strings.Replace(line, `""`, `"`+strings.Repeat("x", n)+`"`, 1)
		files[TreeFile] = strings.Replace(files[TreeFile], `"msg_002"]`, `"msg_002", "pad"]`, 1)
		if len(files[EntriesFile]) != 4096 {
			t.Fatalf("padded to %d bytes", len(files[EntriesFile]))
		}
	}
	for pages := range 6 {
		what := c.name + " with " + strconv.Itoa(pages) + " pages free"
		if padded {
			what += " and a full page of entries"
		}
		dir := filepath.Join(disk, "s", "seed")
		writeFolder(t, dir, files)
		had := map[string]bool{}
		for _, d := range diagnostics(t, dir) {
			had[d] = true
		}
		n0, c0 := entryCount(t, dir)
		filler := fill(t, disk, pages)
		err := c.write(dir)
		if err != nil {
			if d := leftAsBefore(t, dir, before); d != "" {
				t.Fatalf("%s: failed (%v) and left: %s", what, err, d)
			}
		}
		os.Remove(filler)
		checkWritten(t, dir, what, c, n0, c0, err == nil, had)
		if err != nil {
			if err := c.write(dir); err != nil {
				t.Fatalf("%s, then with room: %v", what, err)
			}
			checkWritten(t, dir, what+", then with room", c, n0, c0, true, had)
		}
		t.Logf("%s: %v", what, err)
		os.RemoveAll(filepath.Join(disk, "s"))
	}
}
