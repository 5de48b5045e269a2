package cli

import (
	"strings"
	"testing"
)

func TestShowIsSanitized(t *testing.T) {
	out, _, code := skein(t, "session", "show", fixture(t, "../testdata/pi/store/--home-dév-多语言 project--", "2026"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.ContainsAny(out, "\x1b\x07\u009b") {
		t.Errorf("raw control characters reach the output:\n%q", out)
	}
	for _, want := range []string{"␛]0;pwned title␇", "⟨U+009B⟩", "こんにちは", "👩‍👩‍👧‍👦"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
}
