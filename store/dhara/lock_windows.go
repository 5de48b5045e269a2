package dhara

// oNoFollow: Windows opens a link's target.
const oNoFollow = 0
