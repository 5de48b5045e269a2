package model

import "testing"

func TestMark(t *testing.T) {
	got := Mark(" model:\nx\t")
	if len(got) != 1 || got[0].Text != "[model: x]" || got[0].Role != "dim" {
		t.Errorf("Mark = %+v, want one dim part [model: x]", got)
	}
}
