// Checks, on the fixtures gen.mjs wrote, the rule the Go side will follow to
// rebuild what Codex sends on resume: the rollout up to the resume's first
// line, its response_item payloads in file order with
// internal_chat_message_metadata_passthrough dropped, preceded by one
// developer message holding the base instructions (session_meta's
// base_instructions.text, less the update_plan sections, under an id we cannot
// derive), followed by what the resume turn adds (its user message). A
// `compacted` line's replacement_history replaces the items before it. Prints
// what differs. Run: node check.mjs
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const fx = join(here, "fixtures");
let bad = 0, checks = 0;
for (const name of readdirSync(fx).sort()) {
  const dir = join(fx, name);
  const { steps } = JSON.parse(readFileSync(join(dir, "steps.json"), "utf8"));
  const resumes = steps.map((s, i) => ({ s, i })).filter(({ s }) => s.args[2] === "resume" || s.args[2] === "fork");
  resumes.forEach(({ s, i }, k) => {
    const kind = s.args[2];
    const same = resumes.filter((r) => r.s.args[2] === kind);
    const nth = same.findIndex((r) => r.i === i);
    const file = nth === same.length - 1 ? `${kind}-request.json` : `${kind}-${nth + 1}-request.json`;
    if (!existsSync(join(dir, file))) return;
    const req = JSON.parse(readFileSync(join(dir, file), "utf8"));
    // The rollout as it was before this step: for a resume, the session's
    // file at the previous step's count; for a fork, the source's file.
    const target = s.args[3];
    const prev = steps.slice(0, i).reverse().find((p) => Object.keys(p.rollouts).some((f) => f.includes(target)));
    const [path, lines] = Object.entries(prev.rollouts).find(([p]) => p.includes(target));
    const rows = history(dir, path, lines);
    const meta = rows[0].payload;
    let items = [];
    for (const r of rows) {
      if (r.type === "response_item") items.push(r.payload);
      else if (r.type === "compacted" && r.payload.replacement_history) items = [...r.payload.replacement_history];
    }
    items = items.map((it) => {
      const p = { ...it };
      delete p.internal_chat_message_metadata_passthrough;
      return p;
    });
    const input = req.input;
    const problems = [];
    const base = input[0];
    if (base.role !== "developer" || base.content[0].text !== stripPlan(meta.base_instructions.text)) problems.push("input[0] is not the base instructions less update_plan");
    items.forEach((it, j) => {
      const got = JSON.stringify(input[1 + j]);
      if (got !== JSON.stringify(it)) problems.push(`input[${1 + j}] != rollout item ${j}:\n      want ${JSON.stringify(it).slice(0, 300)}\n      got  ${String(got).slice(0, 300)}`);
    });
    const rest = input.slice(1 + items.length);
    const tail = rest.map((r) => `${r.type}/${r.role ?? ""}`).join(", ");
    checks++;
    if (problems.length) bad++;
    console.log(`${name} ${file}: ${items.length} items from the rollout, then [${tail}]${problems.length ? "\n    " + problems.join("\n    ") : ": ok"}`);
  });
}
console.log(`${checks - bad} passed, ${bad} failed`);
process.exit(bad ? 1 : 0);

// history is a rollout's lines up to count, a fork's preceded by its source's
// lines before forked_from_ordinal_exclusive (a fork copies none of them).
function history(dir, path, count = Infinity) {
  const rows = readFileSync(join(dir, "codex-home", path), "utf8").split("\n").filter(Boolean).slice(0, count).map((l) => JSON.parse(l));
  const meta = rows[0].payload;
  if (!meta.forked_from_id) return rows;
  const src = readdirSync(dirname(join(dir, "codex-home", path))).find((f) => f.includes(meta.forked_from_id));
  if (!src) throw new Error(`${path}: its source ${meta.forked_from_id} is not beside it`);
  const before = history(dir, join(dirname(path), src)).filter((r) => r.ordinal < meta.forked_from_ordinal_exclusive);
  return [rows[0], ...before.slice(1), ...rows.slice(1)];
}

// stripPlan drops the two update_plan sections Codex leaves out of the
// instructions it sends when the update_plan tool is not offered (codex exec).
function stripPlan(text) {
  return text.replace(/## Planning\n[\s\S]*?(?=\n## )\n/, "").replace(/## `update_plan`\n[\s\S]*?(?=\n#|$)/, (m) => "").replace(/\n\n\n+/g, "\n\n");
}
