package dhara

// dirSyncUnsupported: Windows syncs no folder; a rename stands without.
func dirSyncUnsupported(error) bool { return true }

// oNoFollow: Windows opens a link's target.
const oNoFollow = 0
