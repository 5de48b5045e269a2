package convert

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/model"
	"skein/store"
	"skein/store/chatgpt"
	"skein/store/claudeai"
	"skein/store/dhara"
	"skein/store/pi"
)

// Options say how ImportFile reads a file and where it writes.
type Options struct {
	Format string // one of Formats; "" guesses it from the file
	To     string // "dhara" (the default) or "pi"
	// Out is the folder the new sessions go in; "" is the target's
	// default store (Dhara's sessions folder; for pi, the folder of the
	// session's cwd in pi's store, or pi's session folder when one is set).
	Out string
	// Cwd is, for pi, the session's folder when the source names none; ""
	// is Env's working folder.
	Cwd string
	Env store.Env
	Now time.Time // zero: the time of the call

	piImports piImports // what pi's folder holds from imports, read once
}

// Result is one session an import wrote, or found written before.
type Result struct {
	Path    string `json:"path"`
	Format  string `json:"format"`
	Guessed bool   `json:"guessed,omitempty"`
	Title   string `json:"title,omitempty"`
	// Already: the same bytes were imported before, into Path; nothing was
	// written. Earlier: the same file was imported before with other bytes
	// (it grew), into Earlier; this one is new.
	Already bool   `json:"already,omitempty"`
	Earlier string `json:"earlier,omitempty"`
	// Note is what the user should know of where it went (a folder name
	// made safe).
	Note string `json:"note,omitempty"`
	// Listed is what the list calls a conversation of an export: its
	// title, else its first message ("" for a file of one session).
	Listed string `json:"-"`
}

// Skipped is a conversation of an export that was not imported, and
// why (a conversation whose messages the export does not hold).
type Skipped struct {
	Item   string `json:"id,omitempty"`
	Title  string `json:"title,omitempty"`
	Reason string `json:"reason"`
}

// Targets are the stores `session import --to` writes into.
var Targets = []string{"dhara", "pi"}

// ImportFile imports the session (or, for an export holding many, each
// conversation) of the file at path into a new session of the target
// store, recording the file's path and hash; what was imported from the
// same bytes before is found, not written again.
func ImportFile(path string, o Options) ([]Result, error) {
	out, _, err := ImportFileSkipping(path, o)
	return out, err
}

// ImportFileSkipping is ImportFile that also names the conversations of an
// export it did not import. When it imported none, the error says so and
// skipped names them all.
func ImportFileSkipping(path string, o Options) (_ []Result, skipped []Skipped, _ error) {
	if o.To == "" {
		o.To = "dhara"
	}
	if !slices.Contains(Targets, o.To) {
		return nil, nil, fmt.Errorf("no store %q to import into (stores: %s)", o.To, strings.Join(Targets, ", "))
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	// A session a container holds (OpenCode's "<db>#<id>") is no file of
	// its own: it is read through its format's backend, and its source's
	// bytes are the container's.
	container, cb, contained := store.ContainedIn(path)
	statPath := path
	guessed := false
	if contained {
		statPath = container
		if o.Format == "" {
			o.Format, _ = store.Importer(cb)
			guessed = true
		}
	}
	st, err := os.Stat(statPath)
	if err != nil {
		return nil, nil, err
	}
	folder := st.IsDir()
	if folder && !isDharaFolder(path) {
		// Another agent's session folder (Copilot CLI's) is read through
		// its own files, as the format's backend reads it.
		if f, ok := folderSessionFile(path); ok {
			path, folder = f, false
			if st, err = os.Stat(path); err != nil {
				return nil, nil, err
			}
		}
	}
	if !folder && !st.Mode().IsRegular() {
		return nil, nil, errors.New("not a regular file")
	}
	if !folder && o.Format == "dhara" {
		return nil, nil, errors.New("a Dhara session is a folder (name the folder that holds its meta.json)")
	}
	switch {
	case folder:
		guessed = o.Format == ""
		if o.Format, err = folderFormat(path, o.Format); err != nil {
			return nil, nil, err
		}
	case o.Format == "":
		if o.Format, err = GuessFormat(path); err != nil {
			return nil, nil, err
		}
		guessed = true
	}
	if !slices.Contains(Formats(), o.Format) {
		return nil, nil, fmt.Errorf("no importer for the format %q (formats: %s)", o.Format, strings.Join(Formats(), ", "))
	}
	// The file's hash is made while it is parsed: each takes a core.
	var src Source
	var srcErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if folder {
			src, srcErr = folderSource(path)
		} else {
			src, srcErr = SourceOf(path, o.Format)
		}
	}()
	items, skipped, err := openItems(path, o.Format)
	<-done
	if srcErr != nil {
		return nil, nil, srcErr
	}
	if err != nil {
		return nil, skipped, err
	}
	var out []Result
	for _, it := range items {
		src := src
		src.Item, src.ItemSHA256 = it.item, it.sha
		r, err := importOne(it.s, src, &o)
		if err != nil {
			return out, skipped, err
		}
		if it.item != "" {
			r.Listed = r.Title
			if r.Listed == "" {
				r.Listed = it.s.Info.FirstMessage
			}
		}
		r.Format, r.Guessed = o.Format, guessed
		out = append(out, r)
	}
	return out, skipped, nil
}

type importItem struct {
	s    *model.Session
	item string // the conversation's id in an export of many; "" for a file of one
	sha  string // the hash of the conversation as read (an export of many)
}

// openItems opens the sessions a file of the format holds: an export of
// many conversations gives one each (read as the pi lines its reader
// writes), every other file one.
func openItems(path, format string) (_ []importItem, skipped []Skipped, _ error) {
	var convs []conversation
	switch format {
	case "chatgpt":
		cs, sk, err := chatgpt.OpenExport(path)
		for _, c := range sk {
			skipped = append(skipped, Skipped{c.ID, c.Title, c.Reason})
		}
		if err != nil {
			return nil, skipped, err
		}
		for _, c := range cs {
			convs = append(convs, conversation{c.ID, c.Title, c.Lines})
		}
	case "claude-ai":
		cs, err := claudeai.Open(path)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range cs {
			convs = append(convs, conversation{c.ID, c.Title, c.Lines})
		}
	default:
		s, err := OpenAs(path, format)
		if err != nil {
			return nil, nil, err
		}
		return []importItem{{s: s}}, nil, nil
	}
	out := make([]importItem, 0, len(convs))
	for k, c := range convs {
		s, err := pi.Parse(c.lines)
		if err != nil {
			return nil, skipped, fmt.Errorf("conversation %d: %w", k+1, err)
		}
		info, _ := pi.ScanInfo(c.lines, 0)
		info.Path, info.Format, info.Cwd = path, format, ""
		if c.title != "" {
			info.Name = c.title
		}
		item := c.id
		if item == "" {
			item = fmt.Sprintf("#%d", k+1)
		}
		if info.MessageCount == 0 {
			// One rule for every export of many: a conversation with no
			// message is named as skipped, not made an empty session
			// (claude.ai's were, ChatGPT's were skipped).
			skipped = append(skipped, Skipped{Item: c.id, Title: c.title, Reason: "it holds no messages"})
			continue
		}
		sum := sha256.Sum256(c.lines)
		out = append(out, importItem{s: s.Domain(info), item: item, sha: hex.EncodeToString(sum[:])})
	}
	if len(out) == 0 {
		return nil, skipped, fmt.Errorf("no conversation with messages: %d skipped", len(skipped))
	}
	return out, skipped, nil
}

type conversation struct {
	id, title string
	lines     []byte
}

func importOne(s *model.Session, src Source, o *Options) (Result, error) {
	title := s.Name()
	if title == "" {
		title = s.Info.Name
	}
	if o.To == "pi" {
		note := ""
		// The source's cwd as it recorded it (another machine's, maybe
		// Windows'), else the folder named here, made absolute.
		cwd := s.Info.Cwd
		if cwd == "" {
			cwd = o.Cwd
			if cwd == "" {
				cwd = o.Env.WorkingDirPath
			}
			if abs, err := filepath.Abs(cwd); err == nil {
				cwd = abs
			}
		}
		root, dir := o.Out, o.Out
		if root == "" {
			root = o.Env.PiSessionRoot()
			dir = root
			if o.Env.PiSessionDir == "" && !o.Env.PiSettingsSessionDir() {
				var changed bool
				if dir, changed = pi.SafeFolderFor(root, cwd); changed {
					note = "the session's cwd holds control characters, which became _ in its folder's name (pi's own name for the cwd would hold them; pi lists the session with all sessions, not in that cwd)"
				}
			}
		}
		if o.piImports == nil {
			o.piImports = piImportsUnder(root) // once for every conversation of an export
		}
		same, earlier := o.piImports.find(src)
		if same != "" {
			return Result{Path: same, Already: true, Title: title}, nil
		}
		path, _, err := pi.WriteFromSession(dir, s, o.Now, cwd, src.JSON())
		return Result{Path: path, Earlier: earlier, Title: title, Note: note}, err
	}
	root := o.Out
	if root == "" {
		root = o.Env.DharaSessionRoot()
	}
	dir, earlier, already, err := importDhara(root, s, src, o.Now)
	return Result{Path: dir, Earlier: earlier, Already: already, Title: title}, err
}

// importDhara writes s into the Dhara folder root as a new session recording
// its source src, or finds where the same bytes went before (already); earlier
// is a session imported from the same path with other bytes.
func importDhara(root string, s *model.Session, src Source, now time.Time) (dir, earlier string, already bool, err error) {
	same, earlier := Imported(root, src)
	if same != "" {
		return same, "", true, nil
	}
	meta := []dhara.Field{{Key: "importedFrom", Value: src.JSON()}}
	if b, ok := dhara.CopyOf(s, meta); ok {
		// A Dhara session into another folder: its own lines.
		dir, err = dhara.WriteNew(root, b)
		return dir, earlier, false, err
	}
	dir, err = dhara.WriteFromSession(root, s, now, meta)
	return dir, earlier, false, err
}

// ImportedPi finds, under pi's folder root, the session imported from the
// same bytes (same), and one imported from the same path with other bytes
// (earlier): the data of a file's skein.importedFrom entry, its second
// line.
func ImportedPi(root string, src Source) (same, earlier string) {
	return piImportsUnder(root).find(src)
}

// piImports are the sessions under a pi folder that an import wrote, with
// their import records.
type piImports []struct {
	path string
	from []byte
}

func piImportsUnder(root string) piImports {
	out := piImports{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		if from := importedFromOf(p); from != nil {
			out = append(out, struct {
				path string
				from []byte
			}{p, from})
		}
		return nil
	})
	return out
}

func (im piImports) find(src Source) (same, earlier string) {
	for _, r := range im {
		switch match(r.from, src) {
		case 2:
			return r.path, ""
		case 1:
			earlier = r.path
		}
	}
	return "", earlier
}

// importedFromOf is the data of the file's skein.importedFrom entry (its
// second line), nil when it has none.
func importedFromOf(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if _, err := r.ReadSlice('\n'); err != nil {
		return nil
	}
	l, err := r.ReadSlice('\n')
	if err != nil && len(l) == 0 {
		return nil
	}
	l = bytes.TrimSpace(l)
	if !jscan.Valid(l) {
		return nil
	}
	if t, _ := jscan.Unquote(jscan.Member(l, "customType")); t != pi.ImportedFromType {
		return nil
	}
	return bytes.Clone(jscan.Member(l, "data"))
}

// match is 2 when an import's record from names the same bytes (and the
// same conversation) as src, 1 when it names the same file with other
// bytes, else 0.
func match(from []byte, src Source) int {
	sha, _ := jscan.Unquote(jscan.Member(from, "sha256"))
	path, _ := jscan.Unquote(jscan.Member(from, "path"))
	item, _ := jscan.Unquote(jscan.Member(from, "item"))
	if item != src.Item {
		return 0
	}
	if src.Item != "" {
		// A conversation of an export: the same if it is, whatever else
		// of the export changed.
		sha, _ = jscan.Unquote(jscan.Member(from, "itemSha256"))
		if sha == src.ItemSHA256 && sha != "" {
			return 2
		}
	}
	switch {
	case sha == src.SHA256 && sha != "":
		return 2
	case path == src.Path && path != "":
		return 1
	}
	return 0
}
