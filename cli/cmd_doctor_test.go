package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// pi 0.73.1's createBranchedSession drops the label entries on the path,
// which orphans the entry after one: doctor must say so.
func TestDoctorFindsPisForkOrphan(t *testing.T) {
	out, _, code := skein(t, "doctor", "../testdata/pi/store")
	if code != 1 || !strings.Contains(out, "2026-03-07T11-01-28-240Z_019cc7f5-9c30-7758-ba6d-88e94b65cd0b.jsonl:4: unknown parent") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "9 sessions checked, 1 problem") {
		t.Errorf("summary:\n%s", out)
	}
}

// TestDoctorChecksPartsWithTheirSession: the real Claude Code store of
// testdata/real holds 4 sessions and 3 sub-agent files beside them;
// doctor on the folder checks 4 sessions (the sub-agents' logs with their
// sessions, as the list shows them; it said 7 before) and finds nothing
// wrong (a sub-agent's copies of its parent's entries are no repeats).
func TestDoctorChecksPartsWithTheirSession(t *testing.T) {
	out, _, code := skein(t, "doctor", filepath.Join("..", "testdata", "real", "claude"))
	if code != 0 || !strings.Contains(out, "4 sessions checked, 0 problems") || strings.Contains(out, "warning") || strings.Contains(out, "repeats") {
		t.Errorf("doctor: exit %d\n%s", code, out)
	}
}
