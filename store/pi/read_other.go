//go:build !linux

package pi

import "os"

func readFile(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, nil, err
}
