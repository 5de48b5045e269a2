package cli

import (
	"skein/store"
	"skein/store/convert"
	"strings"
)

// command is one of skein's commands: what --help says of it and what
// runs it. Each command's file declares its own; commands lists them in
// the order --help and the README show them.
type command struct {
	name    string   // "session list"
	aliases []string // other names of its last word
	args    string   // its arguments and flags; "\n" wraps them
	help    string   // what it does
	run     func(c *cli, argv []string) error
	// server is a command that runs until its client goes (mcp): not a
	// one-shot's collector settings.
	server bool
}

// helpText is the command's help with the lists that depend on the formats
// registered filled in when it is printed (a format's package registers
// itself after this package's variables are made).
func (c *command) helpText() string {
	return strings.ReplaceAll(c.help, "{import formats}", strings.Join(convert.Formats(), ", "))
}

// commands are the command line's, in --help's order. The TUI and
// --version are dispatch's own.
var commands = []*command{
	&listCommand, &contextCommand, &treeCommand, &showCommand, &planCommand,
	&forkCommand, &compactCommand, &labelCommand, &renameCommand, &deleteCommand,
	&diffCommand, &replayCommand, &importCommand, &exportCommand, &scanCommand, &searchCommand, &statsCommand, &doctorCommand, &mcpCommand,
}

// lookup finds the command named by the first words of argv, and the rest.
func lookup(argv []string) (*command, []string) {
	for _, c := range commands {
		words := strings.Fields(c.name)
		if len(argv) < len(words) {
			continue
		}
		match := true
		for i, w := range words {
			ok := argv[i] == w
			if i == 0 && w == "session" && argv[i] == "sessions" {
				ok = true
			}
			if i == len(words)-1 {
				for _, a := range c.aliases {
					ok = ok || argv[i] == a
				}
			}
			match = match && ok
		}
		if match {
			return c, argv[len(words):]
		}
	}
	return nil, nil
}

// helpColumn is where a command's description starts.
const helpColumn = 41

// commandList is the list of commands --help prints and the README shows,
// each line led by indent.
func commandList(indent string) string {
	var b strings.Builder
	entry := func(usage, help string) {
		lines := strings.Split(usage, "\n")
		for i, l := range lines {
			if i > 0 {
				l = "      " + l
			}
			lines[i] = l
		}
		last := lines[len(lines)-1]
		helpLines := wrap(help, 78-helpColumn)
		for i, l := range lines {
			b.WriteString(indent + l)
			if i == len(lines)-1 && len(helpLines) > 0 && len(last) < helpColumn-1 {
				b.WriteString(strings.Repeat(" ", helpColumn-len(last)) + helpLines[0])
				helpLines = helpLines[1:]
			}
			b.WriteString("\n")
		}
		for _, h := range helpLines {
			b.WriteString(indent + strings.Repeat(" ", helpColumn) + h + "\n")
		}
	}
	entry("skein [--demo] [PATH...]", "open skein on the sessions found (--demo: on the bundled demo sessions)")
	entry("skein FILE [--entry ID]", "open one session (--entry: with that entry in focus, as skein search prints it)")
	for _, c := range commands {
		usage := "skein " + c.name
		if c.args != "" {
			usage += " " + c.args
		}
		entry(usage, c.helpText())
	}
	entry("skein --version", "")
	return b.String()
}

// usage is what `skein CMD --help` prints: the command's usage line and
// what it does.
func (c *command) usage() string {
	var b strings.Builder
	b.WriteString("Usage: skein " + c.name)
	if c.args != "" {
		b.WriteString(" " + strings.ReplaceAll(c.args, "\n", "\n       "))
	}
	b.WriteString("\n\n")
	for _, l := range wrap(c.helpText(), 76) {
		b.WriteString("  " + l + "\n")
	}
	if len(c.aliases) > 0 {
		b.WriteString("\n  Also: " + strings.Join(c.aliases, ", ") + "\n")
	}
	if strings.Contains(c.args, "REF") {
		b.WriteString("\nREF is a session file, or a session id or unique id prefix; see skein --help.\n")
	}
	return b.String()
}

// asksHelp reports whether the arguments ask for help (before any "--").
func asksHelp(argv []string) bool {
	for _, a := range argv {
		switch a {
		case "--":
			return false
		case "--help", "-h":
			return true
		}
	}
	return false
}

// sessionVerbs lists the session commands' verbs, as --help orders them.
func sessionVerbs() string {
	var verbs []string
	for _, c := range commands {
		if v, ok := strings.CutPrefix(c.name, "session "); ok {
			verbs = append(verbs, v)
		}
	}
	return strings.Join(verbs[:len(verbs)-1], ", ") + " or " + verbs[len(verbs)-1]
}

// wrap breaks text into lines of at most width columns, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// refParagraph says what a REF and a PATH are, with every agent's folder:
// the formats say where their agents keep sessions
// (store.Wording.Folders), wrapped at 74 columns.
func refParagraph() string {
	f := store.AgentFolders()
	if len(f) > 1 {
		f[len(f)-1] = "and " + f[len(f)-1]
	}
	text := "REF is a session file, or a session id or unique id prefix among the " +
		"sessions found (and in the folders named to earlier commands). PATHs " +
		"(files or folders, searched recursively) replace the default store, " +
		"every agent's folder: " + strings.Join(f, ", ") + "."
	return strings.Join(wrap(text, 74), "\n")
}

// usageText is what --help prints.
func usageText() string {
	return `skein: find, read and work on coding agents' sessions

Usage:
` + commandList("  ") + `
` + refParagraph() + `

Exit status: 0 ok, 1 not found, not a session or problems found, 2 usage.
`
}
