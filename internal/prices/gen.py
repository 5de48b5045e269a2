#!/usr/bin/env python3
"""Writes prices.json, skein's price table, from a checkout of models.dev.

    git clone https://github.com/anomalyco/models.dev /tmp/models.dev
    python3 internal/prices/gen.py /tmp/models.dev > internal/prices/prices.json

models.dev (MIT) keeps one TOML file per model and provider, with prices in
US dollars per million tokens. The table keeps the chat models (text out)
of the first-party providers below, in this order: a model id two of them
name keeps the first one's price. Prices stay per million tokens, as the
source writes them; tiers are its context tiers (a request whose context,
input and cache reads and writes, is over `above` tokens is priced at the
tier's prices).
"""
import json
import subprocess
import sys
import tomllib
from pathlib import Path

PROVIDERS = ["anthropic", "openai", "google", "xai", "deepseek", "mistral", "groq", "moonshotai", "zai", "minimax"]
FIELDS = {"input": "input", "output": "output", "cache_read": "cacheRead", "cache_write": "cacheWrite"}


def prices(cost):
    return {FIELDS[k]: cost[k] for k in FIELDS if k in cost}


def load(root, path):
    p = root / path
    return tomllib.loads(p.read_text()) if p.exists() else {}


# claude-opus-5-5, Claude Code 2.1.332's default model: the price Claude Code
# itself charges for it (its total_cost_usd and cost-state lines on every run
# of testdata/agentgen/claude come to these figures exactly).
AGENTS_OWN = {
    "claude-opus-5-5": {"input": 4.0, "output": 20.0, "cacheRead": 0.2, "cacheWrite": 5.0,
                        "from": "Claude Code 2.1.332's own cost (total_cost_usd)"},
}


def main():
    root = Path(sys.argv[1])
    git = lambda *a: subprocess.run(["git", "-C", str(root), *a], capture_output=True, text=True).stdout.strip()
    commit, date = git("log", "-1", "--format=%H"), git("log", "-1", "--format=%cs")
    models = {}
    for provider in PROVIDERS:
        for f in sorted((root / "providers" / provider / "models").glob("*.toml")):
            m = tomllib.loads(f.read_text())
            base = load(root, Path("models") / (m["base_model"] + ".toml")) if "base_model" in m else {}
            cost = m.get("cost") or base.get("cost")
            out = (m.get("modalities") or base.get("modalities") or {}).get("output", [])
            name = f.stem
            if not cost or "text" not in out or "embedding" in name or name in models:
                continue
            row = prices(cost)
            tiers = [dict(above=t["tier"]["size"], **prices(t)) for t in cost.get("tiers", []) if t["tier"].get("type", "context") == "context"]
            if tiers:
                row["tiers"] = sorted(tiers, key=lambda t: t["above"])
            models[name] = row
    # Models an agent prices itself that models.dev does not list, each
    # with where its price was read: never a guess.
    for name, row in AGENTS_OWN.items():
        if name not in models:
            models[name] = row
    table = {
        "source": "models.dev, https://github.com/anomalyco/models.dev (formerly sst/models.dev), MIT License; models it lacks that an agent prices itself say so (\"from\")",
        "commit": commit,
        "date": date,
        "unit": "US dollars per million tokens",
        "providers": PROVIDERS,
        "models": dict(sorted(models.items())),
    }
    # One model a line: small, and a diff of a newer table reads well.
    lines = ["{"]
    for k in ["source", "commit", "date", "unit", "providers"]:
        lines.append(f"  {json.dumps(k)}: {json.dumps(table[k])},")
    lines.append('  "models": {')
    items = list(table["models"].items())
    for i, (k, v) in enumerate(items):
        lines.append(f"    {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}" + ("," if i < len(items) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    print("\n".join(lines))


main()
