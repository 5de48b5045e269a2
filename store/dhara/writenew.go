package dhara

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"skein/internal/hugemem"
	"skein/internal/jsjson"
	"skein/model"
)

// contentJSON is content blocks in Dhara's shape: text, thinking, image
// (with its data); a block of another kind as {"type", "text"} when it
// has text. Tool calls are entries of their own.
func contentJSON(blocks []model.Block) []byte {
	out := []byte{'['}
	n := 0
	for _, blk := range blocks {
		var b []byte
		switch blk.Type {
		case model.BlockText:
			b = append(jsjson.AppendString(append([]byte(nil), `{"type":"text","text":`...), blk.Text), '}')
		case model.BlockThinking:
			b = append(jsjson.AppendString(append([]byte(nil), `{"type":"thinking","thinking":`...), blk.Text), '}')
		case model.BlockImage:
			b = append([]byte(nil), `{"type":"image","mimeType":`...)
			b = jsjson.AppendString(b, blk.MimeType)
			b = append(b, `,"data":`...)
			b = append(jsjson.AppendString(b, blk.Data), '}')
		case model.BlockToolCall:
			continue
		default:
			if blk.Text == "" && blk.Name == "" {
				continue
			}
			b = append([]byte(nil), `{"type":`...)
			b = jsjson.AppendString(b, blk.Name)
			b = append(b, `,"text":`...)
			b = append(jsjson.AppendString(b, blk.Text), '}')
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
		n++
	}
	return append(out, ']')
}

// usageJSON is a usage in pi's shape, which Dhara's entries may carry.
func usageJSON(u *model.Usage) []byte {
	num := func(b []byte, k string, v float64) []byte {
		b = jsjson.AppendString(b, k)
		b = append(b, ':')
		return jsjson.AppendNumber(b, v)
	}
	b := []byte{'{'}
	b = num(b, "input", u.Input)
	b = append(b, ',')
	b = num(b, "output", u.Output)
	b = append(b, ',')
	b = num(b, "cacheRead", u.CacheRead)
	b = append(b, ',')
	b = num(b, "cacheWrite", u.CacheWrite)
	if u.HasCost {
		b = append(b, `,"cost":{`...)
		b = num(b, "total", u.Cost)
		b = append(b, '}')
	}
	return append(b, '}')
}

// WriteNew writes a built session as a new folder in root, whole or not at
// all: its files in a hidden temporary folder, each synced, the folder
// synced and renamed to the session's id. It returns the folder.
func WriteNew(root string, b Built) (string, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	dir := filepath.Join(root, b.ID)
	if _, err := os.Lstat(dir); err == nil {
		return "", fmt.Errorf("%s exists", dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, ".import-"+b.ID+"-")
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	// The three files at once: the disk syncs one while another is
	// written.
	errs := make(chan error, 2)
	go func() {
		n := 0
		for _, l := range b.Entries {
			n += len(l) + 1
		}
		entries := make([]byte, 0, n)
		hugemem.Advise(entries[:n])
		for _, l := range b.Entries {
			entries = append(entries, l...)
			entries = append(entries, '\n')
		}
		errs <- writeSynced(filepath.Join(tmp, EntriesFile), entries)
	}()
	go func() { errs <- writeSynced(filepath.Join(tmp, TreeFile), indented(b.Tree)) }()
	err = writeSynced(filepath.Join(tmp, MetaFile), indent(b.Meta))
	for range 2 {
		if e := <-errs; err == nil {
			err = e
		}
	}
	if err != nil {
		return "", err
	}
	if err := syncDir(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	ok = true
	return dir, syncDir(root)
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
