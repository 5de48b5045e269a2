// Command genstore writes a large synthetic pi store for the at-scale
// targets of issue 10 (nothing it writes is committed):
//
//	go run ./testdata/genstore -out /tmp/skein-5g -sessions 10000 -gb 5
//
// The sessions are store/synth's: pi's format, with branches, tool calls
// and results, compactions' shapes and a small vocabulary.
package main

import (
	"flag"
	"fmt"
	"os"

	"skein/internal/synth"
)

func main() {
	out := flag.String("out", "", "the store's folder (made)")
	n := flag.Int("sessions", 10000, "how many sessions")
	gb := flag.Float64("gb", 5, "about how many gigabytes in all")
	seed := flag.Uint64("seed", 1, "the generator's seed")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genstore: -out DIR is needed")
		os.Exit(2)
	}
	if err := synth.Store(*out, *n, int64(*gb*(1<<30)), *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genstore:", err)
		os.Exit(1)
	}
}
