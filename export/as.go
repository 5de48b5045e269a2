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
// entry the command line and the TUI share. o.AllBranches is markdown's
// choice; html always holds every branch, behind a selector. With
// o.Redact the secrets are replaced: markdown and html say how many at
// their top; json, which stays Dhara's model (importable), cannot, and
// As gives what it removed (redact's Summary) to its caller to say.
func As(w io.Writer, s *model.Session, format string, o Options, now time.Time) (secrets string, err error) {
	switch format {
	case "json":
		if !o.Redact {
			return "", JSON(w, s, now)
		}
		return redactedJSON(w, s, now)
	case "html":
		o.AllBranches = true
		return "", HTML(w, s, o)
	case "markdown", "md":
		return "", Markdown(w, s, o)
	}
	return "", fmt.Errorf("no export format %q (formats: json, markdown, html)", format)
}
