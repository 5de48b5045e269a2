// Package writeback starts the disk's writing of a file's bytes early, so
// that a sync at the end waits for little.
package writeback
