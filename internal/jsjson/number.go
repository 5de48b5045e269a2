package jsjson

import (
	"math"
	"strconv"
)

// AppendNumber appends f as JSON.stringify writes a number: JavaScript's
// Number::toString (the shortest digits that read back as f; plain
// notation from 1e-6 up to 1e21, exponent notation beyond), 0 for -0, null
// for NaN and the infinities.
func AppendNumber(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // d[.ddd]e±XX
	var digitsBuf [24]byte
	digits := append(digitsBuf[:0], e[0])
	i := 1
	if e[1] == '.' {
		for i = 2; e[i] != 'e'; i++ {
			digits = append(digits, e[i])
		}
	}
	exp := 0
	for _, c := range e[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[i+1] == '-' {
		exp = -exp
	}
	n, k := exp+1, len(digits) // the decimal point is after n digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		} else {
			dst = append(dst, '-')
		}
		dst = strconv.AppendInt(dst, int64(abs(n-1)), 10)
	}
	return dst
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FormatNumber is AppendNumber as a string.
func FormatNumber(f float64) string {
	var buf [32]byte
	return string(AppendNumber(buf[:0], f))
}
