package model

// NoMessages is a list record's FirstMessage for a session with no message
// to show: the list shows it, and no title is made of it.
const NoMessages = "(no messages)"

// SetFirstMessage sets the record's FirstMessage to first, NoMessages when
// first is "".
func (info *SessionInfo) SetFirstMessage(first string) {
	info.FirstMessage = first
	if first == "" {
		info.FirstMessage = NoMessages
	}
}
