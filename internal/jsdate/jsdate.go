// Package jsdate reads and writes dates as JavaScript does: Date.parse of
// the ECMAScript date-time string format (what pi writes), and
// toISOString.
package jsdate

import (
	"math"
	"strconv"
	"time"
)

// Parse is JavaScript's new Date(s).getTime() for the ECMAScript date-time
// string format (what pi writes), as V8 reads it; NaN for anything else,
// also for the other formats V8's fallback parser guesses at ("2026-05-01
// 08:00:49Z", "May 1, 2026"), which pi never writes. A date-time without
// an offset is local time, a date alone is UTC, as in JavaScript.
func Parse(s string) float64 {
	p := dateParser{s: s}
	year, ok := p.year()
	if !ok {
		return math.NaN()
	}
	month, day := 1, 1
	if p.eat('-') {
		if month, ok = p.digits(2); !ok || month < 1 || month > 12 {
			return math.NaN()
		}
		if p.eat('-') {
			// V8 takes any day up to 31 and lets it run into the next
			// month (2026-02-30 is March 2nd).
			if day, ok = p.digits(2); !ok || day < 1 || day > 31 {
				return math.NaN()
			}
		}
	}
	if p.done() {
		return inRange(float64(time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC).UnixMilli()))
	}
	if !p.eat('T') && !p.eat('t') {
		return math.NaN()
	}
	hour, ok1 := p.digits(2)
	colon := p.eat(':')
	min, ok2 := p.digits(2)
	if !ok1 || !colon || !ok2 || min > 59 || hour > 24 {
		return math.NaN()
	}
	sec, ms := 0, 0
	if p.eat(':') {
		if sec, ok = p.digits(2); !ok || sec > 59 {
			return math.NaN()
		}
		if p.eat('.') || p.eat(',') {
			start := p.i
			for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
				p.i++
			}
			frac := p.s[start:p.i]
			if frac == "" {
				return math.NaN()
			}
			frac = (frac + "00")[:3]
			ms, _ = strconv.Atoi(frac)
		}
	}
	if hour == 24 && (min != 0 || sec != 0 || ms != 0) {
		return math.NaN()
	}
	loc := time.Local
	switch {
	case p.done():
	case p.eat('Z') || p.eat('z'):
		loc = time.UTC
	case p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-'):
		sign := 1
		if p.s[p.i] == '-' {
			sign = -1
		}
		p.i++
		oh, ok1 := p.digits(2)
		p.eat(':')
		om, ok2 := p.digits(2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return math.NaN()
		}
		loc = time.FixedZone("", sign*(oh*3600+om*60))
	default:
		return math.NaN()
	}
	if !p.done() {
		return math.NaN()
	}
	t := time.Date(year, time.Month(month), day, hour, min, sec, ms*1e6, loc)
	return inRange(float64(t.UnixMilli()))
}

// inRange is ms, or NaN beyond the ±8.64e15 ms a JavaScript Date holds.
func inRange(ms float64) float64 {
	if math.Abs(ms) > 8.64e15 {
		return math.NaN()
	}
	return ms
}

type dateParser struct {
	s string
	i int
}

func (p *dateParser) done() bool { return p.i == len(p.s) }

func (p *dateParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *dateParser) digits(n int) (int, bool) {
	if p.i+n > len(p.s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(p.s[p.i : p.i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}

func (p *dateParser) year() (int, bool) {
	if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		neg := p.s[p.i] == '-'
		p.i++
		y, ok := p.digits(6)
		if !ok || (neg && y == 0) {
			return 0, false
		}
		if neg {
			y = -y
		}
		return y, true
	}
	return p.digits(4)
}

// ISO formats milliseconds as JavaScript's toISOString does.
func ISO(ms float64) (string, bool) {
	if math.IsNaN(ms) || math.IsInf(ms, 0) || math.Abs(ms) > 8.64e15 {
		return "", false
	}
	t := time.UnixMilli(int64(ms)).UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		sign := "+"
		if y < 0 {
			sign, y = "-", -y
		}
		return sign + pad(y, 6) + t.Format("-01-02T15:04:05.000Z"), true
	}
	return t.Format("2006-01-02T15:04:05.000Z"), true
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
