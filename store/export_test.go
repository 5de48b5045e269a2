package store

import "time"

// What the store's tests (package store_test, which registers the formats
// through store/formats) look at inside it.
var (
	FullReads    = &fullReads
	PartReads    = &partReads
	CacheMagic   = cacheMagic
	DecodeCache  = decodeCache
	OutputFS     = &outputFS
	TrashFS      = &trashFS
	EscapePath   = escapePath
	Device       = device
	CopyPrefix   = copyPrefix
	CurrentCache = currentCache
	FindBackend  = find
)

func (c *Cache) Get(path string) []byte        { return c.get(path) }
func (c *Cache) Put(path string, state []byte) { c.put(path, state) }

// ListBy lists the file at path with b through the kept state.
func ListBy(b Backend, path string, state []byte) ([]byte, Info, []byte, error) {
	return listBy(b, true, path, state, nil)
}

// SetMemoLockWait sets how long a memo's Save waits for the lock, until
// the function it returns is called.
func SetMemoLockWait(d time.Duration) (restore func()) {
	was := memoLockWait
	memoLockWait = d
	return func() { memoLockWait = was }
}
