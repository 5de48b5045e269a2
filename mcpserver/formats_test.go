package mcpserver

import _ "skein/store/formats" // the tests read every format's sessions
