package safewrite

// oNoFollow: Windows opens a symbolic link's target; the checks after the
// open (a regular file, the same file as the name's) stand in.
const oNoFollow = 0
