// Package jsjson writes JSON as JavaScript's JSON.stringify writes it, which
// is pi's format: no space; strings with only the quote, the backslash and
// control characters escaped (\b \f \n \r \t or \u00xx) and lone surrogates
// as \udxxx, while U+2028, U+2029, < > and & stay as they are (Go's
// encoding/json escapes those); numbers in JavaScript's shortest form. It
// also rewrites JSON read from a session file as
// JSON.stringify(JSON.parse(text)) does, after reading the bytes as Node
// reads UTF-8, so that skein's --json output is what pi itself would print.
package jsjson
