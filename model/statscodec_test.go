package model

import (
	"math"
	"reflect"
	"testing"
	"time"
)

// fill sets every field v holds, however deep, to a value of its own
// (slices and maps of two elements), so that a field the codec forgets
// comes back different.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)) + "\x00é")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) * 1_000_003)
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			v.SetMapIndex(k, e)
		}
	default:
		panic("fill: a field of kind " + v.Kind().String())
	}
}

// A session's stats come back from their bytes as they were, every field
// (but the context along the branch, which stats do not keep), floats to
// the bit, nil apart from empty; bytes of another time zone, or damaged,
// are none.
func TestSessionStatsCodec(t *testing.T) {
	var full SessionStats
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n)
	full.Stats.Context = nil
	full.Stats.First = math.NaN()
	full.Stats.Last = math.Inf(-1)
	full.Stats.Virtual["off"] = false
	cases := []*SessionStats{&full, {Path: "empty"}, {Stats: Stats{Models: []string{}, Tools: []ToolCount{}, Virtual: map[string]bool{}}}}
	for _, ss := range cases {
		b := ss.AppendBinary(nil)
		got, err := DecodeSessionStats(b)
		if err != nil {
			t.Fatalf("%+v: %v", ss, err)
		}
		if !reflect.DeepEqual(got, ss) && !sameBits(got, ss) {
			t.Errorf("round trip\n got %+v\nwant %+v", got, ss)
		}
		for cut := range len(b) {
			if _, err := DecodeSessionStats(b[:cut]); err == nil {
				t.Errorf("bytes cut at %d of %d decode", cut, len(b))
			}
		}
	}
	b := full.AppendBinary(nil)
	local := time.Local
	defer func() { time.Local = local }()
	for _, zone := range []string{"America/New_York", "Asia/Kolkata"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Skip(err)
		}
		time.Local = loc
		if _, err := DecodeSessionStats(b); err == nil {
			t.Errorf("bytes made in %s decode in %s", local, zone)
		}
	}
}

// sameBits compares with NaNs equal to themselves (DeepEqual's NaN is
// never equal).
func sameBits(a, b *SessionStats) bool {
	if math.IsNaN(a.Stats.First) != math.IsNaN(b.Stats.First) {
		return false
	}
	a2, b2 := *a, *b
	a2.Stats.First, b2.Stats.First = 0, 0
	return reflect.DeepEqual(&a2, &b2)
}
