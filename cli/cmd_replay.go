package cli

import (
	"fmt"
	"time"

	"skein/model"
	"skein/tui/transcript"
)

var replayCommand = command{
	name: "session replay",
	args: "REF [--leaf ID] [--speed X] [--no-delay]",
	help: "the path entry by entry at its original pace (long gaps capped)",
	run:  (*cli).replay,
}

func (c *cli) replay(argv []string) error {
	var speed float64
	a, s, _, l, err := c.sessionArgs(argv, map[string]bool{"speed": true, "no-delay": false}, func(a *args) (err error) {
		if speed, err = a.number("speed", 1); err != nil || speed <= 0 {
			return usagef("--speed wants a number above 0 (0.5 is half speed, 16 sixteen times)")
		}
		return nil
	}, false)
	if err != nil {
		return err
	}
	o, w := c.styledOutput()
	defer w.Flush()
	steps := s.Replay(l)
	for i, st := range steps {
		if !a.has("no-delay") {
			w.Flush()
			time.Sleep(model.ReplayDelay(steps, i, speed))
		}
		clock := "[" + model.ReplayClock(steps, i) + "] "
		fmt.Fprintf(w, "%s%s\n\n", o.Dim(clock), transcript.RenderItem(s, transcript.ReplayItem(st), o))
	}
	return nil
}
