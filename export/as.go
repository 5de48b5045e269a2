package export

import (
	"fmt"
	"io"
	"time"

	"skein/model"
)

// Formats are the export formats, as --format and the TUI name them.
var Formats = []string{"json", "markdown", "html"}

// As writes the session in format (json, markdown or md, html): the one
// entry the command line and the TUI share. allBranches is markdown's
// choice; html always holds every branch, behind a selector.
func As(w io.Writer, s *model.Session, format string, allBranches bool, now time.Time) error {
	switch format {
	case "json":
		return JSON(w, s, now)
	case "html":
		return HTML(w, s, Options{AllBranches: true, Location: time.Local})
	case "markdown", "md":
		return Markdown(w, s, Options{AllBranches: allBranches, Location: time.Local})
	}
	return fmt.Errorf("no export format %q (formats: json, markdown, html)", format)
}
