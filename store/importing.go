package store

// The import pipeline itself (guessing a file's format, reading the
// exports, writing a Dhara folder or a pi file) is store/convert's: it
// reads and writes the formats, which store does not import.

// Importable reports whether a session of the format can be imported into
// Dhara's store (the read-only formats').
func Importable(format string) bool {
	switch Format(format) {
	case FormatClaude, FormatCodex, FormatDhara05:
		return true
	}
	return false
}
