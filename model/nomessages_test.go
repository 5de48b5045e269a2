package model

import "testing"

// A record's first message is the text given, NoMessages for none.
func TestSetFirstMessage(t *testing.T) {
	var info SessionInfo
	info.SetFirstMessage("")
	if info.FirstMessage != "(no messages)" {
		t.Errorf("none: %q", info.FirstMessage)
	}
	info.SetFirstMessage("hi")
	if info.FirstMessage != "hi" {
		t.Errorf("text: %q", info.FirstMessage)
	}
}
