// Writes skein's Kilo CLI fixtures with Kilo CLI itself: the native binary
// of @kilocode/cli-linux-x64 7.7.9, run as `kilo run --format json PROMPT`
// in a sandbox against ../opencode/server.mjs, the fake OpenAI Chat
// Completions API OpenCode's fixtures are made with. Kilo is OpenCode's
// fork: ../opencode/agent.mjs runs both, and the scenarios are OpenCode's
// (plain, parallel). Per scenario, fixtures/<name>/ gets kilo/kilo.db (and
// kilo.sql), resume-request.json, usage.json, steps.json, requests.jsonl.
// Run: npm ci && node gen.mjs [scenario...]   (needs the sqlite3 program)
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../opencode/agent.mjs";
import { scenarios } from "../opencode/scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const names = ["plain", "parallel", "thinking", "subagent"];

await generate({
  name: "kilo",
  here,
  bin: join(here, "node_modules", "@kilocode", "cli-linux-x64", "bin", "kilo"),
  scratch: process.env.AGENTGEN_TMP ?? "/tmp/skein-agentgen-kilo",
  scenarios: scenarios.filter((s) => names.includes(s.name)),
  configFile: "kilo.json",
  env: (dirs) => ({
    KILO_CONFIG_DIR: dirs.cfg,
    KILO_DISABLE_MODELS_FETCH: "1",
    KILO_DISABLE_AUTOUPDATE: "1",
    KILO_DISABLE_SHARE: "1",
    KILO_DISABLE_SESSION_INGEST: "1",
    KILO_DISABLE_PRESENCE: "1",
    KILO_DISABLE_LSP_DOWNLOAD: "1",
    KILO_TELEMETRY_LEVEL: "off",
  }),
  db: (data) => join(data, "kilo", "kilo.db"),
  dbDir: "kilo",
  timeout: 480_000, // a sub-agent's run took over 180 s on 2 busy cores
});
