// Package theme is skein's palette: semantic colour tokens for a dark or a
// light terminal, the lip gloss styles built from them, and the glamour
// style for markdown.
package theme

import (
	"image/color"
	"reflect"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
)

// Palette holds the semantic colours.
type Palette struct {
	Fg, Muted, Dim, Accent, User, Assistant, Tool, Error, Warning, Success, Custom, Compaction, Selection, Border color.Color
}

// NewPalette returns the colours for a dark or light background.
func NewPalette(isDark bool) Palette {
	ld := lipgloss.LightDark(isDark)
	return Palette{
		Fg:         ld(lipgloss.Color("#1f2328"), lipgloss.Color("#e6e6e6")),
		Muted:      ld(lipgloss.Color("#57606a"), lipgloss.Color("#9aa0a6")),
		Dim:        ld(lipgloss.Color("#8c959f"), lipgloss.Color("#6e7681")),
		Accent:     ld(lipgloss.Color("#0969da"), lipgloss.Color("#58a6ff")),
		User:       ld(lipgloss.Color("#0969da"), lipgloss.Color("#79c0ff")),
		Assistant:  ld(lipgloss.Color("#1a7f37"), lipgloss.Color("#7ee787")),
		Tool:       ld(lipgloss.Color("#8250df"), lipgloss.Color("#d2a8ff")),
		Error:      ld(lipgloss.Color("#cf222e"), lipgloss.Color("#ff7b72")),
		Warning:    ld(lipgloss.Color("#9a6700"), lipgloss.Color("#e3b341")),
		Success:    ld(lipgloss.Color("#1a7f37"), lipgloss.Color("#56d364")),
		Custom:     ld(lipgloss.Color("#bf3989"), lipgloss.Color("#f778ba")),
		Compaction: ld(lipgloss.Color("#0550ae"), lipgloss.Color("#a5d6ff")),
		Selection:  ld(lipgloss.Color("#ddf4ff"), lipgloss.Color("#1f3a5f")),
		Border:     ld(lipgloss.Color("#d0d7de"), lipgloss.Color("#30363d")),
	}
}

// Styles are the lip gloss styles skein draws with.
type Styles struct {
	IsDark  bool
	Palette Palette

	Title, Muted, Dim, Accent, Bold   lipgloss.Style
	User, Assistant, Tool, ToolResult lipgloss.Style
	Error, Warning, Success, Custom   lipgloss.Style
	Compaction, Label, Selected       lipgloss.Style
	Separator, Header, Footer, Border lipgloss.Style
	Match                             lipgloss.Style // a search's matches
}

// New builds the styles for a dark or light background.
func New(isDark bool) Styles {
	p := NewPalette(isDark)
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	return Styles{
		IsDark:     isDark,
		Palette:    p,
		Title:      fg(p.Accent).Bold(true),
		Muted:      fg(p.Muted),
		Dim:        fg(p.Dim),
		Accent:     fg(p.Accent),
		Bold:       lipgloss.NewStyle().Bold(true),
		User:       fg(p.User).Bold(true),
		Assistant:  fg(p.Assistant).Bold(true),
		Tool:       fg(p.Tool),
		ToolResult: fg(p.Muted),
		Error:      fg(p.Error),
		Warning:    fg(p.Warning),
		Success:    fg(p.Success),
		Custom:     fg(p.Custom),
		Compaction: fg(p.Compaction).Bold(true),
		Label:      fg(p.Warning),
		Selected:   lipgloss.NewStyle().Background(p.Selection).Bold(true),
		Separator:  fg(p.Dim),
		Header:     lipgloss.NewStyle().Bold(true).Foreground(p.Fg),
		Footer:     fg(p.Muted),
		Border:     lipgloss.NewStyle().BorderForeground(p.Border),
		Match:      lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(p.Warning).Bold(true),
	}
}

// Glamour returns the markdown style for the background. Document margins
// are removed: skein lays out its own columns.
func Glamour(isDark bool) ansi.StyleConfig {
	cfg := styles.LightStyleConfig
	if isDark {
		cfg = styles.DarkStyleConfig
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	return cfg
}

// GlamourNoColor is the markdown style for NO_COLOR: the dark style's
// bold, italics and layout, without a colour (markup stays rendered, not
// shown as asterisks).
func GlamourNoColor() ansi.StyleConfig {
	cfg := Glamour(true)
	cfg.CodeBlock.Chroma = nil
	stripColors(reflect.ValueOf(&cfg).Elem())
	return cfg
}

// stripColors sets every Color and BackgroundColor in v to none.
func stripColors(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			stripColors(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			f := v.Field(i)
			if !f.CanSet() {
				continue
			}
			if n := t.Field(i).Name; (n == "Color" || n == "BackgroundColor") && f.Kind() == reflect.Pointer {
				f.SetZero()
				continue
			}
			if f.Kind() == reflect.Pointer && !f.IsNil() {
				// Copy before changing: the config's pointers are shared with
				// glamour's own styles.
				c := reflect.New(f.Elem().Type())
				c.Elem().Set(f.Elem())
				f.Set(c)
			}
			stripColors(f)
		}
	}
}

// GlamourPlain is the markdown style without colour, for NO_COLOR.
func GlamourPlain() ansi.StyleConfig {
	cfg := styles.NoTTYStyleConfig
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	return cfg
}

// Plain is the styles for NO_COLOR: no colours, only bold, reverse and faint
// where they carry meaning.
func Plain() Styles {
	n := lipgloss.NewStyle()
	return Styles{
		IsDark: true, Palette: NewPalette(true),
		Title: n.Bold(true), Muted: n, Dim: n.Faint(true), Accent: n.Bold(true), Bold: n.Bold(true),
		User: n.Bold(true), Assistant: n.Bold(true), Tool: n, ToolResult: n,
		Error: n.Bold(true), Warning: n, Success: n, Custom: n,
		Compaction: n.Bold(true), Label: n.Underline(true), Selected: n.Reverse(true),
		Separator: n.Faint(true), Header: n.Bold(true), Footer: n, Border: n,
		Match: n.Bold(true).Underline(true), // not reverse: that is the selection
	}
}
