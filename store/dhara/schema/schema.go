// Package schema holds the JSON Schemas (draft 2020-12) of the Dhara session
// folder format, as FORMATS.md §2 and store/dhara/DECISIONS.md define it,
// and checks documents against them for doctor. The schemas are written
// from the seed's examples, not taken from upstream Dhara (an older,
// different model), and allow unknown entry types and fields: a file that
// carries more than skein knows is not damaged.
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"skein/internal/sanitize"
)

//go:embed *.json
var files embed.FS

// base is the $id prefix of the four schemas. The .invalid domain cannot
// resolve: nothing is ever fetched, every $ref is one of the embedded files.
const base = "https://skein.invalid/dhara/"

// names are the embedded schemas; compaction.json is reached from
// entry.json through $ref.
var names = []string{"entry.json", "meta.json", "tree.json", "compaction.json"}

// Problem is one place where a document breaks its schema.
type Problem struct {
	Pointer string // an RFC 6901 JSON pointer into the document; "" is the whole document
	Msg     string // a short English message on one line
}

type schemas struct{ entry, meta, tree *jsonschema.Schema }

// compiled compiles the schemas once, on first use. The schemas are part
// of the binary, so a failure is a programming error, caught by the tests.
var compiled = sync.OnceValue(func() schemas {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat() // in 2020-12, format is only an annotation unless asserted
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			panic(fmt.Sprintf("dhara schema %s: %v", n, err))
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			panic(fmt.Sprintf("dhara schema %s: %v", n, err))
		}
		if err := c.AddResource(base+n, doc); err != nil {
			panic(fmt.Sprintf("dhara schema %s: %v", n, err))
		}
	}
	return schemas{
		entry: c.MustCompile(base + "entry.json"),
		meta:  c.MustCompile(base + "meta.json"),
		tree:  c.MustCompile(base + "tree.json"),
	}
})

// printer renders the validator's messages; it is safe for concurrent use.
var printer = message.NewPrinter(language.English)

// Entry checks one line of entries.jsonl (or archive.jsonl) against
// entry.json, and a compaction against compaction.json too. The caller
// frames the line: a UTF-8 byte-order mark before the first line is its to
// drop (a trailing "\r" is JSON white space and may stay).
func Entry(line []byte) []Problem { return check(compiled().entry, line) }

// Meta checks a meta.json against meta.json.
func Meta(data []byte) []Problem { return check(compiled().meta, data) }

// Tree checks a tree.json against tree.json.
func Tree(data []byte) []Problem { return check(compiled().tree, data) }

// Files returns the four schemas by file name, as embedded, for skein to
// print; the map and its slices are the caller's.
func Files() map[string][]byte {
	m := make(map[string][]byte, len(names))
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			panic(fmt.Sprintf("dhara schema %s: %v", n, err))
		}
		m[n] = b
	}
	return m
}

func check(sch *jsonschema.Schema, data []byte) []Problem {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []Problem{{Msg: clean("not JSON: " + syntaxMsg(err))}}
	}
	err = sch.Validate(doc)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []Problem{{Msg: clean(err.Error())}}
	}
	var out []Problem
	leaves(verr, &out)
	slices.SortFunc(out, func(a, b Problem) int {
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return strings.Compare(a.Msg, b.Msg)
	})
	return slices.Compact(out)
}

// leaves appends the errors that have no causes: the groups above them
// ("allOf failed", "validation failed") say nothing a reader can act on.
func leaves(e *jsonschema.ValidationError, out *[]Problem) {
	if len(e.Causes) == 0 {
		*out = append(*out, Problem{
			Pointer: pointer(e.InstanceLocation),
			Msg:     clean(e.ErrorKind.LocalizedString(printer)),
		})
		return
	}
	for _, c := range e.Causes {
		leaves(c, out)
	}
}

// pointer is the RFC 6901 pointer of a location's reference tokens.
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(t, "~", "~0")
			t = strings.ReplaceAll(t, "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}

// syntaxMsg says why data is not one JSON value, with the byte offset of a
// syntax error (encoding/json leaves it out of the message).
func syntaxMsg(err error) string {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return "empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of input"
	case errors.As(err, &se):
		return fmt.Sprintf("%s at byte %d", se.Error(), se.Offset)
	}
	return err.Error()
}

// maxMsg bounds a message: the validator quotes the offending value, which
// comes from the user's file and may be long.
const maxMsg = 240

// clean keeps a message on one line, with every control, invisible or
// ill-formed character shown as a placeholder (the message quotes the
// user's file), and elides the middle of a long one.
func clean(s string) string {
	s = sanitize.Inline(s)
	if utf8.RuneCountInString(s) <= maxMsg {
		return s
	}
	r := []rune(s)
	return string(r[:maxMsg*2/3]) + "…" + string(r[len(r)-maxMsg/3:])
}
