package model

import "strings"

// ParsePatch is the changes of a patch in the `*** Begin Patch` format
// that Codex's apply_patch (and OpenCode's, Cline's and Copilot's) takes:
// an added file is a write of its `+` lines; a deleted file a delete; an
// updated file an edit per hunk, whose old text is its context and `-`
// lines and whose new text its context and `+` lines, which is how
// apply_patch finds where a hunk goes. A move leaves the old path deleted
// and the new one changed in a way not known.
func ParsePatch(p string) []FileChange {
	var out []FileChange
	var cur *FileChange
	var old, new []string
	inHunk := false
	flush := func() {
		if cur != nil && cur.Kind == ChangeEdit && inHunk {
			if len(old) == 0 {
				// A hunk with no context says nothing of where it goes.
				cur.Kind, cur.Edits = ChangeOpaque, nil
			} else {
				cur.Edits = append(cur.Edits, TextEdit{Old: strings.Join(old, "\n"), New: strings.Join(new, "\n")})
			}
		}
		old, new, inHunk = old[:0], new[:0], false
	}
	start := func(path string, kind ChangeKind) {
		flush()
		out = append(out, FileChange{Path: strings.TrimSpace(path), Kind: kind})
		cur = &out[len(out)-1]
	}
	for line := range strings.SplitSeq(strings.ReplaceAll(p, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "*** Add File: "):
			start(strings.TrimPrefix(line, "*** Add File: "), ChangeWrite)
		case strings.HasPrefix(line, "*** Delete File: "):
			start(strings.TrimPrefix(line, "*** Delete File: "), ChangeDelete)
		case strings.HasPrefix(line, "*** Update File: "):
			start(strings.TrimPrefix(line, "*** Update File: "), ChangeEdit)
		case strings.HasPrefix(line, "*** Move to: ") && cur != nil:
			flush()
			cur.Kind, cur.Edits = ChangeDelete, nil
			start(strings.TrimPrefix(line, "*** Move to: "), ChangeOpaque)
		case line == "*** End Patch":
			flush()
			cur = nil
		case strings.HasPrefix(line, "*** "):
			// Begin, End of File.
		case cur == nil:
		case cur.Kind == ChangeWrite:
			if strings.HasPrefix(line, "+") {
				cur.Content += line[1:] + "\n"
			}
		case cur.Kind == ChangeEdit:
			switch {
			case strings.HasPrefix(line, "@@"):
				flush()
				inHunk = true
			case strings.HasPrefix(line, "-"):
				inHunk = true
				old = append(old, line[1:])
			case strings.HasPrefix(line, "+"):
				inHunk = true
				new = append(new, line[1:])
			case strings.HasPrefix(line, " "), line == "":
				if inHunk || line != "" {
					inHunk = true
					old = append(old, strings.TrimPrefix(line, " "))
					new = append(new, strings.TrimPrefix(line, " "))
				}
			}
		}
	}
	flush()
	// An update with no hunk that could be read changed the file somehow.
	for i := range out {
		if out[i].Kind == ChangeEdit && len(out[i].Edits) == 0 {
			out[i].Kind = ChangeOpaque
		}
	}
	return out
}

// searchReplace is the edits of Cline's replace_in_file diff: blocks of
// "------- SEARCH", the old text, "=======", the new text and
// "+++++++ REPLACE" (older Clines wrote "<<<<<<< SEARCH" and
// ">>>>>>> REPLACE"). false when it holds no whole block.
func searchReplace(diff string) ([]TextEdit, bool) {
	var out []TextEdit
	var old, new []string
	state := 0 // 0 outside, 1 in the search part, 2 in the replacement
	for line := range strings.SplitSeq(strings.ReplaceAll(diff, "\r\n", "\n"), "\n") {
		t := strings.TrimRight(line, " ")
		switch {
		case state == 0 && (strings.HasSuffix(t, "------- SEARCH") || strings.HasSuffix(t, "<<<<<<< SEARCH")):
			state, old, new = 1, nil, nil
		case state == 1 && t == "=======":
			state = 2
		case state == 2 && (strings.HasSuffix(t, "+++++++ REPLACE") || strings.HasSuffix(t, ">>>>>>> REPLACE")):
			out = append(out, TextEdit{Old: strings.Join(old, "\n"), New: strings.Join(new, "\n")})
			state = 0
		case state == 1:
			old = append(old, line)
		case state == 2:
			new = append(new, line)
		}
	}
	return out, len(out) > 0 && state == 0
}
