package synth

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Secret is a made-up secret of a kind internal/redact finds (its name),
// shaped as the provider shapes its own (gitleaks' rules), and a text
// that holds it the way people write one.
type Secret struct {
	Kind, Value, Text string
}

// Secrets are a secret or two of every kind redact finds, none real.
func Secrets() []Secret {
	in := func(s string) string { return "the value is " + s + " here" }
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7x2Qz9Lm4Vt8Rp3Nc6Wb1Yd5Kf0Gs2Jh4Tu6Ma8Ve0Px2\nQz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5iNq0tBzVyKpMr2AAQ==\n-----END RSA PRIVATE KEY-----"
	ssh := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDx2Qz9Lm4Vt8Rp3Nc6Wb1Yd5Kf0Gs2Jh4Tu6Ma8Ve0Px2\n-----END OPENSSH PRIVATE KEY-----"
	list := []Secret{
		{"anthropic-key", "sk-ant-api03-Qz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5iNq0tBz-Vy_KpMr2AA", ""},
		{"openai-key", "sk-proj-4fG7hJ2kL9mN3pQ6rS8tV1wX5yZ0aB2cD4eF6gH8iJ0kLmNoPq", "OPENAI_API_KEY=%s"},
		{"openai-key", "sk-7Hq2Lm9Xv4Rt8Zp3Nc6Wb1Yd5Kf0Gs2Jh4Tu6Ma8Ve0Px2Qz", "Authorization: Bearer %s"},
		{"google-api-key", "AIzaSyD4x8K2mQ7vR1tW9pL3nZ6cJ0bH5gF_eYs", `const key = "%s";`},
		{"aws-access-key", "AKIAQ3X7T2MPVR9KLW4N", ""},
		{"aws-secret-key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY2Q8vT5kL3m", "[default]\naws_access_key_id = AKIAQ3X7T2MPVR9KLW4N\naws_secret_access_key = %s\n"},
		{"github-token", "ghp_4fG7hJ2kL9mN3pQ6rS8tV1wX5yZ0aB2cD4eF", "git clone https://%s@github.com/acme/app.git"},
		{"github-token", "github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLMNOPqrstuv", "GH_TOKEN='%s'"},
		{"gitlab-token", "glpat-x7Tq2Lm9Xv4Rt8Zp3Nc6", ""},
		{"slack-token", "xoxb-2345678901-8765432109876-Qz7xT2mPvR9kLw4nJc8bYs1d", "slack_token: %s"},
		{"stripe-key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc9Xv4", ""},
		{"stripe-key", "rk_live_51H8xT2mPvR9kLw4nJc8bYs1dHf", ""},
		{"npm-token", "npm_Qz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5i", "//registry.npmjs.org/:_authToken=%s"},
		{"huggingface-token", "hf_QzxTmPvRkLwnJcbYsdHfgUeaXoiNqtBzVyKp", ""},
		{"private-key", pem, "$ cat id_rsa\n%s\n"},
		{"private-key", ssh, ""},
		{"jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "curl -H 'Authorization: Bearer %s' https://api.example.com"},
		{"url-password", "s3cr3tPa55w0rd", "DATABASE_URL=postgres://admin:%s@db.internal:5432/app"},
		{"url-password", "Tr0ub4dor-3xq", "redis://default:%s@cache.example.com:6379"},
		{"generic-secret", "Zq8v2Lm4Xt7Rp1Nc6Wb9Yd", "export DB_SECRET=%s"},
		{"generic-secret", "h7Kp2Qx9Lm4Vt8Rw", `{"client_secret": "%s"}`},
		{"generic-secret", "c0rrect-H0rse-9", "password: %s"},
	}
	for k := range list {
		s := &list[k]
		switch {
		case s.Text == "":
			s.Text = in(s.Value)
		default:
			s.Text = fmt.Sprintf(s.Text, s.Value)
		}
	}
	return list
}

// SecretSession is a pi session (its JSONL) that holds text in every
// place a session can: its working folder, a prompt, thinking, an
// answer, a tool call's arguments, a tool's output and error, a command
// run and its output, a compaction's summary, an extension's message, a
// label and the session's name; each place holds text, which the secrets
// go in turn by turn.
func SecretSession(cwd string, texts []string) []byte {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var lines []string
	n := 0
	add := func(format string, args ...any) {
		n++
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	add(`{"type":"session","version":3,"id":"sec1","timestamp":"2026-05-01T10:00:00.000Z","cwd":%s}`, q(cwd))
	parent := "null"
	id := func() string { return fmt.Sprintf(`"e%04d"`, n) }
	ts := func() string { return fmt.Sprintf(`"2026-05-01T10:%02d:%02d.000Z"`, n/60%60, n%60) }
	for k, t := range texts {
		user := id()
		add(`{"type":"message","id":%s,"parentId":%s,"timestamp":%s,"message":{"role":"user","content":[{"type":"text","text":%s}],"timestamp":%d}}`, user, parent, ts(), q("please use this: "+t), n)
		asst := id()
		add(`{"type":"message","id":%s,"parentId":%s,"timestamp":%s,"message":{"role":"assistant","content":[{"type":"thinking","thinking":%s},{"type":"text","text":%s},{"type":"toolCall","id":"c%d","name":"bash","arguments":{"command":%s,"path":%s}}],"timestamp":%d}}`,
			asst, user, ts(), q("I see "+t), q("Found it:\n\n```\n"+t+"\n```"), k, q("echo "+t), q("/home/dev/"+t), n)
		res := id()
		add(`{"type":"message","id":%s,"parentId":%s,"timestamp":%s,"message":{"role":"toolResult","toolCallId":"c%d","toolName":"bash","content":[{"type":"text","text":%s}],"isError":true,"timestamp":%d}}`, res, asst, ts(), k, q("output:\n"+t), n)
		bash := id()
		add(`{"type":"message","id":%s,"parentId":%s,"timestamp":%s,"message":{"role":"bashExecution","command":%s,"output":%s,"exitCode":0,"cancelled":false,"truncated":false,"timestamp":%d}}`, bash, res, ts(), q("cat .env # "+t), q(t), n)
		custom := id()
		add(`{"type":"custom_message","id":%s,"parentId":%s,"timestamp":%s,"customType":"note","content":[{"type":"text","text":%s}],"display":true}`, custom, bash, ts(), q("note "+t))
		label := id()
		add(`{"type":"label","id":%s,"parentId":%s,"timestamp":%s,"targetId":%s,"label":%s}`, label, custom, ts(), user, q(t))
		parent = label
		if k == 0 {
			comp := id()
			add(`{"type":"compaction","id":%s,"parentId":%s,"timestamp":%s,"summary":%s,"firstKeptEntryId":%s,"tokensBefore":100}`, comp, parent, ts(), q("Summary: "+t), user)
			parent = comp
		}
		if k == len(texts)-1 {
			add(`{"type":"session_info","id":%s,"parentId":%s,"timestamp":%s,"name":%s}`, id(), parent, ts(), q("deploy with "+t))
		}
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// Ordinary is n messages of what sessions hold that is no secret: code
// that names keys, tokens and passwords, git hashes, UUIDs, base64
// images, logs, paths, package locks, versions and numbers.
func Ordinary(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	hex := func(k int) string {
		const d = "0123456789abcdef"
		b := make([]byte, k)
		for i := range b {
			b[i] = d[r.IntN(16)]
		}
		return string(b)
	}
	uuid := func() string { return hex(8) + "-" + hex(4) + "-4" + hex(3) + "-a" + hex(3) + "-" + hex(12) }
	b64 := func(k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	word := func() string {
		ws := []string{"token", "user", "session", "cache", "api", "key", "auth", "handler", "config", "request", "password", "secret", "value", "id", "count", "result", "client"}
		return ws[r.IntN(len(ws))]
	}
	kinds := []func() string{
		func() string {
			return fmt.Sprintf("commit %s\nAuthor: Dev <dev@example.com>\n\n    fix(auth): refresh the token before it expires\n\n %s..%s  main -> main", hex(40), hex(7), hex(7))
		},
		func() string {
			return fmt.Sprintf("const %sKey = `${prefix}:%s`;\nconst token = await getToken(%sId);\nif (password !== confirmPassword) throw new Error('mismatch');\nconst apiKey = process.env.API_KEY ?? config.apiKey;", word(), word(), word())
		},
		func() string {
			return fmt.Sprintf("func (s *Store) %sToken(ctx context.Context, id string) (string, error) {\n\tkey := cacheKey(id, %d)\n\tsecret, err := s.vault.Get(ctx, \"app/%s\")\n\treturn secret, err\n}", word(), r.IntN(1000), word())
		},
		func() string {
			return fmt.Sprintf("%s INFO request_id=%s user_id=%d path=/api/v1/%s/%s status=200 duration=%dms", "2026-03-31T12:00:0"+fmt.Sprint(r.IntN(10))+"Z", uuid(), r.IntN(100000), word(), uuid(), r.IntN(900))
		},
		func() string {
			return fmt.Sprintf("![screenshot](data:image/png;base64,%s)", b64(300+r.IntN(300)))
		},
		func() string {
			return fmt.Sprintf(`"node_modules/%s": {"version": "%d.%d.%d", "resolved": "https://registry.npmjs.org/%s/-/%s-%d.%d.%d.tgz", "integrity": "sha512-%s"}`, word(), r.IntN(10), r.IntN(30), r.IntN(30), word(), word(), r.IntN(10), r.IntN(30), r.IntN(30), b64(64))
		},
		func() string {
			return fmt.Sprintf("sha256:%s\nDigest: sha256:%s\nStatus: Downloaded newer image for ghcr.io/acme/%s:v%d.%d.%d", hex(64), hex(64), word(), r.IntN(5), r.IntN(20), r.IntN(20))
		},
		func() string {
			return fmt.Sprintf("/home/dev/projects/%s-service/src/%s/%sTokenProvider.test.ts:%d:%d\n  at Object.<anonymous> (/home/dev/%s/node_modules/jest/build/index.js:%d:%d)", word(), word(), word(), r.IntN(500), r.IntN(80), word(), r.IntN(900), r.IntN(80))
		},
		func() string {
			return fmt.Sprintf("{\"input_tokens\": %d, \"output_tokens\": %d, \"cache_read_input_tokens\": %d, \"max_tokens\": 8192, \"session_id\": \"%s\", \"tool_use_id\": \"toolu_01%s\"}", r.IntN(90000), r.IntN(9000), r.IntN(900000), uuid(), b64(16)[:22])
		},
		func() string {
			return fmt.Sprintf("| id | key | updated |\n|---|---|---|\n| %s | %s_%d | 2026-0%d-1%d |", uuid(), word(), r.IntN(100), 1+r.IntN(9), r.IntN(10))
		},
		func() string {
			return fmt.Sprintf("password = getpass.getpass()\ntoken = request.headers.get(\"X-Auth-Token\")\nsecret_key = settings.SECRET_KEY\nauth_url = \"https://auth.example.com/oauth/authorize?client_id=%s&response_type=code\"", word())
		},
		func() string {
			return fmt.Sprintf("The %s key is stored in the vault under app/%s; rotate it with `vault write -f app/%s/rotate`. Version v%d.%d.%d-rc%d was released on 2026-04-0%d.", word(), word(), word(), r.IntN(5), r.IntN(20), r.IntN(20), r.IntN(9), r.IntN(9))
		},
	}
	out := make([]string, n)
	for i := range out {
		out[i] = kinds[r.IntN(len(kinds))]()
	}
	return out
}
