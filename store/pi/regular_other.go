//go:build !unix

package pi

const oNonblock = 0
