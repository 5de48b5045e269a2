package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// args holds a command's flags and positional arguments. Flags may stand
// before or after the positionals; "--" ends the flags.
type args struct {
	flags map[string]string
	pos   []string
}

// parseArgs reads argv against the flags a command takes: true for a flag
// that takes a value, false for a switch.
func parseArgs(argv []string, spec map[string]bool) (*args, error) {
	a := &args{flags: map[string]string{}}
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		if arg == "--" {
			a.pos = append(a.pos, argv[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			a.pos = append(a.pos, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		takesValue, known := spec[name]
		if !known {
			return nil, usagef("unknown flag %s", arg)
		}
		switch {
		case takesValue && !hasValue:
			if i+1 >= len(argv) {
				return nil, usagef("flag --%s needs a value", name)
			}
			i++
			value = argv[i]
		case !takesValue && hasValue:
			return nil, usagef("flag --%s takes no value", name)
		case !takesValue:
			value = "true"
		}
		a.flags[name] = value
	}
	return a, nil
}

func (a *args) has(name string) bool { _, ok := a.flags[name]; return ok }

func (a *args) get(name string) string { return a.flags[name] }

// number reads a numeric flag, or def when it is absent.
func (a *args) number(name string, def float64) (float64, error) {
	v, ok := a.flags[name]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return 0, usagef("--%s wants a number ≥ 0, not %q", name, v)
	}
	return f, nil
}

// one returns the single positional argument a command needs.
func (a *args) one(what string) (string, error) {
	switch len(a.pos) {
	case 0:
		return "", usagef("missing %s", what)
	case 1:
		return a.pos[0], nil
	}
	return "", usagef("too many arguments: %s", strings.Join(a.pos[1:], " "))
}
