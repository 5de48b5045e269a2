package styles

import (
	"embed"
	"io/fs"
	"sort"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles. skein's copy fills it with the embedded styles on
// first use (see load) instead of at program start, which cost every run of
// the program about 13 ms; a style registered before then is kept.
var Registry = map[string]*chroma.Style{}

var loadOnce sync.Once

func load() {
	loadOnce.Do(func() {
		files, err := fs.ReadDir(embedded, ".")
		if err != nil {
			panic(err)
		}
		for _, file := range files {
			if file.IsDir() {
				continue
			}
			r, err := embedded.Open(file.Name())
			if err != nil {
				panic(err)
			}
			style, err := chroma.NewXMLStyle(r)
			if err != nil {
				panic(err)
			}
			if _, ok := Registry[style.Name]; !ok {
				Registry[style.Name] = style
			}
			_ = r.Close()
		}
		if Fallback == nil {
			Fallback = Registry["swapoff"]
		}
	})
}

// Fallback style. Reassign to change the default fallback style. (Set when
// the registry is first used.)
var Fallback *chroma.Style

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	load()
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	load()
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	load()
	if style, ok := Registry[name]; ok {
		return style
	}
	return Fallback
}
