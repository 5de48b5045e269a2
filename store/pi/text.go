package pi

// Text is the text of a raw message: its string content, or its text blocks
// joined with newlines.
func Text(msg []byte) string { return ContentText(Member(msg, "content"), "\n") }

// ContentText is a string content, or its text blocks joined with sep.
func ContentText(content []byte, sep string) string {
	if s, ok := bstr(content); ok {
		return s
	}
	return joinText(content, sep)
}
