package model

// Stats are a session's totals for the preview pane and the header.
type Stats struct {
	Messages, UserMessages, AssistantMessages, ToolCalls int
	TokensIn, TokensOut, CacheRead, CacheWrite           float64
	Cost                                                 float64
	Models                                               []string // provider/model, in order of first use
	Compactions, BranchSummaries, Labels, Leaves         int
	Errors                                               int
	Virtual                                              map[string]bool // provider/model of virtual models
}
