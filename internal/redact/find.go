package redact

import "math"

type text interface{ ~string | ~[]byte }

// Character classes, one table lookup a byte.
const (
	cWord  = 1 << iota // [A-Za-z0-9_-]: what a key's or a token's word is made of
	cB64               // [A-Za-z0-9+/]
	cValue             // what an assigned value may hold: no space, quote, backslash or bracket
	cUpper
	cLower
	cDigit
	cLook // where Find looks: a word, an escape, ":", "=", ","
)

var class [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		b := byte(c)
		var k uint8
		switch {
		case b >= 'A' && b <= 'Z':
			k = cWord | cB64 | cValue | cUpper
		case b >= 'a' && b <= 'z':
			k = cWord | cB64 | cValue | cLower
		case b >= '0' && b <= '9':
			k = cWord | cB64 | cValue | cDigit
		case b == '_' || b == '-':
			k = cWord | cValue
		case b == '+' || b == '/':
			k = cB64 | cValue
		case b > ' ' && b < 0x7f && !isStop(b):
			k = cValue
		}
		if k&cWord != 0 || b == '\\' || b == ':' || b == '=' || b == ',' {
			k |= cLook
		}
		class[c] = k
	}
}

// isStop is what ends an assigned value: quotes, the escape, brackets and
// the separators of lists, queries and URLs.
func isStop(b byte) bool {
	switch b {
	case '"', '\'', '`', '\\', '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', '&', ':':
		return true
	}
	return false
}

// minPrefixed is the shortest token a known prefix starts (a Slack token:
// "xoxb-" and ten characters); shorter words are not looked at.
const minPrefixed = 15

// Find is where text holds secrets, in order, none overlapping.
func Find[T text](s T) []Match {
	var out []Match
	n := len(s)
	awsNear := -1 // an AWS access key id ends before this: a secret key may follow
	for i := 0; i < n; {
		c := s[i]
		if i < awsNear && class[c]&cB64 != 0 && (i == 0 || class[s[i-1]]&(cB64|cWord) == 0) {
			if end, ok := awsSecret(s, i); ok {
				out = append(out, Match{i, end, KindAWSSecret})
				i = end
				continue
			}
		}
		switch {
		case c == '\\':
			// An escape (JSON's, or a backslash in a path) is never part of
			// a match and never glued to the word after it.
			i += 2
		case c == '-' && hasAt(s, i, "-----BEGIN"):
			if end, ok := privateKey(s, i); ok {
				out = append(out, Match{i, end, KindPrivateKey})
				i = end
				continue
			}
			i += 5
		case class[c]&cWord != 0:
			j := wordEnd(s, i)
			if m, ok := inWord(s, i, j); ok {
				out = append(out, m)
				if m.Kind == KindAWSAccessKey {
					awsNear = m.End + 300
				}
				i = m.End
				continue
			}
			i = j
		case c == ':' || c == '=':
			if c == ':' && (hasAt(s, i, "://") || hasAt(s, i, `:\/\/`)) {
				if m, ok := urlPassword(s, i); ok {
					out = append(out, m)
					i = m.End
					continue
				}
			}
			if m, ok := assignment(s, i); ok {
				out = append(out, m)
				i = m.End
				continue
			}
			i++
		case c == ',' && i >= 7 && hasAt(s, i-7, ";base64"):
			// A data URL's bytes: no secret is written there.
			i++
			for i < n && (class[s[i]]&cB64 != 0 || s[i] == '=') {
				i++
			}
		default:
			// Spaces and punctuation: skipped in a run.
			i++
			for i < n && class[s[i]]&cLook == 0 {
				i++
			}
		}
	}
	return out
}

func wordEnd[T text](s T, i int) int {
	for i < len(s) && class[s[i]]&cWord != 0 {
		i++
	}
	return i
}

func hasAt[T text](s T, i int, lit string) bool {
	if i < 0 || len(s)-i < len(lit) {
		return false
	}
	for k := 0; k < len(lit); k++ {
		if s[i+k] != lit[k] {
			return false
		}
	}
	return true
}

// all reports whether every byte of s[i:j] is of one of the classes.
func all[T text](s T, i, j int, classes uint8) bool {
	for ; i < j; i++ {
		if class[s[i]]&classes == 0 {
			return false
		}
	}
	return true
}

// mix is the classes s[i:j] holds.
func mix[T text](s T, i, j int) uint8 {
	var m uint8
	for ; i < j; i++ {
		m |= class[s[i]]
	}
	return m
}

// inWord is the token a provider's prefix starts in the word s[i:j]: at
// its start, or after a - or _ (a folder named proj-sk-ant-...).
func inWord[T text](s T, i, j int) (Match, bool) {
	if j-i < minPrefixed {
		return Match{}, false
	}
	if m, ok := prefixed(s, i, j); ok {
		return m, true
	}
	for k := i + 1; k <= j-minPrefixed; k++ {
		if s[k-1] == '-' || s[k-1] == '_' {
			if m, ok := prefixed(s, k, j); ok {
				return m, true
			}
		}
	}
	return Match{}, false
}

// prefixed is the token the word s[i:j] is, when a provider's prefix
// starts it (gitleaks' rules of the same names give the lengths).
func prefixed[T text](s T, i, j int) (Match, bool) {
	n := j - i
	at := func(lit string) bool { return hasAt(s, i, lit) }
	alnum := func(from int) bool { return all(s, i+from, j, cUpper|cLower|cDigit) }
	switch s[i] {
	case 's':
		switch {
		case at("sk-ant-") && n >= 40:
			return Match{i, j, KindAnthropic}, true
		case (at("sk-proj-") || at("sk-svcacct-") || at("sk-admin-")) && n >= 40:
			return Match{i, j, KindOpenAI}, true
		case at("sk-") && n >= 35 && alnum(3) && mix(s, i+3, j)&cDigit != 0:
			return Match{i, j, KindOpenAI}, true
		case (at("sk_live_") || at("sk_test_") || at("sk_prod_")) && n >= 24 && alnum(8):
			return Match{i, j, KindStripe}, true
		}
	case 'r':
		if (at("rk_live_") || at("rk_test_") || at("rk_prod_")) && n >= 24 && alnum(8) {
			return Match{i, j, KindStripe}, true
		}
	case 'A':
		switch {
		case at("AIza") && n == 39:
			return Match{i, j, KindGoogle}, true
		case n == 20 && (at("AKIA") || at("ASIA") || at("ABIA") || at("ACCA") || at("A3T")) && all(s, i+4, j, cUpper|cDigit):
			return Match{i, j, KindAWSAccessKey}, true
		}
	case 'g':
		switch {
		case (at("ghp_") || at("gho_") || at("ghu_") || at("ghs_") || at("ghr_")) && n >= 40 && alnum(4):
			return Match{i, j, KindGitHub}, true
		case at("github_pat_") && n >= 50:
			return Match{i, j, KindGitHub}, true
		case at("glpat-") && n >= 26:
			return Match{i, j, KindGitLab}, true
		}
	case 'x':
		if (at("xoxb-") || at("xoxa-") || at("xoxp-") || at("xoxr-") || at("xoxs-") || at("xapp-")) && mix(s, i+5, j)&cDigit != 0 {
			return Match{i, j, KindSlack}, true
		}
	case 'n':
		if at("npm_") && n >= 40 && alnum(4) {
			return Match{i, j, KindNPM}, true
		}
	case 'h':
		if at("hf_") && n >= 37 && all(s, i+3, j, cUpper|cLower) {
			return Match{i, j, KindHuggingFace}, true
		}
	case 'e':
		if end, ok := jwt(s, i, j); ok {
			return Match{i, end, KindJWT}, true
		}
	}
	return Match{}, false
}

// jwt is the end of the JSON Web Token whose header is the word s[i:j]:
// three base64url parts joined by dots, the first two JSON objects (eyJ).
func jwt[T text](s T, i, j int) (int, bool) {
	if !hasAt(s, i, "eyJ") || j-i < 15 || !hasAt(s, j, ".eyJ") {
		return 0, false
	}
	k := wordEnd(s, j+1)
	if k-(j+1) < 15 {
		return 0, false
	}
	if k < len(s) && s[k] == '.' {
		if e := wordEnd(s, k+1); e-(k+1) >= 10 {
			return e, true
		}
	}
	return k, true
}

// privateKey is the end of the private key block that starts at i
// ("-----BEGIN ... PRIVATE KEY-----"): after its END line, or, when that
// is missing (a cut output), after the base64 that follows.
func privateKey[T text](s T, i int) (int, bool) {
	k := index(s, i+10, i+80, "-----")
	if k < 0 || index(s, i+10, k, "PRIVATE KEY") < 0 {
		return 0, false
	}
	body := k + 5
	if e := index(s, body, body+64<<10, "-----END"); e >= 0 {
		if f := index(s, e+8, e+80, "-----"); f >= 0 {
			return f + 5, true
		}
	}
	end := body
	for end < len(s) {
		switch c := s[end]; {
		case class[c]&cB64 != 0 || c == '=' || c == ' ' || c == '\n' || c == '\r' || c == '\t':
			end++
		case c == '\\' && end+1 < len(s) && (s[end+1] == 'n' || s[end+1] == 'r'):
			end += 2
		default:
			return end, true
		}
	}
	return end, true
}

// index is where lit is in s[from:to] (to past the end is the end), -1
// when not.
func index[T text](s T, from, to int, lit string) int {
	to = min(to, len(s)) - len(lit)
	for k := from; k <= to; k++ {
		if s[k] == lit[0] && hasAt(s, k, lit) {
			return k
		}
	}
	return -1
}

// awsSecret is the end of an AWS secret access key at i: 40 characters of
// base64 with upper and lower case letters and digits, alone.
func awsSecret[T text](s T, i int) (int, bool) {
	j := i
	for j < len(s) && class[s[j]]&cB64 != 0 {
		j++
	}
	if j-i != 40 || (j < len(s) && (class[s[j]]&cWord != 0 || s[j] == '=')) {
		return 0, false
	}
	if m := mix(s, i, j); m&cUpper == 0 || m&cLower == 0 || m&cDigit == 0 {
		return 0, false
	}
	return j, true
}

// urlPassword is the password of scheme://user:PASSWORD@host, the colon
// of "://" at i.
func urlPassword[T text](s T, i int) (Match, bool) {
	u := i + 3
	if s[i+1] == '\\' {
		u = i + 5
	}
	colon, at := -1, -1
	for k := u; k < len(s) && k-u < 256; k++ {
		c := s[k]
		if c == '@' {
			at = k
			break
		}
		if c <= ' ' || c == '/' || c == '\\' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '?' || c == '#' {
			return Match{}, false
		}
		if c == ':' && colon < 0 {
			colon = k
		}
	}
	if colon < 0 || at < 0 || at-colon-1 < 3 || at+1 >= len(s) || class[s[at+1]]&cWord == 0 {
		return Match{}, false
	}
	if placeholder(s, colon+1, at) {
		return Match{}, false
	}
	return Match{colon + 1, at, KindURLPassword}, true
}

// placeholder reports whether a value is a stand-in for one: a variable
// (${X}, $X, %X%, {{x}}, <x>), stars, or [REDACTED:KIND].
func placeholder[T text](s T, i, j int) bool {
	switch s[i] {
	case '$', '{', '<', '%', '[': // [: a secret redacted already
		return true
	}
	for k := i; k < j; k++ {
		if s[k] != '*' && s[k] != 'x' && s[k] != 'X' {
			return false
		}
	}
	return true
}

// assignment is the value assigned at i (an "=" or ":") to a key whose
// name says it holds a secret (key, secret, token, password, passwd,
// pwd, auth, credential), when the value is one: long enough, of letters
// and digits both, of high entropy, and no variable or member path.
func assignment[T text](s T, i int) (Match, bool) {
	n := len(s)
	// The key, before: spaces, then a closing quote (\" in JSON text).
	e := i
	if s[i] == '=' && e > 0 && (s[e-1] == '!' || s[e-1] == '<' || s[e-1] == '>' || s[e-1] == '=' || s[e-1] == ':') {
		if s[e-1] != ':' {
			return Match{}, false // a comparison
		}
		e-- // Go's :=
	}
	for e > 0 && (s[e-1] == ' ' || s[e-1] == '\t') && i-e < 8 {
		e--
	}
	if e > 0 && (s[e-1] == '"' || s[e-1] == '\'') {
		e--
		if e > 0 && s[e-1] == '\\' {
			e--
		}
	}
	b := e
	for b > 0 && e-b < 64 && (class[s[b-1]]&cWord != 0 || s[b-1] == '.') {
		b--
	}
	kw := keyword(s, b, e)
	if kw == kwNone {
		return Match{}, false
	}
	// The value, after: "==" and "::" are no assignments.
	v := i + 1
	if v < n && (s[v] == '=' || s[v] == ':') {
		if s[i] == ':' && s[v] == '=' {
			v++
		} else {
			return Match{}, false
		}
	}
	for v < n && (s[v] == ' ' || s[v] == '\t') && v-i < 8 {
		v++
	}
	if v < n && s[v] == '\\' && v+1 < n && s[v+1] == '"' {
		v += 2
	} else if v < n && (s[v] == '"' || s[v] == '\'' || s[v] == '`') {
		v++
	}
	for _, scheme := range []string{"Bearer ", "bearer ", "Basic ", "basic ", "token ", "Token "} {
		if hasAt(s, v, scheme) {
			v += len(scheme)
			break
		}
	}
	if v >= n {
		return Match{}, false
	}
	if class[s[v]]&cWord != 0 {
		if m, ok := prefixed(s, v, wordEnd(s, v)); ok {
			return m, true
		}
	}
	end := v
	for end < n && class[s[end]]&cValue != 0 {
		end++
	}
	length := end - v
	minLen, minEntropy := 12, 3.0
	if kw == kwPassword {
		minLen, minEntropy = 8, 2.5
	}
	if length < minLen || length > 256 || placeholder(s, v, end) {
		return Match{}, false
	}
	if m := mix(s, v, end); m&cDigit == 0 || m&(cUpper|cLower) == 0 {
		return Match{}, false
	}
	if memberPath(s, v, end) || version(s, v, end) || entropy(s, v, end) < minEntropy {
		return Match{}, false
	}
	kind := KindGeneric
	if kw == kwAWS && length == 40 {
		kind = KindAWSSecret
	}
	return Match{v, end, kind}, true
}

type keywordKind uint8

const (
	kwNone keywordKind = iota
	kwSecret
	kwPassword
	kwAWS // a secret key named aws_... (its value is AWS's secret key)
)

// keyword is what the key s[b:e] names: a password, another secret, or
// nothing secret. One pass, lower-casing as it goes.
func keyword[T text](s T, b, e int) keywordKind {
	if e-b < 3 {
		return kwNone
	}
	kw, aws := kwNone, false
	for k := b; k+3 <= e; k++ {
		switch s[k] | 0x20 {
		case 'p':
			if hasFold(s, k, e, "password") || hasFold(s, k, e, "passwd") || hasFold(s, k, e, "pwd") {
				return kwPassword
			}
		case 'k':
			if hasFold(s, k, e, "key") {
				kw = kwSecret
			}
		case 's':
			if hasFold(s, k, e, "secret") {
				kw = kwSecret
			}
		case 't':
			if hasFold(s, k, e, "token") {
				kw = kwSecret
			}
		case 'a':
			if hasFold(s, k, e, "auth") {
				kw = kwSecret
			}
			aws = aws || hasFold(s, k, e, "aws")
		case 'c':
			if hasFold(s, k, e, "credential") {
				kw = kwSecret
			}
		}
	}
	if kw == kwSecret && aws {
		return kwAWS
	}
	return kw
}

// hasFold reports whether s[k:e] starts with the lower-case word w, in
// any case.
func hasFold[T text](s T, k, e int, w string) bool {
	if e-k < len(w) {
		return false
	}
	for x := 1; x < len(w); x++ {
		if s[k+x]|0x20 != w[x] {
			return false
		}
	}
	return true
}

// memberPath reports whether a value is code: a dotted path of names
// (config.auth.token2, process.env.API_KEY).
func memberPath[T text](s T, i, j int) bool {
	dots := 0
	start := true
	for k := i; k < j; k++ {
		c := s[k]
		switch {
		case c == '.':
			if start {
				return false
			}
			dots++
			start = true
		case class[c]&(cUpper|cLower) != 0 || c == '_' || c == '$':
			start = false
		case class[c]&cDigit != 0 && !start:
		default:
			return false
		}
	}
	return dots > 0 && !start
}

// version reports whether a value is a version: v1.2.3, 2.14.0-rc1.
func version[T text](s T, i, j int) bool {
	if i < j && (s[i] == 'v' || s[i] == 'V') {
		i++
	}
	parts := 0
	for i < j {
		k := i
		for k < j && class[s[k]]&cDigit != 0 {
			k++
		}
		if k == i {
			return false
		}
		parts++
		if k == j || s[k] == '-' || s[k] == '+' {
			return parts > 1
		}
		if s[k] != '.' {
			return false
		}
		i = k + 1
	}
	return false
}

// entropy is the Shannon entropy of s[i:j] in bits a byte.
func entropy[T text](s T, i, j int) float64 {
	var counts [256]uint16
	for k := i; k < j; k++ {
		counts[s[k]]++
	}
	n := float64(j - i)
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
