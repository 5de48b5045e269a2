package pi

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/internal/writeback"
	"skein/model"
)

// appendText appends a text or thinking block's text as a JSON string: its
// literal when the source gave it (model.Block.TextJSON).
func appendText(dst []byte, blk *model.Block) []byte {
	if blk.TextJSON != nil {
		return append(dst, blk.TextJSON...)
	}
	return jsjson.AppendString(dst, blk.Text)
}

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
			l = appendText(append(l, `{"type":"text","text":`...), &blk)
		case blk.Type == model.BlockThinking && assistant:
			l = appendText(append(l, `{"type":"thinking","thinking":`...), &blk)
		case blk.Type == model.BlockThinking:
			l = appendText(append(l, `{"type":"text","text":`...), &blk)
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

// SafeFolderFor is FolderFor with every control character (C0, DEL, C1)
// of the name made a "_": a cwd may hold them (it is the source's text),
// and a folder name holding ESC or a newline reaches every listing of the
// store raw. pi would look in the other name for this cwd; changed says
// the name is not pi's, so that the user can be told.
func SafeFolderFor(root, cwd string) (dir string, changed bool) {
	dir = FolderFor(root, cwd)
	name := filepath.Base(dir)
	safe := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			changed = true
			return '_'
		}
		return r
	}, name)
	return filepath.Join(filepath.Dir(dir), safe), changed
}

// WriteFromSession is FromSession written as a new file in dir, named as
// pi names them (<ISO time with : and . as ->_<id>.jsonl), whole or not at
// all: its bytes go to the file as they are made, and the disk writes them
// while the rest is built, so that the sync at the end waits for little.
// It returns the path and what was built.
func WriteFromSession(dir string, s *model.Session, now time.Time, cwd string, importedFrom []byte) (string, Built, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return "", Built{}, err
	}
	path, err := newFilePath(dir, id.String(), Created(s, now))
	if err != nil {
		return "", Built{}, err
	}
	var b Built
	err = writeNewWith(path, 0o600, func(f *os.File) ([]byte, error) {
		st := newStreamer(f)
		sent := 0
		b = fromSession(s, id.String(), now, cwd, importedFrom, func(p []byte) {
			st.write(p)
			sent += len(p)
		})
		st.write(b.Lines[sent:])
		return b.Lines, st.close()
	})
	if err != nil {
		return "", Built{}, err
	}
	return path, b, nil
}

// Created is when an import of s was created, as pi's header and file
// name say it: the source's creation time, else its first entry's time,
// else now. An import dated by the day it ran was listed as created after
// it was last modified (a 2024 ChatGPT conversation created 2026-12-06).
func Created(s *model.Session, now time.Time) time.Time {
	// A time JavaScript's Date can write (jsdate.ISO), not 0 (unset).
	valid := func(t float64) bool { _, ok := jsdate.ISO(t); return ok && t != 0 }
	if t := s.Info.Created; valid(t) {
		return time.UnixMilli(int64(t)).UTC()
	}
	for i := range s.Len() {
		if t := jsdate.Parse(s.Entry(i).Timestamp); valid(t) {
			return time.UnixMilli(int64(t)).UTC()
		}
	}
	return now
}

// newFilePath is where a new session of id goes in dir (made if need be),
// named as pi names them; an error when a file is there.
func newFilePath(dir, id string, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ts := now.UTC().Format("2006-01-02T15:04:05.000Z")
	name := strings.NewReplacer(":", "-", ".", "-").Replace(ts) + "_" + id + ".jsonl"
	path := filepath.Join(dir, name)
	if _, err := os.Lstat(path); err == nil {
		return "", fmt.Errorf("%s exists", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return path, nil
}

// streamer writes the parts of a new file given to it, in order, in a
// goroutine of its own, and starts the disk's writeback of each
// (writeback.Start).
type streamer struct {
	f     *os.File
	parts chan []byte
	done  chan struct{}
	off   int64
	err   error
}

func newStreamer(f *os.File) *streamer {
	st := &streamer{f: f, parts: make(chan []byte, 16), done: make(chan struct{})}
	go func() {
		defer close(st.done)
		for p := range st.parts {
			if st.err != nil {
				continue
			}
			n, err := through(st.f).Write(p)
			if err != nil {
				st.err = err
				continue
			}
			writeback.Start(st.f, st.off, int64(n))
			st.off += int64(n)
		}
	}()
	return st
}

func (st *streamer) write(p []byte) {
	if len(p) > 0 {
		st.parts <- p
	}
}

// close waits for every part to be written and reports the first error.
func (st *streamer) close() error {
	close(st.parts)
	<-st.done
	return st.err
}
