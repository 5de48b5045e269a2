package model

import (
	"math"
	"testing"
)

// A TimeSpan's first and latest time become Created and Modified; with no
// time that reads, the file's time is Modified and Created is NaN.
func TestTimeSpan(t *testing.T) {
	var s TimeSpan
	var info SessionInfo
	s.Set(&info, 7)
	if !math.IsNaN(info.Created) || info.Modified != 7 {
		t.Errorf("none: %v %v", info.Created, info.Modified)
	}
	s.Add(math.NaN())
	s.Set(&info, 7)
	if !math.IsNaN(info.Created) || info.Modified != 7 {
		t.Errorf("only NaN: %v %v", info.Created, info.Modified)
	}
	for _, ms := range []float64{30, 10, math.NaN(), 20} {
		s.Add(ms)
	}
	s.Set(&info, 7)
	if info.Created != 10 || info.Modified != 30 {
		t.Errorf("10..30: %v %v", info.Created, info.Modified)
	}
	var inf TimeSpan
	inf.Add(math.Inf(1))
	inf.Set(&info, 7)
	if !math.IsNaN(info.Created) || info.Modified != 7 {
		t.Errorf("+Inf: %v %v", info.Created, info.Modified)
	}
}
