//go:build !unix

package readfile

const oNonblock = 0
