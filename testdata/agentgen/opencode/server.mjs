// A fake OpenAI Chat Completions API for OpenCode (its @ai-sdk/openai-compatible
// provider): POST .../chat/completions
// answered from a script, as server-sent events (chat.completion.chunk: the
// role, reasoning_content deltas, content deltas, tool_calls deltas, then a
// chunk with finish_reason and one with the usage the script chose), or with
// an HTTP error. Every request is logged, body and all, whatever its path.
// Node's stdlib only.
import http from "node:http";
import * as seeded from "../seed.mjs";

// Reply specs the scenarios use.
export const say = (text) => ({ text });
export const call = (id, name, args) => ({ id, name, args: typeof args === "string" ? args : JSON.stringify(args) });
export const usage = (prompt, completion, cached = 0, reasoning = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  ...(reasoning ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
});

// whoOf tells whose request a body is: the title's request ("title": its
// system prompt asks for a title), a compaction's summary ("compress"), a
// sub-agent's ("sub") or the session's own agent ("main"). A sub-agent
// (the task tool's child session) has the same system prompt as its
// parent; its first user message is the task's prompt as the model wrote
// it, where the session's own is the prompt of `opencode run`, which
// OpenCode 1.18.33 writes in double quotes.
export function whoOf(body) {
  const msgs = body?.messages ?? [];
  const sys = JSON.stringify(msgs.filter((m) => m.role === "system").map((m) => m.content));
  if (/You are a title generator/i.test(sys)) return "title";
  const last = JSON.stringify(msgs.at(-1)?.content ?? "");
  if (/summar/i.test(last) && /detailed summary|continuing our conversation|summarize/i.test(last)) return "compress";
  const firstUser = msgs.find((m) => m.role === "user");
  const text = typeof firstUser?.content === "string" ? firstUser.content : (firstUser?.content?.find?.((p) => p.type === "text")?.text ?? "");
  if (firstUser && !text.startsWith('"')) return "sub";
  return "main";
}

// start serves replies in order: each chat completion request takes the next
// one meant for its agent (a reply's `who`: "main", the default, "sub" or
// "compress"; whoOf). A reply is { text, thinking, calls, usage } (a
// completed response; calls may be a function of the body and ctx) or
// { status, error } (an HTTP error with an OpenAI error body). onRequest gets
// { n, method, url, headers, body, who, reply } for every request. who
// tells whose a request is (whoOf by default: an agent that quotes its
// prompts otherwise gives its own).
export function start(replies, onRequest, ctx, who0 = whoOf) {
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      n++;
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = raw;
      try {
        body = JSON.parse(raw);
      } catch {}
      const headers = { ...req.headers };
      delete headers.authorization;
      const r = { n, method: req.method, url: req.url, headers, body };
      if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
        onRequest({ ...r, reply: "404" });
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found", type: "invalid_request_error", code: null, param: null } }));
        return;
      }
      const who = who0(body);
      const at = replies.findIndex((x) => (x.who ?? "main") === who);
      let reply =
        at >= 0
          ? replies.splice(at, 1)[0]
          : who === "title"
            ? { text: "A title", usage: usage(100, 3), title: true }
            : { text: "(the script has no reply for this request)", usage: usage(1, 1), unscripted: true };
      if (typeof reply.calls === "function") reply = { ...reply, calls: reply.calls(body, ctx) };
      if (seeded.seed != null && !reply.unscripted) reply = vary(reply);
      onRequest({ ...r, who, reply: { ...reply, id: `chatcmpl-${String(n).padStart(4, "0")}` } });
      answer(res, reply, n, body);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ port: server.address().port, close: () => new Promise((r) => server.close(r)) })));
}

function answer(res, reply, n, body) {
  if (reply.status) {
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: reply.error }));
    return;
  }
  const id = `chatcmpl-${String(n).padStart(4, "0")}`;
  const model = body?.model ?? "fake-model";
  const created = 1796558400 + n;
  if (body && body.stream === false) {
    const message = { role: "assistant", content: reply.text ?? null };
    if (reply.thinking) message.reasoning_content = reply.thinking;
    if (reply.calls?.length) message.tool_calls = reply.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: reply.calls?.length ? "tool_calls" : "stop" }], usage: reply.usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (delta, finish = null, extra = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`);
  send({ role: "assistant", content: "" });
  for (const p of pieces(reply.thinking ?? "")) if (p) send({ reasoning_content: p });
  for (const p of pieces(reply.text ?? "")) if (p) send({ content: p });
  (reply.calls ?? []).forEach((c, i) => {
    send({ tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
    send({ tool_calls: [{ index: i, function: { arguments: c.args } }] });
  });
  send({}, reply.calls?.length ? "tool_calls" : "stop");
  if (reply.usage) res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: reply.usage })}\n\n`);
  res.write("data: [DONE]\n\n");
  res.end();
}

// pieces splits a text into a few deltas, as a model streams it.
function pieces(text) {
  const words = text.split(/(?<= )/);
  const out = [];
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(""));
  return out;
}

// vary is a reply as a fresh seed changes it (../seed.mjs): a word added to
// each text the model says, its usage figures moved (the cached tokens kept
// below the prompt, the total their sum).
function vary(reply) {
  const out = { ...reply };
  if (reply.text) out.text = seeded.text(reply.text);
  const u = reply.usage;
  if (u) {
    const prompt = seeded.count(u.prompt_tokens);
    const cached = Math.min(seeded.count(u.prompt_tokens_details?.cached_tokens ?? 0), prompt);
    out.usage = usage(prompt, seeded.count(u.completion_tokens), cached, seeded.count(u.completion_tokens_details?.reasoning_tokens ?? 0));
  }
  return out;
}
