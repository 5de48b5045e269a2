//go:build !linux

package pi

// mapFile maps nothing on this platform: sessions are read.
func mapFile(path string) ([]byte, error) { return nil, nil }
