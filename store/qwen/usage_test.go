package qwen

import (
	"testing"

	"skein/model"
)

// TestUsageOf pins each usageMetadata member to its place: the cached
// tokens out of the prompt's, the thoughts as reasoning.
func TestUsageOf(t *testing.T) {
	got := usageOf([]byte(`{"promptTokenCount":100,"candidatesTokenCount":20,"thoughtsTokenCount":5,"cachedContentTokenCount":30,"totalTokenCount":125,"other":1}`))
	want := model.Usage{Input: 70, CacheRead: 30, Output: 20, Reasoning: 5, Total: 125}
	if got == nil || *got != want {
		t.Errorf("usageOf = %+v, want %+v", got, want)
	}
	if usageOf([]byte(`[1]`)) != nil || usageOf(nil) != nil {
		t.Error("usageOf of no object is not nil")
	}
}
