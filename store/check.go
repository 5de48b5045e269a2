package store

import (
	"skein/model"
	"skein/store/pi"
)

var formatNames = map[Format]string{
	FormatClaude:  "a Claude Code log",
	FormatCodex:   "a Codex rollout",
	FormatDhara05: "a Dhara 0.5 session",
}

// Check reads the session at path and lists its problems, as doctor
// reports them, with the format it was read as (Backend.Check); err is set
// when it could not be read.
func Check(path string) ([]model.Diagnostic, Format, error) { return find(path).Check(path) }

// Check is pi's: the file's bytes as pi reads them, and what else the
// file looks like when it is not pi's.
func (piBackend) Check(path string) ([]model.Diagnostic, Format, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, FormatUnknown, err
	}
	format := Detect(data)
	if format != FormatPi {
		msg := "missing or invalid session header: not a pi session"
		if name, ok := formatNames[format]; ok {
			msg = "not a pi session (it looks like " + name + ")"
		}
		return []model.Diagnostic{{Line: 1, Msg: msg}}, format, nil
	}
	s, err := pi.Parse(data)
	if err != nil {
		return []model.Diagnostic{{Line: 1, Msg: err.Error()}}, format, nil
	}
	return s.Diagnostics, format, nil
}
