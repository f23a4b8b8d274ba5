// Linearity benchmark: the cost of checking an AG-UI event grows with its size and no
// faster. A MESSAGES_SNAPSHOT event carries n messages (valid, then each one broken), a
// STATE_DELTA n patch operations, a TEXT_MESSAGE_CONTENT a delta of n characters; each is
// checked by isEvent, validateEvent and decodeEvent, and the time per item should stay
// flat as n grows a thousandfold. Then wide objects, of a thousand and a million keys as
// JSON.parse makes them (a million keys is an object in V8's dictionary mode), beside ajv:
// a closed AG-UI event with n unknown keys, an A2A map of n scopes, valid and every one
// broken. Run with `npm run bench`; `--only=wide` runs the wide objects alone.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { Ajv2020 } from "ajv/dist/2020.js";

const REPO = path.resolve(import.meta.dirname, "..");
const ONLY = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const { isEvent, validateEvent, decodeEvent } = await import(path.join(REPO, "generated/dist/ag-ui/index.js"));
const a2a = await import(path.join(REPO, "generated/dist/a2a/index.js"));

const message = (i) => ({ id: `m${i}`, role: "user", content: `message ${i}` });
const SHAPES = {
  "MESSAGES_SNAPSHOT, n messages": (n, broken) => ({
    type: "MESSAGES_SNAPSHOT",
    messages: Array.from({ length: n }, (_, i) => (broken ? { ...message(i), role: "nobody" } : message(i))),
  }),
  "STATE_DELTA, n operations": (n, broken) => ({
    type: "STATE_DELTA",
    delta: Array.from({ length: n }, (_, i) => (broken ? { op: "add", path: `a/${i}` } : { op: "add", path: `/a/${i}`, value: i })),
  }),
  "TEXT_MESSAGE_CONTENT, n characters": (n, broken) => ({
    type: "TEXT_MESSAGE_CONTENT",
    messageId: "m",
    delta: "x".repeat(n),
    ...(broken ? { unknown: true } : {}),
  }),
};
const SIZES = [1_000, 10_000, 100_000, 1_000_000];
// Every error is collected (maxErrors: Infinity), so that a broken document's cost is that
// of reporting all of it; by default the checks stop at 100 (see the wide objects below).
const ALL = { maxErrors: Infinity };
const CHECKS = {
  isEvent,
  validateEvent: (value) => validateEvent(value, ALL),
  decodeEvent: (value) => decodeEvent(value, ALL),
};

// Garbage collection: a check that reports a million errors keeps a million objects alive,
// and collecting a heap that large costs more per object than collecting a small one. The
// time the collector takes is measured apart, so that what the checks themselves cost shows.
const collections = [];
new PerformanceObserver((list) => collections.push(...list.getEntries())).observe({ entryTypes: ["gc"] });
const collectedBetween = (from, to) =>
  collections.filter((entry) => entry.startTime >= from && entry.startTime < to).reduce((sum, entry) => sum + entry.duration, 0);

/**
 * Nanoseconds per item of one check of the document, all in and without the garbage
 * collector's time, the median of five runs of at least 50 ms.
 */
function perItem(check, document, n) {
  const runs = [];
  check(document);
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    let reps = 0;
    do {
      check(document);
      reps++;
    } while (performance.now() - started < 50);
    const ended = performance.now();
    // Entries arrive after the run; wait for them before counting.
    runs.push({ all: ((ended - started) * 1e6) / reps / n, started, ended, reps });
  }
  return runs;
}
const rows = [];
if (ONLY === undefined || ONLY === "linear")
  for (const [label, make] of Object.entries(SHAPES))
    for (const broken of [false, true])
      for (const [name, check] of Object.entries(CHECKS))
        rows.push({
          label: `${label}${broken ? ", broken" : ""}`,
          name,
          runs: SIZES.map((n) => ({ n, runs: perItem(check, make(n, broken), n) })),
        });
await new Promise((resolve) => setTimeout(resolve, 100));

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ns = (value) => (value < 0.1 ? "<0.1 ns" : `${value.toFixed(1)} ns`);
if (rows.length > 0) {
  console.log(`| document | check | ${SIZES.map((n) => `n = ${n.toLocaleString("en")}`).join(" | ")} | growth | growth without GC |`);
  console.log(`| --- | --- | ${SIZES.map(() => "--:").join(" | ")} | --: | --: |`);
  let worst = 0;
  for (const { label, name, runs } of rows) {
    const all = runs.map(({ runs }) => median(runs.map((run) => run.all)));
    const mutator = runs.map(({ n, runs }) =>
      median(runs.map((run) => ((run.ended - run.started - collectedBetween(run.started, run.ended)) * 1e6) / run.reps / n)),
    );
    // Growth of the cost per item from the smallest document to the largest: 1 is linear,
    // less is a check that stops early or does not read what grows.
    const growth = (costs) => costs.at(-1) / costs[0];
    worst = Math.max(worst, growth(mutator));
    console.log(
      `| ${label} | ${name} | ${all.map((cost, i) => `${ns(cost)} (${ns(mutator[i])})`).join(" | ")} | ${growth(all).toFixed(2)} | ${growth(mutator).toFixed(2)} |`,
    );
  }
  // A check that read its input more than once per item would grow with n: tenfold per
  // tenfold here. Allocation-heavy checks (errors, copies) rise a little with the heap's size
  // (cache misses, a larger heap to collect), which is why the bound is not 1.
  const BOUND = 3;
  console.log(
    `\nCost per item, in brackets without the collector's time, over a thousandfold growth of the input: ` +
      `at most ${worst.toFixed(2)}× without GC (goal: within ${BOUND}×, ${worst <= BOUND ? "met" : "missed"}).`,
  );
}

// Wide objects: the cost per key of each check beside ajv's (its default, which stops at
// the first error), at n = 1,000 and 1,000,000 keys. The checks are linear when the cost
// per key stays flat, and close to ajv when the ratio is near 1.
if (ONLY === undefined || ONLY === "wide") {
  const ajvOf = (protocol, root) => {
    const schema = JSON.parse(readFileSync(path.join(REPO, "generated/src", protocol, "schema.json"), "utf8"));
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(schema, "effective");
    return ajv.compile({ $ref: `effective#/$defs/${root}` });
  };
  const keys = (n, value) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));
  // Made by JSON.parse, as a receiver gets them.
  const parsed = (value) => JSON.parse(JSON.stringify(value));
  const event = ajvOf("ag-ui", "Event");
  const flow = ajvOf("a2a", "AuthorizationCodeOAuthFlow");
  const WIDE = [
    {
      label: "closed: an AG-UI TEXT_MESSAGE_CONTENT with n unknown keys",
      make: (n) => parsed({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi", ...keys(n, () => 1) }),
      checks: { isEvent, validateEvent, "decodeEvent (strict)": decodeEvent, ajv: event },
    },
    {
      label: "map: an A2A AuthorizationCodeOAuthFlow with n scopes",
      make: (n) => parsed({ authorizationUrl: "https://a", tokenUrl: "https://t", scopes: keys(n, (i) => `scope ${i}`) }),
      checks: {
        isAuthorizationCodeOAuthFlow: a2a.isAuthorizationCodeOAuthFlow,
        validateAuthorizationCodeOAuthFlow: a2a.validateAuthorizationCodeOAuthFlow,
        decodeAuthorizationCodeOAuthFlow: a2a.decodeAuthorizationCodeOAuthFlow,
        ajv: flow,
      },
    },
    {
      label: "map: the same with every scope broken (a number)",
      make: (n) => parsed({ authorizationUrl: "https://a", tokenUrl: "https://t", scopes: keys(n, (i) => i) }),
      checks: {
        isAuthorizationCodeOAuthFlow: a2a.isAuthorizationCodeOAuthFlow,
        validateAuthorizationCodeOAuthFlow: a2a.validateAuthorizationCodeOAuthFlow,
        decodeAuthorizationCodeOAuthFlow: a2a.decodeAuthorizationCodeOAuthFlow,
        ajv: flow,
      },
    },
  ];
  const WIDTHS = [1_000, 1_000_000];
  /** Nanoseconds per key of one check, the median of perItem's five runs, all in. */
  const perKey = (check, document, n) => median(perItem(check, document, n).map((run) => run.all));
  console.log(`\nWide objects: nanoseconds per key, and the ratio to ajv at each size\n`);
  console.log(`| object | check | ${WIDTHS.map((n) => `n = ${n.toLocaleString("en")}`).join(" | ")} | growth |`);
  console.log(`| --- | --- | ${WIDTHS.map(() => "--:").join(" | ")} | --: |`);
  let worstGrowth = 0;
  let worstRatio = 0;
  for (const { label, make, checks } of WIDE) {
    const documents = WIDTHS.map(make);
    const costs = Object.fromEntries(
      Object.entries(checks).map(([name, check]) => [name, WIDTHS.map((n, i) => perKey(check, documents[i], n))]),
    );
    for (const [name, cost] of Object.entries(costs)) {
      const ratios = cost.map((value, i) => value / costs.ajv[i]);
      const growth = cost.at(-1) / cost[0];
      if (name !== "ajv") {
        worstGrowth = Math.max(worstGrowth, growth);
        worstRatio = Math.max(worstRatio, ratios.at(-1));
      }
      const cells = cost.map((value, i) => (name === "ajv" ? ns(value) : `${ns(value)} (${ratios[i].toFixed(2)}×)`));
      console.log(`| ${label} | ${name} | ${cells.join(" | ")} | ${growth.toFixed(2)} |`);
    }
  }
  console.log(
    `\nWide objects: cost per key grows at most ${worstGrowth.toFixed(2)}× from a thousand keys to a million; ` +
      `at a million keys, at most ${worstRatio.toFixed(2)}× ajv's.`,
  );
}
