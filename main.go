// Command skein finds, reads and works on coding agents' session logs.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"skein/internal/sanitize"
	"skein/store"
	"skein/tui"
)

// version is set by the linker for releases.
var version = "0.1.0-dev"

// exitError carries an exit status with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func fail(code int, format string, a ...any) error {
	return &exitError{code, fmt.Errorf(format, a...)}
}

func main() {
	// SKEIN_CPUPROFILE=FILE writes a CPU profile of the run, for development.
	if path := os.Getenv("SKEIN_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole program; it returns the exit status.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
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
		return runTUI(nil, false, env, stdout)
	}
	switch argv[0] {
	case "--version", "-v", "version":
		fmt.Fprintf(stdout, "skein %s\n", version)
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
		oneShot()
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
	a, err := parseArgs(argv, map[string]bool{"demo": false})
	if err != nil {
		return err
	}
	for _, p := range a.pos {
		if _, err := os.Stat(p); err != nil {
			return usagef("unknown command or path %q", p)
		}
	}
	return runTUI(a.pos, a.has("demo"), env, stdout)
}

// oneShot tunes the collector for a command that reads, prints and exits:
// no collection by heap growth (which would rescan every entry of a large
// session several times while it is read), only when memory nears a limit.
func oneShot() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		oneShotLimit = 256 << 20
		debug.SetMemoryLimit(oneShotLimit)
	}
}

// oneShotLimit is the memory limit oneShot set, 0 when it set none.
var oneShotLimit int64

// roomForSession raises oneShot's limit by the size of the session about to
// be read: its bytes are on the heap, where the limit counts them, for as
// long as the command runs, and without the room a session of a few
// hundred megabytes was collected again and again (250 MB: 7 to 10
// collections instead of 1; a 1 GB Dhara folder or Claude Code log, read
// under the bare 256 MB limit, hundreds). A folder's size is its files'.
func roomForSession(path string) {
	if oneShotLimit == 0 {
		return
	}
	if n := sessionBytes(path); n > 0 {
		debug.SetMemoryLimit(oneShotLimit + n + n/8)
	}
}

// roomForMapped lowers the limit roomForSession set, once a pi session has
// been mapped: its bytes are the page cache's, and what the heap keeps of
// it (the entries, the id table: 340 MB for 1 GB) is about a third of its
// size. Without this room a 1 GB session's context ran 578 collections, 3.5
// minutes instead of 12 s.
func roomForMapped(path string) {
	if oneShotLimit == 0 {
		return
	}
	if n := sessionBytes(path); n > 0 {
		debug.SetMemoryLimit(oneShotLimit + n/2)
	}
}

// sessionBytes is the size of a session file, or of the files of a
// session folder (Dhara's keeps its session in the files at its top).
func sessionBytes(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if st.Mode().IsRegular() {
		return st.Size()
	}
	if !st.IsDir() {
		return 0
	}
	des, _ := os.ReadDir(path)
	var n int64
	for _, de := range des {
		if fi, err := de.Info(); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
	}
	return n
}

// runTUI opens the UI on the paths named, or the default store; on the
// bundled demo sessions when asked, or when there are no sessions anywhere.
func runTUI(paths []string, demo bool, env store.Env, stdout io.Writer) error {
	opts, cleanup, err := tuiOptions(paths, demo, env)
	if err != nil {
		return err
	}
	defer cleanup()
	return tui.Run(opts)
}

// tuiOptions are the UI's options for the paths named: skein FILE (a
// session file of any format, or a Dhara session folder) opens that
// session at once, its folder's sessions behind it. cleanup removes the
// demo's copy.
func tuiOptions(paths []string, demo bool, env store.Env) (tui.Options, func(), error) {
	roots := paths
	open := ""
	if len(paths) == 1 {
		if st, err := os.Stat(paths[0]); err == nil && (st.Mode().IsRegular() || st.IsDir() && store.IsSessionDir(paths[0])) {
			open, _ = filepath.Abs(paths[0])
			roots = []string{filepath.Dir(open)}
		}
	}
	if len(roots) == 0 {
		roots = env.DefaultRoots()
		if files, _ := store.Discover(roots); len(files) == 0 {
			demo = true
		}
	}
	cleanup := func() {}
	if demo {
		dir, err := tui.CopyDemo()
		if err != nil {
			return tui.Options{}, cleanup, fail(1, "cannot set up the demo: %v", err)
		}
		cleanup = func() { os.RemoveAll(dir) }
		// A closed terminal ends skein without running deferred calls.
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			<-hup
			os.RemoveAll(dir)
			os.Exit(129)
		}()
		roots = []string{dir}
	}
	cwd, _ := os.Getwd()
	return tui.Options{Roots: roots, Demo: demo, Home: env.Home, Cwd: cwd, Open: open, TextIndex: textIndexDir(env)}, cleanup, nil
}
