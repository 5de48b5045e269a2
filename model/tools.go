package model

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// KeyArgument is the argument of a tool call's input that best says what
// the call did: the path, the command, the pattern or the URL; "" when
// there is none.
func KeyArgument(input []byte) string {
	for _, k := range []string{"path", "file_path", "command", "cmd", "pattern", "url", "query", "description"} {
		v := jscan.Member(input, k)
		if v == nil {
			continue
		}
		if s, ok := jscan.Unquote(v); ok && jscan.IsString(v) && s != "" {
			return s
		}
		if len(v) > 0 && v[0] == '[' {
			var parts []string
			_ = jscan.Elements(v, func(e []byte) bool { parts = append(parts, jsString(e)); return true })
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// jsString is String(value) for a raw JSON value.
func jsString(raw []byte) string {
	if jscan.IsString(raw) {
		s, _ := jscan.Unquote(raw)
		return s
	}
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return jsjson.FormatNumber(f)
		}
	}
	if len(raw) > 0 && raw[0] == '{' {
		return "[object Object]"
	}
	return string(raw)
}

// ShortIDs are ids cut as ShortID cuts them, each made longer where that
// is too short to tell it from another of the set: the shortest prefix no
// other id shares. UUIDv7s made in the same minute share their first 8
// characters (the time), and a REF takes any unique prefix.
func ShortIDs(ids []string) []string {
	uniq := slices.Clone(ids)
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	need := make(map[string]int, len(uniq))
	for k := 1; k < len(uniq); k++ {
		a, b := uniq[k-1], uniq[k]
		c := 0
		for c < len(a) && c < len(b) && a[c] == b[c] {
			c++
		}
		need[a] = max(need[a], c+1)
		need[b] = max(need[b], c+1)
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = ShortID(id)
		if n := need[id]; n > len(out[i]) {
			for n < len(id) && !utf8.RuneStart(id[n]) {
				n++ // whole characters
			}
			out[i] = strings.Clone(id[:min(n, len(id))])
		}
	}
	return out
}

// ShortID shortens a uuid for display: its first 8 characters.
func ShortID(id string) string {
	n := 0
	for i := range id {
		if n == 8 {
			return strings.Clone(id[:i])
		}
		n++
	}
	return strings.Clone(id) // a short id should not keep its line alive
}
