/**
 * How deep agentwire nests. Its stages recurse (a schema's subschemas, a shape's members,
 * a code tree's nodes, a document's groups), and so does the code it writes for a type,
 * so a schema nested without bound would end in a stack overflow somewhere between
 * reading and printing. What nests deeper than this is refused instead, saying where and
 * this limit: a file's objects and arrays (`json.ts`), the schemas normalization reads
 * inside each other, counting the definitions composed into them, and a type's shapes as
 * the emitters walk them (`normalize/`).
 *
 * The deepest of 540 public schemas (SchemaStore) nests its JSON 21 deep and its schemas
 * 14; the JSON Schema Test Suite, 7. The stages hold up past 480 on the constructs that
 * cost them the most stack (`items` and `additionalProperties` in each other, one JSON
 * level each) as a command of its own (`test/limits.test.ts` generates at the limit).
 */
export const NESTING_LIMIT = 128;

/**
 * How many input errors a run reports, of those that do not depend on each other: every
 * malformed keyword of a schema, and each protocol's own errors (`errors.ts`
 * InputErrorList). Past this many, the rest are counted, not shown: a schema wrong
 * throughout says so in a screenful, as a compiler stops listing after its first few
 * dozen.
 */
export const ERROR_LIMIT = 20;
