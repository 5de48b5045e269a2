package store

import "skein/model"

// Alias is the backend of an agent that writes another format's files:
// OpenClaw and oh-my-pi keep pi's session files in folders of their own.
// It reads through the registered backend of Of (found in the registry at
// each call, so that the agent's package imports no other format's) and
// names its records with ReadOnly's Name, so that the list, its agent
// column and filter, the resume command and the import say the agent that
// wrote the file. Its ReadOnly says what is the agent's own: the wording,
// the path it claims, its folders, its resume command. It has no
// DetectLine: the file's content is the other format's, which claims it
// wherever it is found; only the agent's folder says whose it is. An
// agent's package registers a pointer to one.
type Alias struct {
	Of Format // the format the agent writes (pi's)
	ReadOnly
}

func (a *Alias) base() Backend { return ForFormat(a.Of) }

// Open reads the session with the other format's reader, under the
// agent's name.
func (a *Alias) Open(path string) (*model.Session, error) {
	s, err := a.base().Open(path)
	if s != nil {
		s.Info.Format = string(a.Name)
	}
	return s, err
}

// ListInfo is the other format's record, under the agent's name.
func (a *Alias) ListInfo(path string, buf []byte) ([]byte, Info, error) {
	buf, info, err := a.base().ListInfo(path, buf)
	info.Format = string(a.Name)
	return buf, info, err
}

// SessionID is the other format's.
func (a *Alias) SessionID(path string) (string, error) { return a.base().SessionID(path) }

// ListCached reads on from what the index kept, as the other format does
// (ListCacher), when it can.
func (a *Alias) ListCached(path string, state, buf []byte) ([]byte, Info, []byte, error) {
	var info Info
	var err error
	if c, ok := a.base().(ListCacher); ok {
		buf, info, state, err = c.ListCached(path, state, buf)
	} else {
		buf, info, state, err = listByStamp(a.base(), path, state, buf)
	}
	info.Format = string(a.Name)
	return buf, info, state, err
}

// CachedInfo is the kept record, under the agent's name.
func (a *Alias) CachedInfo(path string, state []byte) (Info, bool) {
	c, ok := a.base().(ListCacher)
	if !ok {
		return Info{}, false
	}
	info, ok := c.CachedInfo(path, state)
	info.Format = string(a.Name)
	return info, ok
}

// ContainerAlias is an Alias of a format whose files hold many sessions
// (Container): Kilo CLI, OpenCode's fork, keeps OpenCode's database under a
// name of its own. The agent's backend embeds it and says which files are
// its own (ContainerName); the sessions a file holds and the files of its
// change token are the other format's.
type ContainerAlias struct{ Alias }

func (a ContainerAlias) container() Container {
	c, _ := a.base().(Container)
	return c
}

// Sessions are the other format's, under the agent's file.
func (a ContainerAlias) Sessions(path string) ([]string, error) {
	c := a.container()
	if c == nil {
		return nil, &NotSession{Reason: "the format " + string(a.Of) + " keeps no sessions in one file", Named: true}
	}
	return c.Sessions(path)
}

// ContainerFiles are the other format's.
func (a ContainerAlias) ContainerFiles(path string) []string {
	if c := a.container(); c != nil {
		return c.ContainerFiles(path)
	}
	return []string{path}
}
