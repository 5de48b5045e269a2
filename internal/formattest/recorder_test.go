package formattest

import (
	"fmt"
	"os"
	"runtime"
	"testing"
)

// recorder is a testing.TB that keeps what a check reports instead of
// failing the test that runs the check, so that a test can see the check
// fail.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.Errorf("%s", fmt.Sprint(args...))
	runtime.Goexit()
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// run runs check on a recorder in a goroutine of its own (Fatalf ends it)
// and returns what it reported.
func run(t *testing.T, check func(tb testing.TB)) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failures
}
