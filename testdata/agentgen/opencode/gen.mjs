// Writes skein's OpenCode fixtures with OpenCode 1.18.33 itself: the native
// binary of its npm package's linux-x64 build, run as `opencode run
// --format json PROMPT` in a sandbox against server.mjs, a fake OpenAI Chat
// Completions API (agent.mjs does the work, for Kilo CLI too). Per scenario,
// fixtures/<name>/ gets opencode/opencode.db (and opencode.sql),
// resume-request.json, usage.json, steps.json and requests.jsonl.
// Run: npm ci && node gen.mjs [scenario...]   (needs the sqlite3 program)
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./agent.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));

await generate({
  name: "opencode",
  here,
  bin: join(here, "node_modules", "opencode-linux-x64", "bin", "opencode"),
  scratch: process.env.AGENTGEN_TMP ?? "/tmp/skein-agentgen-opencode",
  scenarios,
  configFile: "opencode.json",
  env: (dirs) => ({
    OPENCODE_CONFIG_DIR: dirs.cfg,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
  }),
  db: (data) => join(data, "opencode", "opencode.db"),
  dbDir: "opencode",
});
