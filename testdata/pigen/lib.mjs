// Shared helpers for the fixture generators: a fake clock (so that pi's
// SessionManager writes realistic, spaced timestamps), a seeded PRNG, and
// builders for the messages pi 0.73.1 stores.
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { prepareCompaction } from "./node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js";
import { computeFileLists, formatFileOperations } from "./node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/utils.js";

// ---- fake clock ---------------------------------------------------------
let now = Date.parse("2026-03-02T09:00:00.000Z");
const RealDate = Date;
class FakeDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(now);
    else super(...args);
  }
  static now() {
    return now;
  }
}
globalThis.Date = FakeDate;

export function setClock(iso) {
  now = RealDate.parse(iso);
}
export function tick(ms) {
  now += ms;
}
export function clock() {
  return now;
}

// ---- PRNG -------------------------------------------------------------------
export function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
}

// ---- messages -----------------------------------------------------------------
export const PROVIDERS = [
  { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
  { api: "openai-responses", provider: "openai", model: "gpt-5.1-codex" },
  { api: "google-generative-ai", provider: "google", model: "gemini-2.5-pro" },
];

export function usage(input, output, cacheRead = 0, cacheWrite = 0) {
  const c = (n, per) => Math.round(n * per * 1e6) / 1e12;
  const cost = {
    input: c(input, 3),
    output: c(output, 15),
    cacheRead: c(cacheRead, 0.3),
    cacheWrite: c(cacheWrite, 3.75),
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

export function user(content) {
  return { role: "user", content, timestamp: Date.now() };
}

export function assistant(content, opts = {}) {
  const p = opts.p ?? PROVIDERS[0];
  const msg = {
    role: "assistant",
    content,
    api: p.api,
    provider: p.provider,
    model: p.model,
    usage: opts.usage ?? usage(1200, 300, 800, 0),
    stopReason: opts.stopReason ?? (content.some((b) => b.type === "toolCall") ? "toolUse" : "stop"),
    timestamp: Date.now(),
  };
  if (opts.errorMessage) msg.errorMessage = opts.errorMessage;
  return msg;
}

let callSeq = 0;
export function toolCall(name, args) {
  callSeq++;
  return { type: "toolCall", id: `toolu_${String(callSeq).padStart(4, "0")}${name}`, name, arguments: args };
}

export function toolResult(call, text, opts = {}) {
  const content = typeof text === "string" ? [{ type: "text", text }] : text;
  const msg = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content,
    isError: opts.isError ?? false,
    timestamp: Date.now(),
  };
  if (opts.details !== undefined) msg.details = opts.details;
  return msg;
}

export function bash(command, output, exitCode = 0, extra = {}) {
  return { role: "bashExecution", command, output, exitCode, cancelled: false, truncated: false, timestamp: Date.now(), ...extra };
}

// A tiny valid PNG (1x1), base64.
export const PNG_1x1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

// ---- a session writer that ticks the clock between entries --------------------
export class Writer {
  constructor(cwd, dir, r) {
    this.sm = SessionManager.create(cwd, dir);
    this.r = r;
  }
  gap(lo = 2000, hi = 40000) {
    tick(this.r ? this.r.int(lo, hi) : lo);
  }
  msg(m) {
    this.gap();
    m.timestamp = Date.now();
    return this.sm.appendMessage(m);
  }
  call(name, args, resultText, opts = {}) {
    const tc = toolCall(name, args);
    const text = opts.text ? [{ type: "text", text: opts.text }] : [];
    const thinking = opts.thinking ? [{ type: "thinking", thinking: opts.thinking, thinkingSignature: "sig" }] : [];
    this.msg(assistant([...thinking, ...text, tc], opts));
    this.msg(toolResult(tc, resultText, opts));
    return tc;
  }
  turn(question, answer, opts = {}) {
    this.msg(user(question));
    return this.msg(assistant([{ type: "text", text: answer }], opts));
  }
  // Compacts exactly as pi's compact() does, with a deterministic summary in
  // pi's structured format instead of an LLM's.
  compact(keepRecentTokens, opts = {}) {
    const path = this.sm.getBranch();
    const prep = prepareCompaction(path, { enabled: true, reserveTokens: 16384, keepRecentTokens });
    if (!prep) return undefined;
    const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
    let summary =
      `## Goal\n${opts.goal ?? "Keep the session going."}\n\n## Constraints & Preferences\n- (none)\n\n` +
      `## Progress\n### Done\n- [x] Summarized ${prep.messagesToSummarize.length} messages\n\n### In Progress\n- [ ] Continue\n\n` +
      `### Blocked\n- (none)\n\n## Key Decisions\n- **Compaction**: keep ${keepRecentTokens} tokens\n\n` +
      `## Next Steps\n1. Carry on\n\n## Critical Context\n- (none)`;
    if (prep.isSplitTurn) summary += `\n\n---\n\n**Turn Context (split turn):**\n\n## Original Request\nSee above.`;
    summary += formatFileOperations(readFiles, modifiedFiles);
    this.gap();
    return this.sm.appendCompaction(summary, prep.firstKeptEntryId, prep.tokensBefore, { readFiles, modifiedFiles }, opts.fromHook);
  }
  get file() {
    return this.sm.getSessionFile();
  }
  get leaf() {
    return this.sm.getLeafId();
  }
}
