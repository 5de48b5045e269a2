// Writes large stores with the reference implementation (pi 1.6.0's
// SessionManager, as its agent loop uses it: each session starts with the
// system message 1.6.0 writes before its first request), for the speed
// comparison in compare.sh (nothing here is committed). Far too large to
// write through the agent loop itself, which rebuilds the context at every
// request.
//   ./node22 bigstore.mjs --store DIR [--sessions 1500] [--mb 100]
//   ./node22 bigstore.mjs --one FILE [--mb 100]
import { mkdirSync, statSync, renameSync } from "fs";
import { dirname, join } from "path";
import { Writer, rng, setClock, user, assistant, PROVIDERS, usage, defaultSystemMessage } from "./lib.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const r = rng(Number(opt("seed", 42)));
const hugeRate = Number(opt("huge-rate", 0));
const WORDS = "the parser token stream needs a second pass because nested generics confuse the lexer when angle brackets close twice".split(" ");
const prose = (n) => Array.from({ length: n }, () => r.pick(WORDS)).join(" ");
const code = (lines) => Array.from({ length: lines }, (_, i) => `  ${i}: func ${r.pick(WORDS)}() { return ${r.int(0, 999)} }`).join("\n");

// Appends turns until the file holds about `bytes` bytes.
function fill(w, bytes) {
  let turn = 0;
  const size = () => {
    try {
      return statSync(w.file).size;
    } catch {
      return 0;
    }
  };
  w.sm.appendMessage(system(w.sm.getCwd()));
  while (size() < bytes) {
    const p = PROVIDERS[turn % PROVIDERS.length];
    w.msg(user(`${prose(r.int(5, 40))}?`));
    const calls = r.int(1, 6);
    for (let c = 0; c < calls; c++) {
      const name = r.pick(["read", "bash", "edit", "grep"]);
      const args = name === "bash" ? { command: `go test ./${r.pick(WORDS)}/...` } : { path: `src/${r.pick(WORDS)}.go` };
      const big = r.chance(hugeRate) ? 2_000_000 : 0; // now and then a huge result
      w.call(name, args, code(r.int(1, 10)) + "x".repeat(big), { p, text: r.chance(0.4) ? prose(r.int(5, 30)) : undefined, thinking: r.chance(0.3) ? prose(r.int(10, 80)) : undefined, usage: usage(r.int(1000, 90000), r.int(10, 3000), r.int(0, 50000)) });
    }
    w.msg(assistant([{ type: "text", text: `${prose(r.int(20, 200))}\n\n\`\`\`go\n${code(r.int(0, 15))}\n\`\`\`` }], { p }));
    turn++;
  }
}

// The system message is the same for every session of a cwd: build it once.
const systems = new Map();
const system = (cwd) => ({ ...systems.get(cwd), timestamp: Date.now() });
async function prepare(cwd) {
  if (!systems.has(cwd)) systems.set(cwd, await defaultSystemMessage(cwd));
}

const mb = Number(opt("mb", 100));
if (opt("one")) {
  const target = opt("one");
  setClock("2026-05-01T08:00:00.000Z");
  const tmp = join(dirname(target), "tmp-one");
  mkdirSync(tmp, { recursive: true });
  await prepare("/home/dev/huge");
  const w = new Writer("/home/dev/huge", tmp, r);
  fill(w, mb * 1e6);
  renameSync(w.file, target);
  console.log(`${target}: ${statSync(target).size} bytes`);
} else {
  const root = opt("store");
  const n = Number(opt("sessions", 1500));
  const per = (mb * 1e6) / n;
  for (let k = 0; k < n; k++) {
    setClock(new Date(Date.UTC(2026, 0, 1) + k * 3_600_000).toISOString());
    const cwd = `/home/dev/project-${k % 40}`;
    await prepare(cwd);
    const w = new Writer(cwd, join(root, `--${cwd.slice(1).replace(/[/\\:]/g, "-")}--`), r);
    fill(w, per * (0.25 + r.next() * 1.5));
    if (k % 100 === 0) w.sm.appendSessionInfo(`session ${k}`);
  }
  console.log(`${root}: ${n} sessions`);
}
