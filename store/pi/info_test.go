package pi

import (
	"strconv"
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
