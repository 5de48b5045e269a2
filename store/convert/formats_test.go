package convert

// Every format registered, as main.go has them: the read-only formats
// this package does not import (Gemini CLI's, Copilot CLI's, Qwen Code's)
// are imported through their backends.
import _ "skein/store/formats"
