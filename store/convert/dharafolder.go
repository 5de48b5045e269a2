package convert

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"skein/store"
	"skein/store/dhara"
)

// A Dhara session is a folder: `session import` refused it ("not a
// regular file"), so a pi session imported into Dhara could not come
// back. These read a folder as an import's source.

// folderFiles are a Dhara session folder's files, in the order their
// bytes are hashed.
var folderFiles = []string{dhara.MetaFile, dhara.TreeFile, dhara.EntriesFile, dhara.ArchiveFile}

// isDharaFolder reports whether dir holds a Dhara session: a meta.json or
// an entries.jsonl that is a regular file.
func isDharaFolder(dir string) bool {
	for _, name := range []string{dhara.MetaFile, dhara.EntriesFile} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// folderSessionFile is the file that holds the session of a folder of a
// read-only format whose sessions are folders (store.Folders and
// store.Importable: Copilot CLI's), its first file that is there; false
// for any other folder.
func folderSessionFile(dir string) (string, bool) {
	b, err := store.Find(dir)
	if err != nil {
		return "", false
	}
	fo, ok := b.(store.Folders)
	if _, imp := store.Importer(b); !ok || !imp || !fo.IsSessionFolder(dir) {
		return "", false
	}
	for _, name := range fo.FolderFiles() {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// folderFormat checks a folder named as an import's source: only a Dhara
// session folder is one.
func folderFormat(dir, format string) (string, error) {
	if !isDharaFolder(dir) {
		return "", errors.New("a folder that is no Dhara session (it holds no meta.json or entries.jsonl)")
	}
	if format != "" && format != "dhara" {
		return "", fmt.Errorf("a folder is read as a Dhara session, not as %s", format)
	}
	return "dhara", nil
}

// folderSource hashes a Dhara session folder: each of its files present,
// by name and length, then its bytes. The same bytes imported again are
// found (Imported); a folder that grew is imported anew.
func folderSource(dir string) (Source, error) {
	h := sha256.New()
	var size int64
	for _, name := range folderFiles {
		f, err := os.Open(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return Source{}, err
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			f.Close()
			if err == nil {
				err = fmt.Errorf("%s is not a regular file", name)
			}
			return Source{}, err
		}
		io.WriteString(h, name+"\x00"+strconv.FormatInt(fi.Size(), 10)+"\x00")
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return Source{}, err
		}
		size += n
	}
	abs, _ := filepath.Abs(dir)
	return Source{Path: abs, SHA256: hex.EncodeToString(h.Sum(nil)), Format: "dhara", Size: size}, nil
}
