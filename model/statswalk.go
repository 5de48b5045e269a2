package model

import "skein/internal/jsdate"

// ByTime is the times of n entries whose timestamps timestamp gives (ms,
// NaN for none), and their order by time (TimeOrder): what a tally walks.
func ByTime(n int, timestamp func(i int) string) (times []float64, order []int) {
	times = make([]float64, n)
	for i := range times {
		times[i] = jsdate.Parse(timestamp(i))
	}
	return times, TimeOrder(times)
}

// Walk adds entries up in the order order (their times times): each
// begun at its time, said by fn (what it is, into its totals d), and
// ended, so that a format's Stats says only what its entries are.
func (t *StatsTally) Walk(times []float64, order []int, fn func(i int, d *Totals)) {
	for _, i := range order {
		d := t.Begin(times[i])
		fn(i, &d)
		t.End(times[i], d)
	}
}
