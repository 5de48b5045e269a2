package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// Secrets are made-up secrets of every kind, shaped as the providers
// shape theirs (gitleaks' rules), for the tests here and of the exports.
var Secrets = map[Kind][]string{
	KindAnthropic:    {"sk-ant-api03-Qz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5iNq0tBz-Vy_KpMr2AA"},
	KindOpenAI:       {"sk-proj-4fG7hJ2kL9mN3pQ6rS8tV1wX5yZ0aB2cD4eF6gH8iJ0kLmNoPq", "sk-7Hq2Lm9Xv4Rt8Zp3Nc6Wb1Yd5Kf0Gs2Jh4Tu6Ma8Ve0Px2Qz"},
	KindGoogle:       {"AIzaSyD4x8K2mQ7vR1tW9pL3nZ6cJ0bH5gF_eYs"},
	KindAWSAccessKey: {"AKIAQ3X7T2MPVR9KLW4N"},
	KindAWSSecret:    {"wJalrXUtnFEMI/K7MDENG/bPxRfiCY2Q8vT5kL3m"},
	KindGitHub:       {"ghp_4fG7hJ2kL9mN3pQ6rS8tV1wX5yZ0aB2cD4eF", "github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLMNOPqrstuv"},
	KindGitLab:       {"glpat-x7Tq2Lm9Xv4Rt8Zp3Nc6"},
	KindSlack:        {"xoxb-2345678901-8765432109876-Qz7xT2mPvR9kLw4nJc8bYs1d"},
	KindStripe:       {"sk_live_4eC39HqLyjWDarjtT1zdp7dc9Xv4", "rk_live_51H8xT2mPvR9kLw4nJc8bYs1dHf"},
	KindNPM:          {"npm_Qz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5i"},
	KindHuggingFace:  {"hf_QzxTmPvRkLwnJcbYsdHfgUeaXoiNqtBzVyKp"},
	KindPrivateKey: {"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7x2Qz9Lm4Vt8Rp3Nc6Wb1Yd5Kf0Gs2Jh4Tu6Ma8Ve0Px2\nQz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5iNq0tBzVyKpMr2AAQ==\n-----END RSA PRIVATE KEY-----",
		"-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\\nQyNTUxOQAAACDx2Qz9Lm4Vt8Rp3Nc6Wb1Yd5Kf0Gs2Jh4Tu6Ma8Ve0Px2\\n-----END OPENSSH PRIVATE KEY-----"},
	KindJWT:         {"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
	KindURLPassword: {"s3cr3tPa55w0rd"},
	KindGeneric:     {"Zq8v2Lm4Xt7Rp1Nc6Wb9Yd"},
}

// Plant is text that holds secret, of kind k, the way people write it.
func Plant(k Kind, secret string) string {
	switch k {
	case KindURLPassword:
		return "connect with postgres://admin:" + secret + "@db.internal:5432/app and go"
	case KindGeneric:
		return "export DB_SECRET=" + secret + "\n"
	case KindAWSSecret:
		return "aws_access_key_id = AKIAQ3X7T2MPVR9KLW4N\naws_secret_access_key = " + secret + "\n"
	}
	return "the value is " + secret + " here"
}

func TestFindsEveryKind(t *testing.T) {
	for k, list := range Secrets {
		for _, secret := range list {
			text := Plant(k, secret)
			ms := Find(text)
			found := false
			for _, m := range ms {
				if text[m.Start:m.End] == secret {
					found = true
					if m.Kind != k {
						t.Errorf("%s: kind %s, want %s", secret, m.Kind, k)
					}
				}
			}
			if !found {
				t.Errorf("%s (%s) not found in %q: %v", secret, k, text, ms)
			}
			r := New()
			if out := r.String(text); strings.Contains(out, secret) || !strings.Contains(out, Placeholder(k)) {
				t.Errorf("%s: redacted %q", k, out)
			}
		}
	}
}

// In JSON (a record as stored, a tool's input) a secret is found as well,
// and the JSON stays valid and says the same apart from the secret.
func TestJSONStaysJSON(t *testing.T) {
	for k, list := range Secrets {
		for _, secret := range list {
			plain := Plant(k, secret)
			doc, _ := json.Marshal(map[string]any{"command": plain, "apiKey": secret, "nested": []string{`"` + plain + `"\`}})
			out := New().Bytes(doc)
			var v map[string]any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("%s: %v in %s", k, err, out)
			}
			if strings.Contains(string(out), secret) {
				t.Errorf("%s: %s", k, out)
			}
			again, _ := json.Marshal(v)
			if strings.Contains(string(again), secret) || strings.Contains(plainOf(t, again), secret) {
				t.Errorf("%s: decoded %s", k, again)
			}
		}
	}
}

func plainOf(t *testing.T, doc []byte) string {
	var v map[string]any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Ordinary text holds nothing to redact.
func TestOrdinaryText(t *testing.T) {
	for _, s := range []string{
		"commit 3f9a2c1e4b7d8a0f6e5c2b1a9d8e7f6a5b4c3d2e1",
		"id 123e4567-e89b-12d3-a456-426614174000 and f47ac10b-58cc-4372-a567-0e02b2c3d479",
		"![x](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)",
		"2026-03-31T12:00:00.000Z INFO server listening on http://localhost:8080/api/v1",
		"/home/dev/site/src/components/AuthTokenProvider.tsx:42:7",
		"const apiKey = process.env.OPENAI_API_KEY;",
		"token := os.Getenv(\"GITHUB_TOKEN\")",
		"if password == \"\" { return errNoPassword }",
		`{"input_tokens":12345,"cache_read_input_tokens":987654,"output_tokens":321}`,
		"password: ${DB_PASSWORD}",
		"postgres://user:${PGPASS}@localhost/db",
		"api_key: str = Field(default=None)",
		"authorization = request.headers.get('Authorization')",
		"key = cache_key(user.id, 42)",
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"https://github.com/owner/repo/commit/3f9a2c1e4b7d8a0f6e5c2b1a9d8e7f6a5b4c3d2e",
		"The sk-learn docs; skeleton-loading-indicator-component-v2",
		"tokens=4096 max_tokens: 8192",
		"image: ghcr.io/acme/auth-token:v2.14.19-rc1",
	} {
		if ms := Find(s); len(ms) > 0 {
			t.Errorf("%q: %v (%q)", s, ms, s[ms[0].Start:ms[0].End])
		}
	}
}

// A token glued to a word before it by - or _ is found (a folder named
// after one).
func TestFindsGluedTokens(t *testing.T) {
	for _, glued := range []string{"/tmp/proj-", "MY_", "x--"} {
		secret := Secrets[KindAnthropic][0]
		ms := Find(glued + secret + "/s.jsonl")
		if len(ms) != 1 || ms[0].Start != len(glued) || ms[0].End != len(glued)+len(secret) {
			t.Errorf("%s: %v", glued, ms)
		}
	}
}

// A placeholder says what it stands for and is no secret again.
func TestRedactedStaysRedacted(t *testing.T) {
	r := New()
	once := r.String(Plant(KindGeneric, Secrets[KindGeneric][0]) + Plant(KindURLPassword, "s3cr3tPa55w0rd"))
	if twice := r.String(once); twice != once {
		t.Errorf("again: %q, was %q", twice, once)
	}
	if r.Count(KindGeneric) != 1 || r.Count(KindURLPassword) != 1 || r.Total() != 2 {
		t.Errorf("counts: %s", r.Summary())
	}
	if got := r.Summary(); got != "2 redacted: 1 url-password, 1 generic-secret" {
		t.Errorf("summary %q", got)
	}
}

func BenchmarkFindOrdinary(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString(`{"type":"message","content":[{"type":"text","text":"Let me look at src/main.go: the handler at line 42 calls db.Query(ctx, q) and returns 3f9a2c1e4b7d8a0f. "}],"usage":{"input_tokens":1234}}` + "\n")
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Find(s)
	}
}

// FuzzRedact: any text, as a string and inside JSON: no panic, matches in
// order within the text, a redacted text holds nothing more to redact,
// and JSON redacted is JSON still.
func FuzzRedact(f *testing.F) {
	for k, list := range Secrets {
		for _, s := range list {
			f.Add(Plant(k, s))
		}
	}
	f.Add("postgres://u:p@h/db token=abc eyJ.eyJ.x -----BEGIN PRIVATE KEY-----")
	f.Fuzz(func(t *testing.T, s string) {
		at := 0
		for _, m := range Find(s) {
			if m.Start < at || m.End <= m.Start || m.End > len(s) {
				t.Fatalf("%q: match %+v after %d", s, m, at)
			}
			at = m.End
		}
		if red := New().String(s); len(Find(red)) != 0 {
			t.Errorf("%q: redacted %q still holds %v", s, red, Find(red))
		}
		doc, _ := json.Marshal(map[string]string{"text": s})
		if out := New().Bytes(doc); !json.Valid(out) {
			t.Errorf("%q: %s is not JSON", s, out)
		}
	})
}
