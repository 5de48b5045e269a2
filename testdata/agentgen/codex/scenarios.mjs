// The scenarios gen.mjs runs, in order. Each is one Codex session: steps are
// `codex exec` runs (the first starts the session, the others resume it), each
// with the replies the fake server gives to its requests, in order.
import { say, call, think, usage } from "./server.mjs";

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only), then a resume with another plain turn",
    files: { "README.md": "# demo\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ items: [say("Hello! How can I help with this project?")], usage: usage(1200, 0, 12) }] },
      { resume: true, prompt: "What did I ask you before?", replies: [{ items: [say("You asked me to say hello.")], usage: usage(1260, 1152, 9) }] },
    ],
  },
];
