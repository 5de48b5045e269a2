// Package cli is skein's command line: the commands (a file each, with
// its flags, usage and test), their dispatch and exit statuses, and the
// start of the UI when no command is named.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"skein/internal/sanitize"
	"skein/store"
)

// Version is what skein --version prints; main sets it (the linker sets
// main's for releases).
var Version = "0.1.0-dev"

// exitError carries an exit status with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func fail(code int, format string, a ...any) error {
	return &exitError{code, fmt.Errorf(format, a...)}
}

// Run is the whole program; it returns the exit status.
func Run(argv []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// A session the read commands mapped (store.OpenMapped) faults where the
	// file was cut short under them: a clear message, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer catchFault(stderr, &code)
	// The list's index in the user's cache folder (SKEIN_INDEX=off: none).
	if os.Getenv("SKEIN_INDEX") != "off" {
		c := store.OpenCache(store.CacheDir(store.OSEnv()))
		store.UseCache(c)
		defer func() {
			c.Save() // what this run learned; the TUI's scan saves as it ends too
			store.UseCache(nil)
		}()
	}
	// The user's price table, when there is one, for Claude Code's and
	// Codex's costs.
	defer usePrices(pricesPath(store.OSEnv()), stderr)()
	err := dispatch(argv, stdin, stdout, stderr)
	if err == nil {
		return 0
	}
	var ue *usageError
	var ee *exitError
	var nf *store.NotFoundError
	var ns *store.NotSession
	code = 1
	switch {
	case errors.As(err, &ue):
		code = 2
		fmt.Fprintf(stderr, "skein: %s (see skein --help)\n", sanitize.Line(err.Error()))
		return code
	case errors.As(err, &ee):
		code = ee.code
	case errors.As(err, &nf), errors.As(err, &ns):
		code = 1
	}
	// Messages quote ids, roles and paths from the files: sanitized here,
	// once for all of them.
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(stderr, "skein: %s\n", sanitize.Line(msg))
	}
	return code
}

// catchFault, deferred, turns a fault in a mapped session into a message
// and exit status 1; any other panic goes on.
func catchFault(stderr io.Writer, code *int) {
	if r := recover(); r != nil {
		if !store.IsFault(r) {
			panic(r)
		}
		fmt.Fprintln(stderr, "skein: the session file changed while it was read (was it cut short?); try again")
		*code = 1
	}
}

func dispatch(argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env := store.OSEnv()
	if len(argv) == 0 {
		return runTUI(nil, false, "", env, stdout)
	}
	switch argv[0] {
	case "--version", "-v", "version":
		fmt.Fprintf(stdout, "skein %s\n", Version)
		return nil
	case "--help", "-h", "help":
		fmt.Fprint(stdout, usageText())
		return nil
	}
	if cmd, rest := lookup(argv); cmd != nil {
		if asksHelp(rest) {
			fmt.Fprint(stdout, cmd.usage())
			return nil
		}
		if !cmd.server {
			oneShot()
		}
		c := &cli{env: env, stdin: stdin, stdout: stdout, stderr: stderr}
		if wantsJSON(rest) && isTerminal(stdout) {
			tj := &terminalJSON{w: stdout}
			c.stdout = tj
			err := cmd.run(c, rest)
			if ferr := tj.Flush(); err == nil {
				err = ferr
			}
			return err
		}
		return cmd.run(c, rest)
	}
	if argv[0] == "session" || argv[0] == "sessions" {
		if len(argv) >= 2 && asksHelp(argv[1:2]) {
			fmt.Fprintf(stdout, "Usage: skein session VERB ...\n\n  VERB: %s\n\nskein session VERB --help says more of each.\n", sessionVerbs())
			return nil
		}
		if len(argv) < 2 {
			return usagef("session needs a command: %s", sessionVerbs())
		}
		return usagef("unknown session command %q", argv[1])
	}
	a, err := parseArgs(argv, map[string]bool{"demo": false, "entry": true})
	if err != nil {
		return err
	}
	for _, p := range a.pos {
		if _, err := os.Stat(p); err != nil {
			return usagef("unknown command or path %q", p)
		}
	}
	return runTUI(a.pos, a.has("demo"), a.get("entry"), env, stdout)
}
