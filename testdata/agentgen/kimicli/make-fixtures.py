"""Hand-made fixtures of the legacy Kimi CLI (kimi-cli 1.52.0), written as
its writers write them: wire/file.py (a metadata line, then
{"timestamp", "message": {"type", "payload"}} records dumped with
json.dumps(..., ensure_ascii=False)), soul/context.py (context.jsonl),
metadata.py (kimi.json, sessions/<md5 of the cwd>/<uuid>/). The CLI could
not be run here: pypi is not reachable from this machine. Run:
python3 make-fixtures.py (it rewrites fixtures/)."""
import hashlib, json, os, shutil

CWD = "/sandbox/proj"
HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1796568000.25


def dump(o):
    return json.dumps(o, ensure_ascii=False) + "\n"


def usage(i, o, c=0):
    return {"input_other": i, "output": o, "input_cache_read": c, "input_cache_creation": 0}


def write(name, sid, wire, context, used):
    root = os.path.join(HERE, "fixtures", name)
    shutil.rmtree(root, ignore_errors=True)
    share = os.path.join(root, "kimi-share")
    sdir = os.path.join(share, "sessions", hashlib.md5(CWD.encode()).hexdigest(), sid)
    os.makedirs(sdir)
    with open(os.path.join(share, "kimi.json"), "w") as f:
        json.dump({"work_dirs": [{"path": CWD, "kaos": "local", "last_session_id": sid}]}, f)
    with open(os.path.join(sdir, "wire.jsonl"), "w") as f:
        f.write(dump({"type": "metadata", "protocol_version": "1.10"}))
        for k, (typ, payload) in enumerate(wire):
            f.write(dump({"timestamp": T0 + k * 0.5, "message": {"type": typ, "payload": payload}}))
    with open(os.path.join(sdir, "context.jsonl"), "w") as f:
        f.write(dump({"role": "_system_prompt", "content": "You are Kimi CLI."}))
        for m in context:
            f.write(dump(m))
    # What an OpenAI-compatible server reports, as kosong's provider maps
    # it: prompt_tokens less cached_tokens is input_other.
    reported = [{"usage": {"prompt_tokens": u["input_other"] + u["input_cache_read"],
                           "completion_tokens": u["output"],
                           "prompt_tokens_details": {"cached_tokens": u["input_cache_read"]}}} for u in used]
    with open(os.path.join(root, "usage.json"), "w") as f:
        json.dump(reported, f, indent=1)


def status(u):
    return ("StatusUpdate", {"context_usage": 0.01, "context_tokens": u["input_other"] + u["output"],
                             "max_context_tokens": 262144, "token_usage": u, "message_id": "chatcmpl-1",
                             "plan_mode": None, "mcp_status": None})


# A plain turn, then a resume (kimi --session) with a second turn.
u1, u2 = usage(120, 8), usage(20, 9, 128)
write("plain-resume", "5f0c9a52-1d7e-4c1b-9e8a-2b6f3c4d5e01", [
    ("TurnBegin", {"user_input": "Say hello"}),
    ("StepBegin", {"n": 1}),
    ("ContentPart", {"type": "think", "think": "A greeting.", "encrypted": None}),
    ("ContentPart", {"type": "text", "text": "Hello!"}),
    status(u1),
    ("TurnEnd", {}),
    ("TurnBegin", {"user_input": [{"type": "text", "text": "And again"}]}),
    ("StepBegin", {"n": 1}),
    ("ContentPart", {"type": "text", "text": "Hello again."}),
    status(u2),
    ("TurnEnd", {}),
], [
    {"role": "_checkpoint", "id": 0},
    {"role": "user", "content": "Say hello"},
    {"role": "assistant", "content": [{"type": "think", "think": "A greeting."}, {"type": "text", "text": "Hello!"}]},
    {"role": "_usage", "token_count": 128},
    {"role": "_checkpoint", "id": 1},
    {"role": "user", "content": [{"type": "text", "text": "And again"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Hello again."}]},
    {"role": "_usage", "token_count": 157},
], [u1, u2])

# Two calls in one step, one ok and one failing; the second's arguments
# came as a ToolCallPart (the wire merges most, not always all).
u3, u4 = usage(300, 40), usage(80, 12, 300)
write("tools", "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c02", [
    ("TurnBegin", {"user_input": "List the files and read missing.txt"}),
    ("StepBegin", {"n": 1}),
    ("ContentPart", {"type": "text", "text": "Looking."}),
    ("ToolCall", {"type": "function", "id": "call_1", "function": {"name": "Shell", "arguments": "{\"command\": \"ls\"}"}, "extras": None}),
    ("ToolCall", {"type": "function", "id": "call_2", "function": {"name": "ReadFile", "arguments": "{\"path\": "}, "extras": None}),
    ("ToolCallPart", {"arguments_part": "\"missing.txt\"}"}),
    status(u3),
    ("ToolResult", {"tool_call_id": "call_1", "return_value": {"is_error": False, "output": "a.txt\nb.txt\n", "message": "Command executed successfully.", "display": [], "extras": None}}),
    ("ToolResult", {"tool_call_id": "call_2", "return_value": {"is_error": True, "output": "", "message": "`missing.txt` does not exist.", "display": [{"type": "brief", "text": "File not found"}], "extras": None}}),
    ("StepBegin", {"n": 2}),
    ("ContentPart", {"type": "text", "text": "Two files; missing.txt is not there."}),
    status(u4),
    ("TurnEnd", {}),
], [
    {"role": "_checkpoint", "id": 0},
    {"role": "user", "content": "List the files and read missing.txt"},
    {"role": "assistant", "content": [{"type": "text", "text": "Looking."}], "tool_calls": [
        {"type": "function", "id": "call_1", "function": {"name": "Shell", "arguments": "{\"command\": \"ls\"}"}},
        {"type": "function", "id": "call_2", "function": {"name": "ReadFile", "arguments": "{\"path\": \"missing.txt\"}"}}]},
    {"role": "tool", "content": [{"type": "text", "text": "<system>Command executed successfully.</system>"}, {"type": "text", "text": "a.txt\nb.txt\n"}], "tool_call_id": "call_1"},
    {"role": "tool", "content": [{"type": "text", "text": "<system>ERROR: `missing.txt` does not exist.</system>"}], "tool_call_id": "call_2"},
    {"role": "_usage", "token_count": 340},
    {"role": "assistant", "content": [{"type": "text", "text": "Two files; missing.txt is not there."}]},
    {"role": "_usage", "token_count": 392},
], [u3, u4])
