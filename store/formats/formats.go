// Package formats wires the session formats skein reads: importing it
// registers each format's backend with the store (each package's init), as
// importing an image decoder registers it with package image. main.go
// imports it, and so do the tests of the packages that open sessions. A new
// format is a package of its own, added here.
package formats

import (
	_ "skein/store/claude"   // Claude Code's project logs
	_ "skein/store/cline"    // Cline's sessions (CLI and VS Code extension)
	_ "skein/store/codex"    // Codex CLI's rollouts
	_ "skein/store/copilot"  // GitHub Copilot CLI's session folders
	_ "skein/store/cursor"   // Cursor's agent transcripts
	_ "skein/store/dhara"    // the second seed's session folders
	_ "skein/store/dhara05"  // the real Dhara agent's one-file sessions
	_ "skein/store/droid"    // Factory Droid's sessions
	_ "skein/store/gemini"   // Gemini CLI's chat files
	_ "skein/store/kilo"     // Kilo CLI's database (OpenCode's format, read through OpenCode's backend)
	_ "skein/store/kimi"     // Kimi Code's wire files
	_ "skein/store/kimicli"  // the legacy (Python) Kimi CLI's wire files
	_ "skein/store/omp"      // oh-my-pi's sessions (pi's format, read through pi's backend)
	_ "skein/store/openclaw" // OpenClaw's sessions (pi's format, read through pi's backend)
	_ "skein/store/opencode" // OpenCode's SQLite database, and its older JSON files
	_ "skein/store/pi"       // pi's session files, and any file no format claims
	_ "skein/store/qwen"     // Qwen Code's chats
)
