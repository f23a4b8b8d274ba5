// The schema of the unevaluated benchmark (bench/unevaluated.bench.js) and of its test
// (test/bench/unevaluated.test.ts): one type that is an allOf of k anyOfs of 3 branches,
// each branch evaluating properties, items or both of its own, closed by
// unevaluatedProperties, unevaluatedItems or both.

/** What branch `j` of choice `i` evaluates: a property of its own, or a position or a `contains` of its own. */
const BRANCHES = {
  properties: (i, j) => ({ properties: { [`p${i}_${j}`]: { type: "integer" } }, required: [`p${i}_${j}`] }),
  items: (i, j) => (j === 2 ? { contains: { const: i } } : { prefixItems: [...(j === 1 ? [true] : []), { const: i }] }),
};

/** The schema, for `keyword` "properties", "items" or "both". */
export function unevaluatedSchema(k, keyword) {
  const keywords = keyword === "both" ? ["properties", "items"] : [keyword];
  const branch = (i, j) => Object.assign({}, ...keywords.map((each) => BRANCHES[each](i, j)));
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $ref: "#/$defs/Chosen",
    $defs: {
      Chosen: {
        ...(keyword === "both" ? {} : { type: keyword === "properties" ? "object" : "array" }),
        allOf: Array.from({ length: k }, (_, i) => ({ anyOf: [0, 1, 2].map((j) => branch(i, j)) })),
        ...(keywords.includes("properties") ? { unevaluatedProperties: false } : {}),
        ...(keywords.includes("items") ? { unevaluatedItems: false } : {}),
      },
    },
  };
}
