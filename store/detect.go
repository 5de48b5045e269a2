package store

import (
	"bytes"

	"skein/internal/jscan"
)

// Format names a session format.
type Format string

const (
	FormatUnknown Format = ""
	FormatPi      Format = "pi"
	FormatDhara   Format = "dhara"  // the second seed's session folders
	FormatClaude  Format = "claude" // Claude Code project logs
	FormatCodex   Format = "codex"  // Codex CLI rollouts
)

// Detect tells a session file's format from its first non-blank line.
// skein reads pi sessions; the others are recognised so that doctor and the
// importers can name them.
func Detect(head []byte) Format {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	first := true
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var typ, id string
		var hasID, hasUUID, hasPayload, hasSessionID bool
		err := jscan.Members(line, func(k, v []byte) bool {
			switch {
			case jscan.KeyIs(k, "type"):
				typ, _ = jscan.Unquote(v)
			case jscan.KeyIs(k, "id"):
				id, _ = jscan.Unquote(v)
				hasID = jscan.IsString(v)
			case jscan.KeyIs(k, "uuid"):
				hasUUID = true
			case jscan.KeyIs(k, "sessionId"):
				hasSessionID = true
			case jscan.KeyIs(k, "payload"):
				hasPayload = true
			}
			return true
		})
		if err != nil {
			continue // pi skips lines that do not parse; so does detection
		}
		switch {
		case typ == "session" && hasID && first:
			return FormatPi
		case typ == "meta" && first:
			return FormatDhara05 // the real Dhara agent's one-file sessions
		case hasPayload && (typ == "session_meta" || typ == "response_item" || typ == "event_msg" || typ == "turn_context"):
			return FormatCodex
		case hasUUID || hasSessionID || typ == "summary":
			return FormatClaude
		case hasID && id != "" && typ == "" && first:
			return FormatCodex // a legacy bare rollout's first line {id, timestamp}
		}
		// A first record that says nothing of its format (Claude Code
		// starts some logs with a file-history snapshot, which has no
		// uuid): the next lines tell, for the formats whose every line
		// does.
		if !first {
			return FormatUnknown
		}
		first = false
	}
	return FormatUnknown
}
