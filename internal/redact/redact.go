// Package redact finds secrets in text (provider API keys, private key
// blocks, JWTs, passwords in URLs, high-entropy values assigned to a key
// named like a secret) and replaces each with [REDACTED:KIND].
//
// The rules follow gitleaks' (config/gitleaks.toml, MIT), the reference
// in this field, for the kinds they cover; gitleaks itself is not used:
// its ~200 regular expressions scan about 0.65 MB/s here, so a 100 MB
// session would take minutes to export. Find is one pass over the bytes
// instead: it looks at runs of token characters, checks only those long
// enough to be a secret against the known prefixes (most text is short
// words), and stops at a few literal anchors ("-----BEGIN", "://", an "="
// or ":" after a key's name). docs/sharing.md says what it finds and what
// it leaves.
//
// Text may be plain or JSON (a string literal's inside, or a whole
// record): a backslash and the character after it are never part of a
// match, so a replacement, which holds no quote and no backslash, never
// breaks the JSON it stands in.
package redact

import (
	"strings"
	"sync/atomic"
)

// Kind is the kind of a secret.
type Kind uint8

const (
	KindAnthropic Kind = iota
	KindOpenAI
	KindGoogle
	KindAWSAccessKey
	KindAWSSecret
	KindGitHub
	KindGitLab
	KindSlack
	KindStripe
	KindNPM
	KindHuggingFace
	KindPrivateKey
	KindJWT
	KindURLPassword
	KindGeneric
	numKinds
)

var kindNames = [numKinds]string{
	"anthropic-key", "openai-key", "google-api-key", "aws-access-key", "aws-secret-key",
	"github-token", "gitlab-token", "slack-token", "stripe-key", "npm-token",
	"huggingface-token", "private-key", "jwt", "url-password", "generic-secret",
}

// String is the kind's name, as [REDACTED:KIND] and skein scan say it.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "secret"
}

// Kinds is every kind, in the order counts are reported.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for k := range out {
		out[k] = Kind(k)
	}
	return out
}

// Match is a secret at text[Start:End].
type Match struct {
	Start, End int
	Kind       Kind
}

// Placeholder is what stands for a secret of kind k.
func Placeholder(k Kind) string { return "[REDACTED:" + k.String() + "]" }

// Redactor replaces secrets and counts them by kind. It is safe for
// concurrent use: an export renders messages on every core.
type Redactor struct {
	counts [numKinds]atomic.Int64
}

// New is a redactor with nothing counted.
func New() *Redactor { return &Redactor{} }

// String is s with each secret replaced; s itself when it holds none.
func (r *Redactor) String(s string) string {
	ms := Find(s)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, m := range ms {
		b.WriteString(s[at:m.Start])
		b.WriteString(Placeholder(m.Kind))
		at = m.End
		r.counts[m.Kind].Add(1)
	}
	b.WriteString(s[at:])
	return b.String()
}

// Bytes is b with each secret replaced, in a new slice; b itself when it
// holds none. b may be JSON: the result is JSON still.
func (r *Redactor) Bytes(b []byte) []byte {
	ms := Find(b)
	if len(ms) == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	at := 0
	for _, m := range ms {
		out = append(out, b[at:m.Start]...)
		out = append(out, Placeholder(m.Kind)...)
		at = m.End
		r.counts[m.Kind].Add(1)
	}
	return append(out, b[at:]...)
}

// Count is how many secrets of kind k were replaced.
func (r *Redactor) Count(k Kind) int { return int(r.counts[k].Load()) }

// Total is how many secrets were replaced.
func (r *Redactor) Total() int {
	n := 0
	for k := range r.counts {
		n += int(r.counts[k].Load())
	}
	return n
}

// Summary says what was replaced, the kinds in their order: "3 redacted:
// 2 openai-key, 1 jwt", or "none found".
func (r *Redactor) Summary() string {
	return Summary(func(k Kind) int { return r.Count(k) })
}

// Summary says the counts count gives, as Redactor.Summary does.
func Summary(count func(Kind) int) string {
	total, list := Tally(count)
	if total == 0 {
		return "none found"
	}
	return itoa(total) + " redacted: " + list
}

// Tally is the total of the counts count gives, and the counts by kind
// in their order: "2 openai-key, 1 jwt".
func Tally(count func(Kind) int) (int, string) {
	var parts []string
	total := 0
	for _, k := range Kinds() {
		if n := count(k); n > 0 {
			total += n
			parts = append(parts, itoa(n)+" "+k.String())
		}
	}
	return total, strings.Join(parts, ", ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
