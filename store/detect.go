package store

import (
	"bytes"
	"io"

	"skein/internal/jscan"
	"skein/internal/readfile"
)

// Format names a session format, as a list record's Format holds it. The
// formats are the registered backends'; the names below are the ones
// skein has always written in its indexes.
type Format string

const (
	FormatUnknown Format = ""
	FormatPi      Format = "pi"
	FormatDhara   Format = "dhara"     // the second seed's session folders
	FormatDhara05 Format = "dhara-0.5" // the real Dhara agent's one-file sessions
	FormatClaude  Format = "claude"    // Claude Code project logs
	FormatCodex   Format = "codex"     // Codex CLI rollouts
)

// Detect tells a session file's format from its first lines: the format of
// the registered backend that detects the first record that is JSON (a
// blank line, or one that does not parse, is passed over, as pi's reader
// skips it), else of the second (Claude Code starts some logs with a
// record that says nothing of its format). FormatUnknown when none does.
func Detect(head []byte) Format {
	if b := detectHead(head); b != nil {
		return b.Format()
	}
	return FormatUnknown
}

// detectHead is the backend Detect finds, nil for none.
func detectHead(head []byte) Backend {
	bs, _ := registered()
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
		if len(line) == 0 || !jscan.Valid(line) || line[0] != '{' {
			continue
		}
		for _, b := range bs {
			if b.Detect(line, first) {
				return b
			}
		}
		if !first {
			return nil
		}
		first = false
	}
	return nil
}

// detectFile is the backend the first bytes of the file at path say it is
// (nil when they say none, or it cannot be read). A regular file only: a
// pipe is not waited on.
func detectFile(path string) Backend {
	f, _, err := readfile.OpenRegular(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	return detectHead(head[:n])
}

// Member is a top-level member of a record as a format's Detect asks of
// it: there or not, a string or not, and its value when it is one.
type Member struct {
	Value   string
	Present bool
	String  bool
}

// Members is a record's top-level members that a format's Detect asks of
// it, in the order of keys: one pass over the line.
func Members(line []byte, keys ...string) []Member {
	out := make([]Member, len(keys))
	_ = jscan.Members(line, func(k, v []byte) bool {
		for i, key := range keys {
			if jscan.KeyIs(k, key) {
				out[i] = Member{Present: true, String: jscan.IsString(v)}
				if out[i].String {
					out[i].Value, _ = jscan.Unquote(v)
				}
			}
		}
		return true
	})
	return out
}
