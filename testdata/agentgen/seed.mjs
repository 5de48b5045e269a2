// A fresh seed for a cross-check run (AGENTGEN_SEED=N): the fake servers of
// both agents then vary what they answer from the scenario's script: each
// text the model says gets a word added, each usage figure a random amount,
// and the sleeps of commands meant to finish out of order are drawn anew,
// so that the order tools finish in changes. What the servers sent is what
// the fixtures record (usage.json, the agents' own files), so the Go tests,
// which compare skein with those records, hold for any seed. Without
// AGENTGEN_SEED nothing varies: the committed fixtures are made that way.
const raw = process.env.AGENTGEN_SEED;
export const seed = raw ? Number.parseInt(raw, 10) >>> 0 : null;

// mulberry32: small, seeded, good enough to pick words and numbers.
let state = seed ?? 0;
function next() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));

const words = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kelp", "lagoon", "marble", "nectar", "onyx", "prairie", "quartz", "russet", "sierra", "tundra", "umber", "velvet", "willow", "xenon", "yarrow", "zephyr"];

// text is t with a word added when a seed is set.
export const text = (t) => (seed == null ? t : `${t} (${words[int(0, words.length - 1)]})`);

// count is n moved by a random amount when a seed is set (never below 0;
// a zero stays zero, so that a field the script left out stays out of the
// sums).
export const count = (n) => (seed == null || !n ? n : Math.max(1, n + int(-Math.floor(n / 3), Math.floor(n / 2) + 7)));

// sleeps are the given seconds, shuffled when a seed is set.
export function sleeps(list) {
  if (seed == null) return list;
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// outDir is where a generator writes its fixtures: AGENTGEN_OUT/<agent> when
// set, else the agent's own fixtures folder.
export const outDir = (agent, fallback) => (process.env.AGENTGEN_OUT ? `${process.env.AGENTGEN_OUT}/${agent}` : fallback);
