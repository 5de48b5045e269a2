package pi

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// appendBlocks appends content blocks in pi's shape: text, thinking (an
// assistant's), image, toolCall (an assistant's: id, name, arguments); a
// block of another kind as text naming it, so that its text is not lost.
func appendBlocks(l []byte, blocks []model.Block, assistant bool) []byte {
	l = append(l, '[')
	n := 0
	for _, blk := range blocks {
		start := len(l)
		if n > 0 {
			l = append(l, ',')
		}
		switch {
		case blk.Type == model.BlockText:
			l = jsjson.AppendString(append(l, `{"type":"text","text":`...), blk.Text)
		case blk.Type == model.BlockThinking && assistant:
			l = jsjson.AppendString(append(l, `{"type":"thinking","thinking":`...), blk.Text)
		case blk.Type == model.BlockThinking:
			l = jsjson.AppendString(append(l, `{"type":"text","text":`...), blk.Text)
		case blk.Type == model.BlockToolCall && assistant:
			l = jsjson.AppendString(append(l, `{"type":"toolCall","id":`...), blk.Call.ID)
			l = jsjson.AppendString(append(l, `,"name":`...), blk.Call.Name)
			input := bytes.TrimSpace(blk.Call.Input)
			if len(input) == 0 || input[0] != '{' || !jscan.Valid(input) {
				input = []byte("{}")
			}
			// As JSON.stringify writes it: one line, whatever space the
			// source's arguments had.
			l = jsjson.AppendValue(append(l, `,"arguments":`...), input)
		case blk.Type == model.BlockImage && blk.Data != "":
			l = jsjson.AppendString(append(l, `{"type":"image","data":`...), blk.Data)
			l = jsjson.AppendString(append(l, `,"mimeType":`...), blk.MimeType)
		case blk.Type == model.BlockImage:
			l = jsjson.AppendString(append(l, `{"type":"text","text":`...), "[image: "+blk.MimeType+", not in the source]")
		default:
			if blk.Text == "" && blk.Name == "" {
				l = l[:start]
				continue
			}
			text := blk.Text
			if blk.Name != "" {
				text = "[" + blk.Name + "] " + text
			}
			l = jsjson.AppendString(append(l, `{"type":"text","text":`...), text)
		}
		l = append(l, '}')
		n++
	}
	return append(l, ']')
}

// appendUsage is a usage in pi's full shape, with a cost (pi's footer
// reads usage.cost.total without a check): zeros where the source has
// none.
func appendUsage(l []byte, u *model.Usage) []byte {
	var v model.Usage
	if u != nil {
		v = *u
	}
	total := v.Total
	if total == 0 {
		total = v.Input + v.Output + v.CacheRead + v.CacheWrite
	}
	num := func(l []byte, k string, x float64) []byte {
		return jsjson.AppendNumber(append(jsjson.AppendString(l, k), ':'), x)
	}
	l = num(append(l, '{'), "input", v.Input)
	l = num(append(l, ','), "output", v.Output)
	l = num(append(l, ','), "cacheRead", v.CacheRead)
	l = num(append(l, ','), "cacheWrite", v.CacheWrite)
	l = num(append(l, ','), "totalTokens", total)
	l = append(l, `,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,`...)
	return append(num(l, "total", v.Cost), "}}"...)
}

// FolderFor is the folder of pi's default store for sessions of cwd:
// --<cwd without its leading separator, / \ : as ->--, under root.
func FolderFor(root, cwd string) string {
	c := strings.TrimPrefix(strings.TrimPrefix(cwd, "/"), `\`)
	c = strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(c)
	return filepath.Join(root, "--"+c+"--")
}

// WriteNewFile writes a built session as a new file in dir, named as pi
// names them (<ISO time with : and . as ->_<id>.jsonl), whole or not at
// all; it returns the path.
func WriteNewFile(dir string, b Built, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ts := now.UTC().Format("2006-01-02T15:04:05.000Z")
	name := strings.NewReplacer(":", "-", ".", "-").Replace(ts) + "_" + b.ID + ".jsonl"
	path := filepath.Join(dir, name)
	if _, err := os.Lstat(path); err == nil {
		return "", fmt.Errorf("%s exists", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := writeNew(path, b.Lines, 0o600); err != nil {
		return "", err
	}
	return path, nil
}
