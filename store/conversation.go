package store

// Conversation is one conversation of an export of many (ChatGPT's data
// export, claude.ai's) as the lines of a pi v3 session: the format that
// reads the export writes them, so that the import reads every
// conversation as it reads a pi file, every branch kept.
type Conversation struct {
	ID    string // the export's id of the conversation ("" when none); never used as a path
	Title string
	Lines []byte // a pi v3 session file's bytes (JSONL), as the export's format describes them
}
