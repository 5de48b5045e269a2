//go:build !linux

package safewrite

// RenameNoReplace gives a file or a folder a new name that must not exist;
// without a rename that refuses to replace, a look first.
func RenameNoReplace(old, new string) error { return renameIfAbsent(old, new) }
