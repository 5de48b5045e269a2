package cli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"skein/mcpserver"
	"skein/model"
	"skein/store"
)

var mcpCommand = command{
	name:   "mcp",
	args:   "[PATH...]",
	help:   "an MCP server on stdin and stdout for agents: search, list, read, stats, labels (docs/mcp.md)",
	run:    (*cli).mcp,
	server: true,
}

func (c *cli) mcp(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{})
	if err != nil {
		return err
	}
	for _, p := range a.pos {
		if _, err := os.Stat(p); err != nil {
			return fail(1, "%s: %s", p, problemText(err))
		}
	}
	cfg := mcpserver.Config{Env: c.env, IndexDir: textIndexDir(c.env), Version: Version}
	if len(a.pos) > 0 {
		cfg.Roots = a.pos
	}
	// The stats are read as `skein stats` reads them, with its memo, one
	// call at a time (the memo is saved after each).
	var memo *store.Memo
	if os.Getenv("SKEIN_INDEX") != "off" {
		memo = store.OpenMemo(store.CacheDir(c.env), "stats")
	}
	var mu sync.Mutex
	cfg.Stats = func(files []string) []*model.SessionStats {
		mu.Lock()
		defer mu.Unlock()
		all, _ := readStats(files, memo, nil)
		memo.Save()
		return all
	}
	srv := mcpserver.New(cfg)
	defer srv.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(c.stdin), Writer: nopCloser{c.stdout}})
	if err != nil && ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}

// nopCloser is a writer whose Close leaves it open: the server's end of
// the conversation closes its transport, never the process's stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
