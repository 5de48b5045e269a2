// Command genstore writes a large synthetic pi store for the at-scale
// targets of issue 10 (nothing it writes is committed). For the full-text
// search benchmarks, from the repository's root:
//
//	go run ./testdata/genstore -out /tmp/skein-5g-v -sessions 10000 -gb 5
//
// The sessions are internal/synth's: pi's v3 format as pi writes it, a
// linear chain of turns (user message; assistant messages with thinking,
// text and tool calls of read, bash, edit and grep, each with its result;
// a closing reply with a code block). With -vocab (the default) their
// text is drawn from a large vocabulary: the words of the sessions' text
// in the fixtures (-words: testdata/pi and the Claude Code and Codex
// samples, read each run; a folder that is missing is skipped, with a
// note) and -pseudo made-up words, weighed Zipf-like (-zipf), with
// identifiers, paths, numbers and code among them, `wombat-<digits>` in
// about 1 message of 200 and a run of 30 or more lowercase letters in about
// 1 of 1,000, for the regular-expression benchmarks. -vocab=false writes
// the small vocabulary of the tests' stores instead. The same flags and
// fixtures give the same bytes; -workers does not change them.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"skein/internal/synth"
)

func main() {
	out := flag.String("out", "", "the store's folder (made)")
	n := flag.Int("sessions", 10000, "how many sessions")
	gb := flag.Float64("gb", 5, "about how many gigabytes in all")
	seed := flag.Uint64("seed", 1, "the generator's seed")
	vocab := flag.Bool("vocab", true, "draw the text from a large vocabulary (false: synth's small one)")
	roots := flag.String("words", "testdata/pi,/work/shared/samples", "comma-separated files and folders whose .jsonl sessions' words join the vocabulary")
	pseudo := flag.Int("pseudo", 150000, "how many made-up words join the vocabulary")
	zipf := flag.Float64("zipf", 1.2, "the exponent s of the words' weights 1/(rank+2.7)^s")
	workers := flag.Int("workers", 0, "sessions written at once (0: one per CPU)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genstore: -out DIR is needed")
		os.Exit(2)
	}
	o := synth.StoreOptions{Workers: *workers}
	began := time.Now()
	if *vocab {
		fixture, files, missing, err := synth.FixtureWords(strings.Split(*roots, ",")...)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genstore:", err)
			os.Exit(1)
		}
		for _, m := range missing {
			fmt.Fprintf(os.Stderr, "genstore: %s is missing: its words are not in the vocabulary\n", m)
		}
		o.Vocab = synth.NewVocab(fixture, *pseudo, *zipf, *seed)
		fmt.Fprintf(os.Stderr, "genstore: vocabulary of %d words: %d from %d fixture files, %d made up\n", o.Vocab.Len(), o.Vocab.Fixture, files, o.Vocab.Len()-o.Vocab.Fixture)
	}
	if err := synth.StoreWith(*out, *n, int64(*gb*(1<<30)), *seed, o); err != nil {
		fmt.Fprintln(os.Stderr, "genstore:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genstore: %d sessions in %s\n", *n, time.Since(began).Round(time.Millisecond))
}
