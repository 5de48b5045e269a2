package safewrite

// dirSyncUnsupported: Windows syncs no folder; a rename stands without.
func dirSyncUnsupported(error) bool { return true }
