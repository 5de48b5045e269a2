package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"skein/internal/prices"
	"skein/internal/sanitize"
	"skein/store"
)

// pricesPath is where a user's price table replaces the one built in:
// $XDG_CONFIG_HOME/skein/prices.json, else ~/.config/skein/prices.json.
func pricesPath(env store.Env) string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "skein", "prices.json")
	}
	return filepath.Join(env.Home, ".config", "skein", "prices.json")
}

// maxPricesFile bounds what is read of a price table: the one built in is
// 13 KB, and the whole of models.dev's prices would be under 2 MB.
const maxPricesFile = 16 << 20

// usePrices makes the user's price table, when there is one, the table
// Claude Code's and Codex's usage is priced with, and returns what puts
// the table before it back. A table that cannot be read or parsed is
// reported on stderr and the one built in is kept: a bad file costs a
// warning, never a command.
func usePrices(path string, stderr io.Writer) (restore func()) {
	t, err := readPrices(path)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "skein: price table %s: %s; the table built in is used\n", sanitize.Line(path), sanitize.Line(err.Error()))
	case t != nil:
		old := prices.Use(t)
		return func() { prices.Use(old) }
	}
	return func() {}
}

// readPrices is the table in the file at path; nil, and no error, when
// there is no file.
func readPrices(path string) (*prices.Table, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A pipe or a device there would block the read or never end.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPricesFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPricesFile {
		return nil, fmt.Errorf("larger than %d MB", maxPricesFile>>20)
	}
	t, err := prices.Parse(data)
	if err != nil {
		return nil, err
	}
	t.Path = path
	return t, nil
}
