package model

import "testing"

// A model's stats key is provider/id, one key for no model.
func TestModelKey(t *testing.T) {
	if k := ModelKey("openai", "gpt-5"); k != "openai/gpt-5" {
		t.Errorf("named: %q", k)
	}
	if k := ModelKey("openai", ""); k != "(unknown model)" {
		t.Errorf("none: %q", k)
	}
}
