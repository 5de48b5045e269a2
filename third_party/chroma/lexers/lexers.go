package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers. skein's copy
// fills it on first use (see loaded) instead of at program start: parsing
// the embedded XML lexers cost every run of the program about 11 ms.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var (
	loadOnce sync.Once
	mu       sync.Mutex
	// builtin holds the lexers registered before the first use (those
	// written in Go register during package initialisation).
	builtin []chroma.Lexer
	ready   bool
	hooks   []func(*chroma.LexerRegistry)
)

// afterLoad runs fn on the registry once every lexer is registered.
func afterLoad(fn func(*chroma.LexerRegistry)) bool {
	hooks = append(hooks, fn)
	return true
}

// loaded returns the registry with every lexer in it, registered in the
// order upstream registers them: the embedded XML lexers, then those in Go.
func loaded() *chroma.LexerRegistry {
	loadOnce.Do(func() {
		paths, err := fs.Glob(embedded, "embedded/*.xml")
		if err != nil {
			panic(err)
		}
		for _, path := range paths {
			GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
		}
		mu.Lock()
		defer mu.Unlock()
		for _, lexer := range builtin {
			GlobalLexerRegistry.Register(lexer)
		}
		for _, fn := range hooks {
			fn(GlobalLexerRegistry)
		}
		builtin, hooks, ready = nil, nil, true
	})
	return GlobalLexerRegistry
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return loaded().Names(withAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return loaded().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return loaded().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return loaded().Match(filename)
}

// Register a Lexer with the global registry. During package initialisation
// the lexer is kept until the registry is first used.
func Register(lexer chroma.Lexer) chroma.Lexer {
	mu.Lock()
	if !ready {
		builtin = append(builtin, lexer)
		mu.Unlock()
		return lexer
	}
	mu.Unlock()
	return loaded().Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return loaded().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
