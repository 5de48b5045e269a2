package tui

import (
	"errors"
	"os"
	"os/exec"

	tea "charm.land/bubbletea/v2"

	"skein/store"
)

// resumeCommand is how a person resumes the session at path in its agent
// (b's), as a line to paste into a shell, in the session's folder cwd.
func resumeCommand(b store.Backend, path, cwd string) string { return store.ResumeLine(b, path, cwd) }

// resumeReadyMsg is the agent found and its command made, or why not.
type resumeReadyMsg struct {
	b       store.Backend
	path    string
	cwd     string // the session's folder, for the line that is copied
	program string
	cmd     *exec.Cmd // nil: the program is not on the PATH
	note    string    // said when the agent is back: it ran elsewhere
}

// resumedMsg says pi exited.
type resumedMsg struct {
	path string
	err  error
	note string
}

// resume hands the terminal to the user's agent (pi for a pi session) on
// the session at path, run in the session's folder (skein's own when that
// folder is gone), and comes back when it exits. This is the one place
// skein runs pi. The program is looked for here, in a command: the lookup
// reads the PATH's folders.
func resume(b store.Backend, path, cwd string) tea.Cmd {
	if err := store.Unsupported(b, store.ActResume); err != nil {
		return func() tea.Msg { return done("", err) }
	}
	return func() tea.Msg {
		prog, args := store.ResumeOf(b, path)
		bin, err := exec.LookPath(prog)
		if err != nil {
			return resumeReadyMsg{b: b, path: path, cwd: cwd, program: prog}
		}
		c := exec.Command(bin, args...)
		note := ""
		if st, err := os.Stat(cwd); cwd != "" && err == nil && st.IsDir() {
			c.Dir = cwd
		} else if cwd != "" {
			here, _ := os.Getwd()
			note = "the session's folder " + cwd + " is gone: " + prog + " ran in " + here
		}
		return resumeReadyMsg{b: b, path: path, program: prog, cmd: c, note: note}
	}
}

// resumeReady runs the agent, or, without one, shows the command and
// copies it.
func (m *Model) resumeReady(msg resumeReadyMsg) tea.Cmd {
	if msg.cmd == nil {
		line := resumeCommand(msg.b, msg.path, msg.cwd)
		return tea.Batch(tea.SetClipboard(line), status(msg.program+" is not on the PATH; copied: "+line))
	}
	path, note := msg.path, msg.note
	return tea.ExecProcess(msg.cmd, func(err error) tea.Msg { return resumedMsg{path, err, note} })
}

// resumed reads the session again, in the list and, if it is open, on its
// screen: pi may have added to it.
func (m *Model) resumed(msg resumedMsg) tea.Cmd {
	cmds := []tea.Cmd{func() tea.Msg {
		if in := listRecord(msg.path); in != nil {
			return relistMsg{*in}
		}
		return nil
	}}
	if m.session != nil && m.session.info.Path == msg.path {
		cmds = append(cmds, loadSession(msg.path))
	}
	switch {
	case msg.err != nil:
		cmds = append(cmds, showError("the agent", msg.err))
	case msg.note != "":
		cmds = append(cmds, showError("note", errors.New(msg.note)))
	}
	return tea.Batch(cmds...)
}

// relistMsg is a session's list record read again.
type relistMsg struct{ info store.Info }

// openFile opens the session file skein was started on (skein FILE); q then
// shows the sessions of its folder.
func openFile(path, at string) tea.Cmd {
	return func() tea.Msg {
		in := listRecord(path)
		if in == nil {
			return errorMsg(path + " is not a session skein can read")
		}
		return openMsg{info: in, at: at}
	}
}
