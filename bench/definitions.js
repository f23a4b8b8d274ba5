// A schema of n definitions, made from a seed, as a large spec is written: records whose
// fields ref other definitions (mostly further down, as a spec is read from its root; some
// back up, so that there are cycles of a few types), enums, unions tagged by a constant,
// nullable unions of refs, arrays and maps of refs, and records composed with allOf.
// The definitions benchmark (bench/definitions.bench.js) generates it at 1k, 10k and 100k.

import { random } from "./random.js";

/** What each definition is, by share of the whole. */
const KINDS = [
  ["Record", 0.55],
  ["Status", 0.15],
  ["Event", 0.1],
  ["Choice", 0.1],
  ["List", 0.05],
  ["Extended", 0.05],
];

/** A draft 2020-12 schema whose `$defs` hold `n` definitions, the same for the same `n` and seed. */
export function manyDefinitions(n, seed = 20) {
  const next = random(seed);
  const pick = (items) => items[Math.floor(next() * items.length)];
  const kinds = Array.from({ length: n }, () => {
    let roll = next();
    for (const [kind, share] of KINDS) if ((roll -= share) < 0) return kind;
    return "Record";
  });
  const name = (i) => `${kinds[i]}${i}`;
  const ref = (i) => ({ $ref: `#/$defs/${name(i)}` });
  // The nearest definition of a kind after i (wrapping around), within a window, as a spec
  // defines what a type uses soon after it; one in twenty refs goes back a few instead.
  // A union of refs is another name for its members: it refs records and events only, so that no union is a name for itself.
  const target = (i, wanted = undefined) => {
    const back = next() < 0.05;
    const start = back ? Math.max(0, i - 1 - Math.floor(next() * 20)) : i + 1 + Math.floor(next() * 200);
    for (let step = 0; step < n; step++) {
      const j = (start + (back ? -step : step) + n) % n;
      if (wanted === undefined ? kinds[j] !== "Status" : Array.isArray(wanted) ? wanted.includes(kinds[j]) : kinds[j] === wanted) return j;
    }
    return i;
  };
  const scalar = () =>
    pick([
      { type: "string", minLength: 1 },
      { type: "integer", minimum: 0, maximum: 1000 },
      { type: "number" },
      { type: "boolean" },
      { type: "string", format: "date-time" },
      { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
    ]);
  const record = (i) => {
    const properties = { id: { type: "string", minLength: 1, description: `The id of this ${name(i)}.` } };
    const fields = 2 + Math.floor(next() * 5);
    for (let f = 0; f < fields; f++) properties[`field${f}`] = scalar();
    properties.status = ref(target(i, "Status"));
    const links = 1 + Math.floor(next() * 3);
    for (let l = 0; l < links; l++) {
      const other = ref(target(i));
      properties[`link${l}`] = pick([other, other, { type: "array", items: other }, { type: "object", additionalProperties: other }]);
    }
    return {
      type: "object",
      description: `A ${name(i)} of the benchmark's schema.`,
      properties,
      required: ["id", "status", ...(next() < 0.5 ? ["field0"] : [])],
      ...(next() < 0.5 ? { additionalProperties: false } : {}),
    };
  };
  const definition = (i) => {
    switch (kinds[i]) {
      case "Record":
        return record(i);
      case "Status":
        return { type: "string", enum: Array.from({ length: 3 + Math.floor(next() * 4) }, (_, v) => `state_${i}_${v}`) };
      case "Event": {
        const members = Array.from({ length: 2 + Math.floor(next() * 3) }, (_, m) => ({
          type: "object",
          properties: { kind: { const: `${name(i)}.${m}` }, at: { type: "string" }, payload: ref(target(i)) },
          required: ["kind", "payload"],
          additionalProperties: false,
        }));
        return { oneOf: members };
      }
      case "Choice":
        return { anyOf: [ref(target(i, ["Record", "Event"])), ref(target(i, ["Record", "Event"])), { type: "null" }] };
      case "List":
        return { type: "array", items: ref(target(i)), minItems: 1 };
      default:
        return { allOf: [ref(target(i, "Record")), { properties: { field0: { description: "Required here." } }, required: ["field0"] }] };
    }
  };
  const $defs = {};
  for (let i = 0; i < n; i++) $defs[name(i)] = definition(i);
  return { $schema: "https://json-schema.org/draft/2020-12/schema", title: "Many", $ref: `#/$defs/${name(0)}`, $defs };
}
