package transcript

import (
	"fmt"
	"math"
	"time"
)

// Tokens is a number of tokens in a few characters: 950, 1.2k, 12k,
// 4.5M, as the stats show them; "?" for one not known. Every screen says a
// count of tokens this one way, so that one number reads the same
// wherever it stands (the header's "53k in" and the stats').
func Tokens(n float64) string {
	switch a := math.Abs(n); {
	case math.IsNaN(n):
		return "?"
	case a >= 1e9:
		return fmt.Sprintf("%.1fG", n/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.1fM", n/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.0fk", n/1e3)
	case a >= 1e3:
		return fmt.Sprintf("%.1fk", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}

// Cost is dollars to the cent; a cost below a cent is not shown as none.
func Cost(c float64) string {
	if c != 0 && math.Abs(c) < 0.005 {
		return "<$0.01"
	}
	return fmt.Sprintf("$%.2f", c)
}

// Active is a duration to the minute: 0m, 42m, 3h05m.
func Active(d time.Duration) string {
	m := int(d.Round(time.Minute).Minutes())
	if m < 60 {
		return fmt.Sprintf("%dm", m)
	}
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}
