package cli

import (
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"skein/store"
	"skein/tui"
)

// runTUI opens the UI on the paths named, or the default store; on the
// bundled demo sessions when asked, or when there are no sessions anywhere.
// With an entry (skein FILE --entry ID, as skein search prints it), the
// session named opens with that entry in focus.
func runTUI(paths []string, demo bool, entry string, env store.Env, stdout io.Writer) error {
	opts, cleanup, err := tuiOptions(paths, demo, env)
	if err != nil {
		return err
	}
	defer cleanup()
	if entry != "" && opts.Open == "" {
		return usagef("--entry needs one session to open: skein FILE --entry ID")
	}
	opts.OpenAt = entry
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
	var looked []string
	if len(roots) == 0 {
		roots = env.DefaultRoots()
		if files, _ := store.Discover(roots); len(files) == 0 {
			demo, looked = true, roots
		}
	}
	cleanup := func() {}
	trash := ""
	if demo {
		dir, err := tui.CopyDemo()
		if err != nil {
			return tui.Options{}, cleanup, fail(1, "cannot set up the demo: %v", err)
		}
		// The demo's deletes go to a trash of its own, thrown away with
		// the copy: the demo says its changes are, and its sessions have
		// no business in the user's trash.
		trash, err = os.MkdirTemp("", "skein-demo-trash-")
		if err != nil {
			os.RemoveAll(dir)
			return tui.Options{}, cleanup, fail(1, "cannot set up the demo: %v", err)
		}
		cleanup = func() { os.RemoveAll(dir); os.RemoveAll(trash) }
		// A closed terminal ends skein without running deferred calls.
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			<-hup
			cleanup()
			os.Exit(129)
		}()
		roots = []string{dir}
	}
	cwd, _ := os.Getwd()
	return tui.Options{Roots: roots, Demo: demo, DemoLooked: looked, Home: env.Home, Cwd: cwd, Open: open, TextIndex: textIndexDir(env), Trash: trash}, cleanup, nil
}
