import type { Plan, Repeats, StreamRule } from "../../templates/stream/tables.js";
import type { Declaration, Expression, Name, Statement, Type } from "../code/tree.js";
import {
  arrayLiteral,
  call,
  construct,
  constant,
  documentation,
  exportNames,
  functionDeclaration,
  identifier,
  ifThen,
  index,
  jsonLiteral,
  literal,
  member,
  objectLiteral,
  parameter,
  returns,
  typeReference,
  UNDEFINED,
  binary,
  keywordType,
  interfaceDeclaration,
  propertySignature,
  unionType,
  and,
} from "../code/build.js";
import { camelCase } from "../identifiers.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import type { CompiledStream } from "../stream/index.js";
import type { GeneratedFile } from "./file.js";
import { TYPES } from "./names.js";
import type { Template, TemplateName } from "./templates.js";
import { STREAM } from "./templates.js";

/**
 * `stream.ts`: the protocol's stream, from its stream facts. `readStream(source, options)`
 * reads and decodes events from bytes in the protocol's framing; `createVerifier()` checks
 * them against the ordering rules the prose states, declared here as a table (`RULES`),
 * each rule with the prose it comes from. A module of its own, so that importing the
 * types or guards never loads the reader.
 */
export function generateStream(f: GeneratedFile, ir: NamedIr, stream: CompiledStream): void {
  // Claimed before anything is imported, so that a type of one of these names is imported under another.
  const ruleNames = new Map(stream.rules.map((rule) => [rule, identifier(tableConstant(rule.name, "RULE"))] as const));
  f.reserve(["RULES", "PLANS", "TRANSPORT", "kindOf", "readStream", "createVerifier", ...[...ruleNames.values()].map(({ text }) => text)]);
  const stepNames = new Map(
    (stream.assembly?.plan.steps ?? []).map((step) => [step, identifier(tableConstant(step.name, "STEP"))] as const),
  );
  if (stream.assembly !== undefined)
    f.reserve(["Snapshot", "INITIAL", "ASSEMBLY", "createAssembler", ...[...stepNames.values()].map(({ text }) => text)]);
  // Each kind's Repeats.same, where it reads a key: `textMessageContentRepeats`.
  const repeated = [...stream.plans.byKind].filter(([, plan]) => (plan.repeats?.paths.length ?? 0) > 0);
  const repeatsNames = new Map(repeated.map(([kind, plan]) => [plan.repeats!, f.allocate(`${camelCase(kind, "kind")}Repeats`)] as const));
  const shared = sharedSteps(f, stream, ruleNames);
  const names = namesOf(ir, stream.event);
  const event = typeReference(f.import(stream.event, TYPES, { typeOnly: true }));
  const decode = f.import(names.decoder, "./validate.js");
  const rulesType = typeReference(identifier("ReadonlyArray"), [typeReference(f.import("StreamRule", STREAM.tables, { typeOnly: true }))]);
  const rules = identifier("RULES");
  const plans = identifier("PLANS");
  const transport = identifier("TRANSPORT");
  const kindOf = identifier("kindOf");
  const value = identifier("event");
  const kindBody: Statement[] =
    "tag" in stream.discriminant
      ? [returns(member(value, stream.discriminant.tag))]
      : [
          ...stream.discriminant.members.map((name) => ifThen(binary(member(value, name), "!==", UNDEFINED), returns(literal(name)))),
          returns(literal("")),
        ];
  const source = identifier("source");
  const options = identifier("options");
  const declarations = [
    constant(transport, jsonLiteral({ ...stream.transport }), {
      type: typeReference(f.import("Transport", STREAM.tables, { typeOnly: true })),
      doc: documentation([`How the stream is sent: ${stream.because}`]),
    }),
    ...stream.rules.map((rule) =>
      constant(ruleNames.get(rule)!, tableLiteral(rule, new Map()), {
        type: typeReference(f.import(RULE_TYPES[rule.kind], STREAM.tables, { typeOnly: true })),
        doc: documentation([`The ${rule.name.replaceAll("-", " ")} rule: ${rule.because}`]),
      }),
    ),
    constant(rules, arrayLiteral([...ruleNames.values()]), {
      type: rulesType,
      doc: documentation(["The ordering rules of the stream, from the overlay's stream facts, in their order."]),
    }),
    ...repeated.map(([kind, { repeats }]) => repeatsFunction(f, kind, repeats!, repeatsNames.get(repeats!)!)),
    ...shared.declarations,
    constant(plans, plansLiteral(f, stream, new Map<unknown, Name>([...ruleNames, ...shared.names]), repeatsNames), {
      type: typeReference(f.import("Plans", STREAM.tables, { typeOnly: true })),
      doc: documentation([
        "What the verifier asks of an event of each kind: the rules that can say anything of it, in their order, with which of their selectors its kind matches and the paths of its keys, compiled by agentwire so that a push reads no rule it need not.",
      ]),
    }),
    functionDeclaration({
      doc: documentation([
        "tag" in stream.discriminant
          ? `An event's kind, as the rules name it: its \`${stream.discriminant.tag}\`.`
          : "An event's kind, as the rules name it: the member it has.",
      ]),
      exported: false,
      name: kindOf,
      parameters: [parameter(value, event)],
      returns: keywordType("string"),
      body: kindBody,
    }),
    functionDeclaration({
      doc: documentation([
        `Reads {@link ${stream.event}}s from a stream of bytes (a \`fetch\` body, or any async iterable of bytes or strings), framed as ${stream.transport.framing === "sse" ? "server-sent events" : "JSON lines"} unless \`options.framing\` says otherwise, and decodes each as {@link ${names.decoder}} does, strictly or tolerantly. Each result carries its index, byte offset and line. Any chunk boundary works; memory is bounded by \`options.maxEventSize\`; a chunk is read only when the next result is asked for; \`options.signal\` and \`options.idleTimeout\` stop a stream that stalls or never ends.`,
      ]),
      exported: true,
      name: identifier("readStream"),
      parameters: [
        parameter(source, typeReference(f.import("StreamSource", STREAM.source, { typeOnly: true }))),
        parameter(options, typeReference(f.import("ReadOptions", STREAM.read, { typeOnly: true })), { optional: true }),
      ],
      returns: typeReference(identifier("AsyncGenerator"), [
        typeReference(f.import("StreamResult", STREAM.result, { typeOnly: true }), [event]),
        keywordType("void"),
        keywordType("undefined"),
      ]),
      body: [returns(call(f.import("readEvents", STREAM.read), [source, decode, transport, options]))],
    }),
    functionDeclaration({
      doc: documentation([
        `A verifier of the stream's ordering rules ({@link RULES}): \`push\` each {@link ${stream.event}} in order, then \`end()\`. Each returns the first rule broken, if any. What it holds of the stream is bounded by \`options.maxMemory\`.`,
      ]),
      exported: true,
      name: identifier("createVerifier"),
      parameters: [parameter(options, typeReference(f.import("VerifyOptions", STREAM.verify, { typeOnly: true })), { optional: true })],
      returns: typeReference(f.import("Verifier", STREAM.verify, { typeOnly: true }), [event]),
      body: [returns(call(f.import("verifier", STREAM.verify), [rules, plans, kindOf, options]))],
    }),
    ...(stream.assembly === undefined
      ? []
      : assemblyDeclarations(f, stream, event, new Map<unknown, Name>([...ruleNames, ...stepNames]), kindOf)),
    // The types a user of the stream module names, re-exported from it.
    typeExports(STREAM.read, ["ReadOptions"]),
    typeExports(STREAM.result, ["StreamFault", "StreamPlace", "StreamResult", "Violation"]),
    typeExports(STREAM.source, ["StreamSource"]),
    typeExports(STREAM.verify, ["Verifier", "VerifyOptions"]),
    ...(stream.assembly === undefined ? [] : [typeExports(STREAM.assemble, ["Assembler"])]),
    ...transformDeclarations(f, stream, event, decode),
  ];
  for (const declaration of declarations) f.declare(declaration);
}

// ---------------------------------------------------------------------------------------
// The stream as web TransformStreams (templates/stream/transform.ts), for `pipeThrough`.

/**
 * `decodeStream(options)`, `verifyStream(options)` and, where the stream is assembled,
 * `assembleStream()` and `checkStream(options)` (the three in one stage): the reader, the
 * verifier and the assembler above as TransformStreams, typed by the consumer's own web
 * streams; and their types.
 */
function transformDeclarations(f: GeneratedFile, stream: CompiledStream, event: Type, decode: Name): Declaration[] {
  f.reserve(["decodeStream", "verifyStream", "assembleStream", "checkStream"]);
  const options = identifier("options");
  const transformType = (name: TemplateName<typeof STREAM.transform>, args: readonly Type[]) =>
    typeReference(f.import(name, STREAM.transform, { typeOnly: true }), args);
  const bytes = typeReference(identifier("Uint8Array"));
  const checked = transformType("Checked", [event]);
  const result = typeReference(f.import("StreamResult", STREAM.result, { typeOnly: true }), [event]);
  const snapshot = typeReference(identifier("Snapshot"));
  const assembled = stream.assembly !== undefined;
  return [
    functionDeclaration({
      doc: documentation([
        "{@link readStream} as a web TransformStream, for `pipeThrough`: bytes (a `fetch` body's) in, one result per event out, as `readStream(body, options)` yields them, faults included: `response.body.pipeThrough(decodeStream())`. A chunk is taken only once the results of the last are read, but the one the writable side holds, so backpressure reaches the source; cancelling the readable side cancels the source of a pipe, and a pipe's `signal` stops it. A fault that stops the reading (too large, not UTF-8) ends the readable side; the source's error errors it (where `readStream` first reports the event it cut off). No `idleTimeout`: a stage cannot tell when its reader waits.",
      ]),
      exported: true,
      name: identifier("decodeStream"),
      parameters: [parameter(options, transformType("DecodeStreamOptions", []), { optional: true })],
      returns: transformType("TransformPair", [bytes, result]),
      body: [returns(call(f.import("decoding", STREAM.transform), [decode, identifier("TRANSPORT"), options]))],
    }),
    functionDeclaration({
      doc: documentation([
        "{@link createVerifier} as a web TransformStream: results in (from {@link decodeStream}), each passed on as it came, and after the result of an event that broke a rule, that {@link Violation}; at the end, the violation of the end, if any ({@link Checked}). A result that is not ok is counted, not checked, as `skip()` does.",
      ]),
      exported: true,
      name: identifier("verifyStream"),
      parameters: [parameter(options, typeReference(f.import("VerifyOptions", STREAM.verify, { typeOnly: true })), { optional: true })],
      returns: transformType("TransformPair", [checked, checked]),
      body: [returns(call(f.import("verifying", STREAM.transform), [call(identifier("createVerifier"), [options])]))],
    }),
    ...(!assembled
      ? []
      : [
          functionDeclaration({
            doc: documentation([
              "{@link createAssembler} as a web TransformStream: results in, each passed on as it came and its event assembled, a refusal after its result, as a {@link Violation} at the result's index; `snapshot()` is what they have built ({@link Snapshot}).",
            ]),
            exported: true,
            name: identifier("assembleStream"),
            parameters: [],
            returns: transformType("AssemblyStream", [checked, event, snapshot]),
            body: [returns(call(f.import("assembling", STREAM.transform), [call(identifier("createAssembler"), [])]))],
          }),
          functionDeclaration({
            doc: documentation([
              "{@link decodeStream}, {@link verifyStream} (with `options.verify`) and {@link assembleStream} in one TransformStream: what the three piped give, in their order, at the cost of one (each stage of a pipe costs more per event than the three do; bench/stream.bench.js).",
            ]),
            exported: true,
            name: identifier("checkStream"),
            parameters: [parameter(options, transformType("CheckStreamOptions", []), { optional: true })],
            returns: transformType("AssemblyStream", [bytes, event, snapshot]),
            body: [
              returns(
                call(f.import("checking", STREAM.transform), [
                  decode,
                  identifier("TRANSPORT"),
                  identifier("createVerifier"),
                  identifier("createAssembler"),
                  options,
                ]),
              ),
            ],
          }),
        ]),
    typeExports(STREAM.transform, [
      "Checked",
      ...(assembled ? (["AssemblyStream", "CheckStreamOptions"] as const) : []),
      "DecodeStreamOptions",
      "TransformPair",
    ]),
  ];
}

/** `export type { names } from "template"`. */
function typeExports<Value extends string, Type extends string>(
  from: Template<Value, Type>,
  names: readonly NoInfer<Value | Type>[],
): Declaration {
  return exportNames(names.map(identifier), from.path, { typeOnly: true });
}

/**
 * `Snapshot`, what the stream builds (a field per fact, typed by the schema's types), the
 * steps events take on it, each a constant, the plan that files them under the kinds they
 * name (`ASSEMBLY`), and `createAssembler()`.
 */
function assemblyDeclarations(
  f: GeneratedFile,
  stream: CompiledStream,
  event: Type,
  tableNames: ReadonlyMap<unknown, Name>,
  kindOf: Name,
): Declaration[] {
  const { snapshot, steps, plan } = stream.assembly!;
  const snapshotType = identifier("Snapshot");
  const fieldType = ({ type, list, nullable, partial }: (typeof snapshot)[number]): Type => {
    const named = type === "unknown" ? keywordType("unknown") : typeReference(f.import(type, TYPES, { typeOnly: true }));
    const base = partial ? typeReference(identifier("Partial"), [named]) : named;
    const element = list ? typeReference(identifier("ReadonlyArray"), [base]) : base;
    return nullable ? unionType([element, keywordType("null")]) : element;
  };
  const initial = identifier("INITIAL");
  const assembly = identifier("ASSEMBLY");
  const stepPlan = typeReference(f.import("StepPlan", STREAM.tables, { typeOnly: true }));
  return [
    interfaceDeclaration(
      snapshotType,
      snapshot.map((field) => propertySignature(field.name, fieldType(field), { readonly: true })),
      documentation([`What the stream builds, event by event: ${snapshot.map(({ name }) => `\`${name}\``).join(", ")}.`]),
    ),
    constant(initial, jsonLiteral(Object.fromEntries(snapshot.map(({ name, initial: value }) => [name, value]))), {
      type: typeReference(snapshotType),
      doc: documentation(["The snapshot before any event."]),
    }),
    ...plan.steps.map((step, i) =>
      constant(tableNames.get(step)!, tableLiteral(step, new Map()), {
        type: stepPlan,
        doc: documentation([`The ${step.name.replaceAll("-", " ")} step: ${steps[i]!.because}`]),
      }),
    ),
    constant(
      assembly,
      objectLiteral([
        { key: "steps", value: arrayLiteral(plan.steps.map((step) => tableNames.get(step)!)) },
        {
          key: "byKind",
          value: construct(identifier("Map"), [
            arrayLiteral([...plan.byKind].map(([kind, filed]) => arrayLiteral([literal(kind), tableLiteral(filed, tableNames)]))),
          ]),
        },
        { key: "chunks", value: tableLiteral(plan.chunks, tableNames) },
        { key: "chunked", value: tableLiteral(plan.chunked, tableNames) },
      ]),
      {
        type: typeReference(f.import("AssemblyPlan", STREAM.tables, { typeOnly: true })),
        doc: documentation([
          "What each kind of event does to the snapshot: the steps a selector of which names it, in their order, compiled by agentwire from the overlay's assembly facts; and the events the chunk rules' chunks stand for, into which chunks are first expanded.",
        ]),
      },
    ),
    functionDeclaration({
      doc: documentation([
        `An assembler of the stream: \`push\` each {@link ${stream.event}} in order; \`snapshot()\` is what they have built ({@link Snapshot}). A step that cannot apply (a patch that does not apply, a delta for something never started) is returned as a violation and changes nothing; nothing throws.`,
      ]),
      exported: true,
      name: identifier("createAssembler"),
      parameters: [],
      returns: typeReference(f.import("Assembler", STREAM.assemble, { typeOnly: true }), [event, typeReference(snapshotType)]),
      body: [returns(call(f.import("assembler", STREAM.assemble), [assembly, kindOf, initial]))],
    }),
  ];
}

/** The runtime's type of each kind of rule. */
const RULE_TYPES: Readonly<Record<StreamRule["kind"], TableName>> = {
  first: "FirstRule",
  "only-first": "OnlyFirstRule",
  terminal: "TerminalRule",
  inside: "InsideRule",
  span: "SpanRule",
  refers: "RefersRule",
  chunk: "ChunkRule",
};

/** A name `templates/stream/tables.ts` exports. */
type TableName = TemplateName<typeof STREAM.tables>;

/**
 * The constant a rule or an assembly step is declared as: its name in capitals, then what
 * it is, `TEXT_MESSAGE_RULE` (names are lowercase words joined by "-", and unique).
 */
function tableConstant(name: string, what: "RULE" | "STEP" | "CHECK"): string {
  return `${name.replaceAll("-", "_").toUpperCase()}_${what}`;
}

/**
 * The plans as a literal: a Map of each kind's, and the plan of the kinds no rule names;
 * a plan's repeats with the function that reads them, where it has one.
 */
function plansLiteral(
  f: GeneratedFile,
  stream: CompiledStream,
  tableNames: ReadonlyMap<unknown, Name>,
  repeatsNames: ReadonlyMap<Repeats, Name>,
): Expression {
  const planType = typeReference(f.import("Plan", STREAM.tables, { typeOnly: true }));
  const planLiteral = ({ repeats, ...plan }: Plan) =>
    objectLiteral([
      ...Object.entries(plan).map(([key, item]) => ({ key, value: tableLiteral(item, tableNames) })),
      {
        key: "repeats",
        value:
          repeats === undefined
            ? UNDEFINED
            : objectLiteral([
                { key: "paths", value: tableLiteral(repeats.paths, tableNames) },
                ...(repeatsNames.has(repeats) ? [{ key: "same", value: repeatsNames.get(repeats)! }] : []),
              ]),
      },
    ]);
  const byKind = [...stream.plans.byKind].map(([kind, plan]) => arrayLiteral([literal(kind), planLiteral(plan)]));
  return objectLiteral([
    { key: "byKind", value: construct(identifier("Map"), [arrayLiteral(byKind)], [keywordType("string"), planType]) },
    { key: "unnamed", value: planLiteral(stream.plans.unnamed) },
  ]);
}

/**
 * The steps the plans of several kinds ask alike (a chunk rule's lane, which every other
 * event ends; what comes first), each declared once, `TEXT_MESSAGE_CHUNK_CHECK`, and the
 * name of each plan's step that is one of them.
 */
function sharedSteps(
  f: GeneratedFile,
  stream: CompiledStream,
  ruleNames: ReadonlyMap<StreamRule, Name>,
): { readonly declarations: readonly Declaration[]; readonly names: ReadonlyMap<unknown, Name> } {
  const plans = [...stream.plans.byKind, [undefined, stream.plans.unnamed] as const];
  const byText = new Map<
    string,
    { readonly step: Step; readonly type: TableName; readonly kinds: (string | undefined)[]; readonly steps: Step[] }
  >();
  for (const [kind, plan] of plans) {
    const steps: (readonly [Step, TableName])[] = [
      ...plan.chunks.map((step) => [step, "ChunkStep"] as const),
      ...plan.checks.map((step) => [step, "Check"] as const),
      ...plan.spans.map((step) => [step, step.kind === "span" ? "SpanStep" : "RefersStep"] as const),
      ...plan.terminals.map((step) => [step, "TerminalStep"] as const),
    ];
    for (const [step, type] of steps) {
      // A rule by its name: the steps of two kinds are alike where they print alike.
      const text = `${type} ${JSON.stringify(step, (_, value: unknown) => (ruleNames.has(value as StreamRule) ? (value as StreamRule).name : value))}`;
      const known = byText.get(text) ?? { step, type, kinds: [], steps: [] };
      byText.set(text, known);
      known.kinds.push(kind);
      known.steps.push(step);
    }
  }
  const declarations: Declaration[] = [];
  const names = new Map<unknown, Name>();
  for (const { step, type, kinds, steps } of byText.values()) {
    if (kinds.length < 2) continue;
    const name = f.allocate(tableConstant(step.rule.name, "CHECK"));
    declarations.push(
      constant(name, tableLiteral(step, ruleNames), {
        type: typeReference(f.import(type, STREAM.tables, { typeOnly: true })),
        doc: documentation([`The ${step.rule.name.replaceAll("-", " ")} rule as the plans of ${kindsInWords(kinds)} ask it.`]),
      }),
    );
    for (const each of steps) names.set(each, name);
  }
  return { declarations, names };
}

/** Kinds in words (undefined: those no rule names): "A, B", "23 kinds and every other". */
function kindsInWords(kinds: readonly (string | undefined)[]): string {
  const named = kinds.filter((kind) => kind !== undefined);
  const listed = named.length <= 4 ? named.join(", ") : `${named.length} kinds`;
  return named.length === kinds.length ? listed : `${listed} and every other kind`;
}

/** A step of a plan, in any of its phases. */
type Step = Plan["chunks"][number] | Plan["checks"][number] | Plan["spans"][number] | Plan["terminals"][number];

/**
 * A kind's `Repeats.same`: its event's values at the paths, each compared with the last
 * event's, a path of one property read by its name (which the engine caches), a longer
 * one by `valueAt`.
 */
function repeatsFunction(f: GeneratedFile, kind: string, repeats: Repeats, name: Name): Declaration {
  const event = identifier("event");
  const values = identifier("values");
  const valueAt = (path: readonly string[]) =>
    path.length === 1 ? index(event, literal(path[0]!)) : call(f.import("valueAt", STREAM.select), [event, jsonLiteral([...path])]);
  return functionDeclaration({
    doc: documentation([
      `Whether a ${kind} event has the values the last one had at ${repeats.paths.map((path) => path.join("/")).join(", ")}: the keys it is read by (Plan.repeats). Equal values are equal keys: \`valueAt\` read the last one's.`,
    ]),
    exported: false,
    name,
    parameters: [
      parameter(
        event,
        typeReference(identifier("Readonly"), [typeReference(identifier("Record"), [keywordType("string"), keywordType("unknown")])]),
      ),
      parameter(values, typeReference(identifier("ReadonlyArray"), [keywordType("unknown")])),
    ],
    returns: keywordType("boolean"),
    body: [returns(and(repeats.paths.map((path, i) => binary(valueAt(path), "===", index(values, literal(i))))))],
  });
}

/** A table's value as a literal: JSON, where a rule is named by its constant and an absent value is `undefined`. */
function tableLiteral(value: unknown, ruleNames: ReadonlyMap<unknown, Name>): Expression {
  const named = ruleNames.get(value);
  if (named !== undefined) return named;
  if (value === undefined) return UNDEFINED;
  if (typeof value !== "object" || value === null) return literal(value as string | number | boolean | null);
  if (Array.isArray(value)) return arrayLiteral(value.map((item: unknown) => tableLiteral(item, ruleNames)));
  return objectLiteral(Object.entries(value).map(([key, item]) => ({ key, value: tableLiteral(item, ruleNames) })));
}
