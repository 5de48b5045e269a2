package claude

import (
	"testing"

	"skein/internal/formattest"
)

// TestDetectNotQwen: Qwen Code's chats are linked by uuid and sessionId
// too; its records' provenance and systemPayload tell them apart.
func TestDetectNotQwen(t *testing.T) {
	formattest.Answers(t, formattest.FirstLine(backend.Detect), map[string]bool{
		`{"uuid":"a","parentUuid":null,"sessionId":"s","timestamp":"t","type":"user","provenance":"real_user","cwd":"/p","version":"0.24.4","message":{"role":"user","parts":[{"text":"hi"}]}}`: false,
		`{"uuid":"a","parentUuid":null,"sessionId":"s","type":"system","subtype":"ui_telemetry","systemPayload":{}}`:                                                                            false,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"a","sessionId":"s"}`:                                                             true,
	})
}
