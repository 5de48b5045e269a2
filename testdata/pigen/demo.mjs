// Writes the demo sessions skein bundles (tui/demo/, embedded in the binary)
// with the reference implementation's SessionManager (pi 1.6.0), so that they
// are real pi sessions: the system message pi 1.6.0 writes before a session's
// first request, branches, a compaction (with its system checkpoint), a fork,
// labels, tool calls, thinking, an image, a long markdown answer with code.
// Run: ./node22 demo.mjs [--out DIR]   (default: tui/demo)
import { mkdirSync, rmSync, readdirSync, renameSync } from "fs";
import { join, dirname, resolve } from "path";
import { fileURLToPath } from "url";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { Writer, rng, setClock, tick, user, assistant, toolCall, toolResult, bash, usage, PROVIDERS, PNG_1x1, defaultSystemMessage } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const outIdx = process.argv.indexOf("--out");
const out = outIdx > 0 ? resolve(process.argv[outIdx + 1]) : join(here, "..", "..", "tui", "demo");
// The system message pi writes before the first request.
const system = async (w) => w.sm.appendMessage(await defaultSystemMessage(w.sm.getCwd()));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const dirFor = (cwd) => join(out, `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);

const SERVER = `package main

import (
	"encoding/json"
	"log"
	"net/http"
)

func main() {
	http.HandleFunc("/todos", listTodos)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
`;

// 1. A feature built with tools, thinking, a long markdown answer, branches and labels.
let apiFile;
{
  setClock("2026-11-20T09:12:00.000Z");
  const cwd = "/home/you/code/todo-api";
  const w = new Writer(cwd, dirFor(cwd), rng(11));
  w.sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  w.sm.appendThinkingLevelChange("medium");
  await system(w);
  w.msg(user("Add rate limiting to the todo API: at most 10 requests per second per client IP. Keep it dependency-free."));
  w.call("read", { path: "main.go" }, SERVER, { thinking: "Let me look at how the server is wired before adding middleware.", text: "I'll start by reading the server." });
  w.call("bash", { command: "go test ./... 2>&1 | tail -5" }, "ok  \ttodo-api\t0.012s\n");
  w.call("write", { path: "ratelimit.go", content: "package main\n\n// token bucket per IP\n" }, "Successfully wrote 1532 bytes to ratelimit.go", { text: "I'll add a token-bucket limiter as middleware." });
  const edit = w.call("edit", { path: "main.go", oldText: 'http.HandleFunc("/todos", listTodos)', newText: 'http.Handle("/todos", limit(http.HandlerFunc(listTodos)))' }, "Successfully replaced text in main.go.");
  w.call("bash", { command: "go test -race ./..." }, "ok  \ttodo-api\t1.204s\n");
  const answer = w.msg(
    assistant([
      { type: "thinking", thinking: "Tests pass with -race. I should explain the design and the trade-offs: memory growth of the map, X-Forwarded-For, and burst size.", thinkingSignature: "sig" },
      {
        type: "text",
        text:
          "## Rate limiting added\n\nEvery client IP now gets a **token bucket** of 10 tokens that refills at 10 tokens per second. A request that finds the bucket empty gets `429 Too Many Requests` with a `Retry-After` header.\n\n```go\nfunc limit(next http.Handler) http.Handler {\n\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\tip, _, _ := net.SplitHostPort(r.RemoteAddr)\n\t\tif !buckets.take(ip, time.Now()) {\n\t\t\tw.Header().Set(\"Retry-After\", \"1\")\n\t\t\thttp.Error(w, \"too many requests\", http.StatusTooManyRequests)\n\t\t\treturn\n\t\t}\n\t\tnext.ServeHTTP(w, r)\n\t})\n}\n```\n\n### Trade-offs\n\n| choice | why | caveat |\n|---|---|---|\n| token bucket | allows short bursts | burst = 10 |\n| per `RemoteAddr` | no trust in headers | wrong behind a proxy |\n| sweep every minute | bounded memory | idle IPs kept ≤ 1 min |\n\n1. Behind a reverse proxy, read `X-Forwarded-For` instead (only from a trusted proxy).\n2. For several instances, move the buckets to Redis.\n\nAll tests pass, including with `-race`.",
      },
    ], { usage: usage(18432, 912, 12000) }),
  );
  w.sm.appendLabelChange(answer, "design");
  w.sm.appendSessionInfo("Rate limiting for the todo API");
  // The user explores an alternative, then comes back with a summary.
  const ask = w.msg(user("What if we used golang.org/x/time/rate instead?"));
  w.msg(assistant([{ type: "text", text: "`rate.Limiter` would replace the bucket code with a well-tested implementation: one limiter per IP in a `sync.Map`, `limiter.Allow()` per request. It adds one dependency, which you asked to avoid." }]));
  w.msg(user("Fine, try it so we can compare."));
  w.call("bash", { command: "go get golang.org/x/time/rate" }, "go: added golang.org/x/time v0.8.0");
  w.msg(assistant([{ type: "text", text: "Switched to `x/time/rate`: 40 fewer lines, one new dependency." }]));
  tick(120000);
  w.sm.branchWithSummary(ask, "## Goal\nCompare the hand-written token bucket with golang.org/x/time/rate.\n\n## Progress\n### Done\n- [x] Tried x/time/rate: 40 fewer lines, one dependency\n\n## Key Decisions\n- **Keep the hand-written bucket**: the user wants no dependencies.", { readFiles: [], modifiedFiles: ["go.mod"] });
  w.msg(assistant([{ type: "text", text: "Back on the dependency-free version. Shall I add a test that fires 20 requests and expects 10 to pass?" }]));
  w.msg(user("Yes please."));
  w.call("write", { path: "ratelimit_test.go", content: "package main\n" }, "Successfully wrote 860 bytes to ratelimit_test.go");
  w.call("bash", { command: "go test -run TestLimit -v" }, "=== RUN   TestLimit\n--- PASS: TestLimit (0.00s)\nPASS\nok  \ttodo-api\t0.010s\n");
  const done = w.msg(assistant([{ type: "text", text: "Added `TestLimit`: 20 requests in a burst, 10 pass and 10 get **429**. ✅" }], { usage: usage(21004, 120, 18000) }));
  w.sm.appendLabelChange(done, "tests green");
  apiFile = w.file;
}

// 2. A long debugging session, compacted once.
{
  setClock("2026-11-24T14:03:00.000Z");
  const cwd = "/home/you/code/todo-api";
  const w = new Writer(cwd, dirFor(cwd), rng(12));
  w.sm.appendModelChange("openai", "gpt-5.1-codex");
  await system(w);
  w.msg(user("The CI job `integration` fails about one run in five with `connection reset by peer`. Find out why."));
  const logs = "2026-11-24T13:58:02Z dial tcp 127.0.0.1:5432: connect: connection reset by peer\n".repeat(12);
  w.call("bash", { command: "gh run view 1234 --log | grep -i reset" }, logs, { p: PROVIDERS[1], text: "Let me look at the failing run's log." });
  w.call("read", { path: "docker-compose.ci.yml" }, "services:\n  db:\n    image: postgres:16\n  app:\n    depends_on: [db]\n", { p: PROVIDERS[1] });
  w.call("read", { path: "internal/store/db.go" }, "func Open(url string) (*sql.DB, error) {\n\tdb, err := sql.Open(\"pgx\", url)\n\treturn db, err\n}\n", { p: PROVIDERS[1] });
  w.msg(assistant([{ type: "text", text: "`depends_on` only waits for the container to *start*, not for Postgres to accept connections. The app races the database." }], { p: PROVIDERS[1] }));
  w.msg(user("Makes sense. Fix it properly, no sleeps."));
  w.call("edit", { path: "docker-compose.ci.yml", oldText: "depends_on: [db]", newText: "depends_on:\n      db:\n        condition: service_healthy" }, "Successfully replaced text in docker-compose.ci.yml.", { p: PROVIDERS[1] });
  w.call("edit", { path: "internal/store/db.go", oldText: "return db, err", newText: "return db, db.PingContext(ctx)" }, "Successfully replaced text in internal/store/db.go.", { p: PROVIDERS[1] });
  w.msg(assistant([{ type: "text", text: "Added a health check on `db` and made `Open` ping the database." }], { p: PROVIDERS[1] }));
  await w.compact(200, { goal: "Fix the flaky `integration` CI job (connection reset by peer)." });
  w.msg(user("Run the integration suite 20 times to be sure."));
  w.call("bash", { command: "for i in $(seq 20); do make integration >/dev/null || echo FAIL $i; done; echo done" }, "done\n", { p: PROVIDERS[1] });
  w.msg(assistant([{ type: "text", text: "20 runs, no failure. The race is gone." }], { p: PROVIDERS[1] }));
  w.sm.appendSessionInfo("Flaky integration job");
}

// 3. A fork of the first session from its design answer, continued elsewhere.
{
  tick(3600000);
  const sm = SessionManager.open(apiFile);
  const entries = sm.getEntries();
  const design = entries.find((e) => e.type === "message" && e.message.role === "assistant" && e.message.content.some((b) => b.type === "text" && b.text.startsWith("## Rate limiting")));
  sm.createBranchedSession(design.id);
  sm.appendMessage(user("Write the README section for the rate limiter."));
  sm.appendMessage(assistant([{ type: "text", text: "## Rate limits\n\nEach client IP may make **10 requests per second**, with bursts of up to 10. Beyond that the API answers `429 Too Many Requests`; wait for the number of seconds in `Retry-After`." }]));
  sm.appendSessionInfo("README: rate limits");
}

// 4. A short one with an image and an error.
{
  setClock("2026-11-27T18:40:00.000Z");
  const cwd = "/home/you/code/site";
  const w = new Writer(cwd, dirFor(cwd), rng(13));
  await system(w);
  w.msg(user([{ type: "text", text: "Why does the header look broken on mobile?" }, { type: "image", data: PNG_1x1, mimeType: "image/png" }]));
  w.msg(assistant([], { stopReason: "error", errorMessage: "overloaded_error: the model is overloaded, retry shortly", usage: usage(0, 0) }));
  w.msg(assistant([{ type: "thinking", thinking: "The screenshot shows the nav wrapping under the logo." }, { type: "text", text: "The nav links wrap under the logo below 400px: `flex-wrap: wrap` with no `gap`. Use `flex-wrap: nowrap` and let the links scroll horizontally, or collapse them into a menu." }]));
  w.msg(bash("npm run lint", "✔ no problems\n"));
}
console.log("demo sessions written to", out);
