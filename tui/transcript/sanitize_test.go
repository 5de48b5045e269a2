package transcript

import (
	"testing"
	"time"
)

func TestRelTimeAndCount(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	ms := func(t time.Time) float64 { return float64(t.UnixMilli()) }
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{now.Add(-30 * time.Second), "now"},
		{now.Add(-5 * time.Minute), "5m ago"},
		{now.Add(-3 * time.Hour), "3h ago"},
		{now.Add(-50 * time.Hour), "2d ago"},
		{now.Add(-90 * 24 * time.Hour), now.Add(-90 * 24 * time.Hour).Local().Format("2006-01-02")},
		{now.Add(time.Hour), now.Add(time.Hour).Local().Format("2006-01-02")}, // still to come: its date, not "now"
	} {
		if got := RelTime(now, ms(c.at)); got != c.want {
			t.Errorf("RelTime(%v) = %q, want %q", c.at, got, c.want)
		}
	}
	if Count(1, "branch", "branches") != "1 branch" || Count(0, "branch", "branches") != "0 branches" || Count(2, "fork", "forks") != "2 forks" {
		t.Error("Count")
	}
}

// A preview line says the words, not the markup around them.
func TestPlainLeavesOutMarkup(t *testing.T) {
	for in, want := range map[string]string{
		"<command-message>init is analyzing</command-message>\n<command-name>/init</command-name>": "init is analyzing /init",
		"## Rate limiting\n\nA **token bucket** per client, see `rate.go`.":                        "Rate limiting A token bucket per client, see rate.go.",
		"a < b and c > d": "a < b and c > d",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}
