// Command skein finds, reads and works on coding agents' session logs.
// This file only wires: the command line and the UI are package cli's.
package main

import (
	"os"
	"runtime/pprof"

	"skein/cli"
	_ "skein/store/formats" // the session formats skein reads: each registers itself
)

// version is set by the linker for releases (-X main.version=...).
var version = "0.1.0-dev"

func main() {
	cli.Version = version
	// SKEIN_CPUPROFILE=FILE writes a CPU profile of the run, for development.
	if path := os.Getenv("SKEIN_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			code := cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
