package store

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"

	"skein/internal/cachefile"
	"skein/internal/stamp"
)

// The list's index: per session file, what the list shows of it and the
// change token its format defines (Backend.ListCached), kept in the
// user's cache folder so that a warm list reads no unchanged file and a
// file that grew only from where the index stopped.
//
// It is a file of skein's own (a count, then each path and its state,
// varint-prefixed), written whole to a temporary name, synced
// and renamed, never changed in place: several skein processes at once
// each read the last one written and write their own, and a reader never
// sees half of one. A checksum covers it; a missing, corrupt or older
// index is ignored and rebuilt. It is a cache: every entry is checked
// against its file before it is used, so a lost update costs a re-read,
// never a wrong list. (No embedded database: the whole index is read at
// start and written at the end, a few MB for 10,000 sessions, and a
// pure-Go store would add a dependency and its own files for no query it
// would serve.)

// cacheMagic starts an index file; its last byte is the version.
const cacheMagic = "skein-list-index\x00\x01"

// Cache is the list's index in a folder.
type Cache struct {
	path    string
	mu      sync.Mutex
	entries map[string][]byte // path -> the backend's state
	used    map[string]bool   // the entries this run looked at or made
	dirty   bool
}

// CacheDir is the folder skein keeps its index in: $XDG_CACHE_HOME/skein,
// else ~/.cache/skein.
func CacheDir(env Env) string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "skein")
	}
	return filepath.Join(env.Home, ".cache", "skein")
}

// OpenCache reads the index in dir; one that is missing or cannot be read
// is an empty one.
func OpenCache(dir string) *Cache {
	c := &Cache{path: filepath.Join(dir, "list.idx"), entries: map[string][]byte{}, used: map[string]bool{}}
	// A name there that is not a regular file (a pipe would block the
	// read forever) is no index; the next Save replaces it.
	if data, err := cachefile.ReadFile(c.path); err == nil {
		if entries, ok := decodeCache(data); ok {
			c.entries = entries
		}
	}
	return c
}

// seal frames the body of a file of the cache folder (the list's index, a
// memo), a count of entries and the entries: magic, whose last byte is the
// version, then the body's CRC-32, then the body.
func seal(magic string, body []byte) []byte {
	out := make([]byte, 0, len(magic)+4+len(body))
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(body))
	return append(out, body...)
}

// unseal reads a file seal framed with magic up to its entries: the
// decoder of its body and the count it starts with. It is false for a file
// of another version or format, or one cut short or changed: no entry of
// it is trusted then.
func unseal(magic string, data []byte) (stamp.Codec, int64, bool) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return stamp.Codec{}, 0, false
	}
	body := data[len(magic)+4:]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(magic):]) {
		return stamp.Codec{}, 0, false
	}
	d := stamp.Codec{B: body}
	n := d.ReadInt()
	if n < 0 || n > int64(len(body)) {
		return stamp.Codec{}, 0, false
	}
	return d, n, true
}

func decodeCache(data []byte) (map[string][]byte, bool) {
	d, n, ok := unseal(cacheMagic, data)
	if !ok {
		return nil, false
	}
	entries := make(map[string][]byte, n)
	for range n {
		k, v := d.ReadStr(), d.ReadStr()
		if d.Bad {
			return nil, false
		}
		entries[k] = []byte(v)
	}
	return entries, len(d.B) == 0
}

// get is the state kept for path, nil for none.
func (c *Cache) get(path string) []byte {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used[path] = true
	return c.entries[path]
}

// put keeps the state for path.
func (c *Cache) put(path string, state []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used[path] = true
	if !bytes.Equal(c.entries[path], state) {
		c.entries[path] = state
		c.dirty = true
	}
}

// Save writes the index when this run changed it: the entries it used,
// and the others it read that still name a file (a run over a part of the
// store keeps the rest). Errors are ignored: it is a cache.
func (c *Cache) Save() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return
	}
	keep := make(map[string][]byte, len(c.entries))
	for p, st := range c.entries {
		if c.used[p] {
			keep[p] = st
		} else if _, err := os.Lstat(p); err == nil {
			keep[p] = st
		}
	}
	e := stamp.Codec{}
	e.Int(int64(len(keep)))
	for p, st := range keep {
		e.Str(p)
		e.Str(string(st))
	}
	if cachefile.WriteFile(c.path, seal(cacheMagic, e.B)) != nil {
		return
	}
	c.dirty = false
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// listCache is the index List and Scan use; nil lists without one.
var (
	listCacheMu sync.Mutex
	listCache   *Cache
)

// UseCache makes List and Scan keep their records in c (nil: none).
func UseCache(c *Cache) {
	listCacheMu.Lock()
	defer listCacheMu.Unlock()
	listCache = c
}

func currentCache() *Cache {
	listCacheMu.Lock()
	defer listCacheMu.Unlock()
	return listCache
}
