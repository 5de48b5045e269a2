// Package convert is skein's converter: it reads a session or an export of
// any format skein imports (guessing the format from the file's first
// bytes) and writes it as a new Dhara folder or pi file that records its
// source. It may import the format packages it reads and writes, and
// store; store never imports it, so that the core links no format.
package convert

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
	"skein/store"
	"skein/store/claude"
	"skein/store/codex"
	"skein/store/dhara"
	"skein/store/dhara05"
	"skein/store/pi"
)

// builtin are the formats the converter reads its own way.
var builtin = []string{"pi", "dhara", "dhara-jsonl", "codex", "claude", "claude-ai", "openai", "chatgpt"}

// Formats are the formats `session import --format` names: the converter's
// own, then each registered read-only format's (store.Importable), which
// it reads through the format's backend, so that a new agent's package
// imports with no change here.
func Formats() []string {
	out := slices.Clone(builtin)
	for _, b := range store.Backends() {
		if name, ok := store.Importer(b); ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// importerNamed is the registered backend whose import format is name, nil
// for none.
func importerNamed(name string) store.Backend {
	for _, b := range store.Backends() {
		if n, ok := store.Importer(b); ok && n == name {
			return b
		}
	}
	return nil
}

// OpenAs reads the file at path as a session of the named import format,
// whatever its name or folder.
func OpenAs(path, format string) (*model.Session, error) {
	mtime := 0.0
	if st, err := os.Stat(path); err == nil {
		mtime = float64(st.ModTime().UnixMilli())
	}
	switch format {
	case "pi":
		s, err := pi.Open(path)
		if err != nil {
			return nil, err
		}
		// Its list record (name, times) as the list reads it: the file
		// mapped when it is large, not read into memory a second time.
		_, info, _ := store.ForFormat(store.FormatPi).ListInfo(path, nil)
		info.Path, info.Format = path, string(store.FormatPi)
		return s.Domain(info), nil
	case "dhara-jsonl", "dhara-0.5":
		s, err := dhara05.Open(path)
		if err != nil {
			return nil, err
		}
		return s.Domain(s.Info(path, mtime)), nil
	case "codex":
		s, err := codex.Open(path)
		if err != nil {
			return nil, err
		}
		return s.Domain(s.Info(path, mtime)), nil
	case "claude":
		s, err := claude.Open(path)
		if err != nil {
			return nil, err
		}
		return s.Domain(s.Info(path, mtime)), nil
	case "openai":
		return openChat(path)
	case "chatgpt", "claude-ai":
		items, _, err := openItems(path, format)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, &store.NotSession{Reason: "no conversation in it"}
		}
		return items[0].s, nil // the first: an import reads them all
	case "dhara":
		return store.Open(path)
	}
	if b := importerNamed(format); b != nil {
		return b.Open(path)
	}
	return nil, fmt.Errorf("no importer for the format %q (formats: %s)", format, strings.Join(Formats(), ", "))
}

// An output (an export) never replaces a session or an export of a format
// skein imports: store's check of an output path asks GuessFormat, which
// only the converter can answer.
func init() { store.SetSessionGuess(GuessFormat) }

// ErrUnknownFormat says GuessFormat could not tell a file's format.
var ErrUnknownFormat = errors.New("its format is none skein knows")

// GuessFormat names the import format of the file at path from its first
// lines.
func GuessFormat(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 4<<20) // a first prompt may hold a pasted image
	n, _ := io.ReadFull(f, head)
	if f := guessJSON(head[:n]); f != "" {
		return f, nil
	}
	switch store.Detect(head[:n]) {
	case store.FormatPi:
		return "pi", nil
	case store.FormatDhara05:
		return "dhara-jsonl", nil
	case store.FormatCodex:
		return "codex", nil
	case store.FormatClaude:
		return "claude", nil
	}
	if f := store.Detect(head[:n]); f != store.FormatUnknown {
		if name, ok := store.Importer(store.ForFormat(f)); ok {
			return name, nil
		}
	}
	return "", ErrUnknownFormat
}

// jsonKeys match the members that tell the JSON documents of the import
// formats apart, in the order they are tried: a ChatGPT export's
// conversations have a "mapping", a claude.ai export's "chat_messages",
// OpenAI Chat's messages a "role" (in an array, or under "messages").
var jsonKeys = []struct {
	format string
	key    *regexp.Regexp
}{
	{"chatgpt", regexp.MustCompile(`"mapping"\s*:\s*\{`)},
	{"claude-ai", regexp.MustCompile(`"chat_messages"\s*:\s*\[`)},
	{"openai", regexp.MustCompile(`"role"\s*:`)},
}

// guessJSON names the import format of a file that is one JSON document
// (an array or an object, not lines) from its first bytes; "" for none.
func guessJSON(head []byte) string {
	h := bytes.TrimSpace(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")))
	if len(h) == 0 || h[0] != '[' && h[0] != '{' {
		return ""
	}
	// JSON lines are one object per line: a line that starts an object at
	// its first column (a JSON document indents what it nests).
	if h[0] == '{' && (bytes.Contains(h, []byte("\n{")) || bytes.Contains(h, []byte("\r\n{"))) {
		return ""
	}
	// One line that is an agent's record (a Claude Code log of one line
	// holds "role" inside its message): the record's own members tell.
	if h[0] == '{' && store.Detect(h) != store.FormatUnknown {
		return ""
	}
	for _, k := range jsonKeys {
		if slices.Contains(builtin, k.format) && k.key.Match(h) {
			return k.format
		}
	}
	return ""
}

// Source is what an import records of the file it read: where it was, its
// bytes' hash and size, its format.
type Source struct {
	Path, SHA256, Format string
	Size                 int64
	// Item is the conversation's id in an export that holds many; "" for
	// a file of one session. ItemSHA256 is the conversation's hash.
	Item, ItemSHA256 string
}

// SourceOf hashes the file at path.
func SourceOf(path, format string) (Source, error) {
	file := path
	if c, _, ok := store.ContainedIn(path); ok {
		file = c // a container's session: the container's bytes
	}
	f, err := os.Open(file)
	if err != nil {
		return Source{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return Source{}, err
	}
	abs, _ := filepath.Abs(path)
	return Source{Path: abs, SHA256: hex.EncodeToString(h.Sum(nil)), Format: format, Size: n}, nil
}

// JSON is the source as meta.json's "importedFrom" member.
func (src Source) JSON() []byte {
	b := fmt.Appendf(nil, `{"path":%s,"sha256":%q,"size":%d,"format":%s`, quote(src.Path), src.SHA256, src.Size, quote(src.Format))
	if src.Item != "" {
		b = append(append(b, `,"item":`...), quote(src.Item)...)
		b = fmt.Appendf(b, `,"itemSha256":%q`, src.ItemSHA256)
	}
	return append(b, '}')
}

func quote(s string) string { return string(jsjson.AppendString(nil, s)) }

// Imported finds the sessions of the Dhara folder root imported from the
// same bytes (same), and from the same path with other bytes (grown).
func Imported(root string, src Source) (same, earlier string) {
	des, err := os.ReadDir(root)
	if err != nil {
		return "", ""
	}
	for _, de := range des {
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, de.Name())
		data, err := os.ReadFile(filepath.Join(dir, dhara.MetaFile))
		if err != nil || len(data) > 1<<20 || !jscan.Valid(data) {
			continue
		}
		switch match(jscan.Member(data, "importedFrom"), src) {
		case 2:
			return dir, ""
		case 1:
			earlier = dir
		}
	}
	return "", earlier
}

// ImportSession writes the open session s into the Dhara folder root as a
// new session recording its source (its file's path and hash), or finds
// where the same bytes went before (already); it returns the session's
// folder.
func ImportSession(s *model.Session, root string) (dir string, already bool, err error) {
	format := map[store.Format]string{store.FormatClaude: "claude", store.FormatCodex: "codex", store.FormatDhara05: "dhara-jsonl", store.FormatPi: "pi", "openai": "openai"}[store.Format(s.Info.Format)]
	if format == "" {
		format, _ = store.Importer(store.ForFormat(store.Format(s.Info.Format)))
	}
	path := s.Info.Path
	if f, ok := folderSessionFile(path); ok {
		path = f // a session folder's bytes are its session file's
	}
	src, err := SourceOf(path, format)
	if err != nil {
		return "", false, err
	}
	dir, _, already, err = importDhara(root, s, src, time.Now())
	return dir, already, err
}
