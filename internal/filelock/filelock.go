// Package filelock is the advisory lock of an open file (a session file, a
// session folder, a temporary file) and whether a process still runs: what
// the writers of every format share to tell a live writer from a dead one.
package filelock
