// Writes legacy-home/: OpenCode's older layout (before 1.2's SQLite
// database), made by hand from sessions OpenCode 1.18.33 wrote into its
// database (../agentgen/opencode/fixtures: parallel, subagent), laid out as
// OpenCode's own json-migration.ts reads it back: storage/project/<id>.json,
// storage/session/<project>/<session>.json, storage/message/<session>/
// <message>.json, storage/part/<message>/<part>.json; each message's and
// part's file is the row's data with its ids put back in (id, sessionID,
// messageID), and a session's file is its row as Session.Info was.
// No OpenCode old enough to write these files was run: they are hand-made.
// Run: node make-legacy.mjs   (needs the sqlite3 program)
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "legacy-home", ".local", "share", "opencode", "storage");
rmSync(join(here, "legacy-home"), { recursive: true, force: true });
const q = (db, sql) => JSON.parse(execFileSync("sqlite3", ["-json", db, sql], { encoding: "utf8" }) || "[]");
const write = (path, value) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
};

for (const scenario of ["parallel", "subagent"]) {
  const db = join(here, "..", "agentgen", "opencode", "fixtures", scenario, "opencode", "opencode.db");
  for (const p of q(db, "SELECT * FROM project")) {
    write(join(out, "project", `${p.id}.json`), { id: p.id, worktree: p.worktree, vcs: p.vcs ?? undefined, sandboxes: [], time: { created: p.time_created, updated: p.time_updated } });
  }
  for (const s of q(db, "SELECT * FROM session ORDER BY id")) {
    const info = { id: s.id, slug: s.slug, version: s.version, projectID: s.project_id, directory: s.directory };
    if (s.parent_id) info.parentID = s.parent_id;
    info.title = s.title;
    info.time = { created: s.time_created, updated: s.time_updated };
    write(join(out, "session", s.project_id, `${s.id}.json`), info);
    for (const m of q(db, `SELECT * FROM message WHERE session_id = '${s.id}' ORDER BY id`)) {
      write(join(out, "message", s.id, `${m.id}.json`), { id: m.id, sessionID: s.id, ...JSON.parse(m.data) });
      for (const p of q(db, `SELECT * FROM part WHERE message_id = '${m.id}' ORDER BY id`)) {
        write(join(out, "part", m.id, `${p.id}.json`), { id: p.id, sessionID: s.id, messageID: m.id, ...JSON.parse(p.data) });
      }
    }
  }
}
