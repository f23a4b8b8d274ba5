import type { Name } from "./tree.js";
import { identifier } from "./build.js";

/**
 * The local names of one generated function. A local is named after what it holds
 * (`messageId`, `item`), made an identifier, and never shadows a parameter, another local
 * or a global the generated code uses.
 */
export class Scope {
  private readonly taken = new Set(GLOBALS);

  constructor(parameters: readonly string[] = []) {
    for (const parameter of parameters) this.taken.add(parameter);
  }

  local(preferred: string): Name {
    const words = preferred.split(/[^A-Za-z0-9_$]+/).filter((word) => word !== "");
    let base = words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join("") || "item";
    if (/^[0-9]/.test(base)) base = `_${base}`;
    let text = base;
    for (let i = 1; this.taken.has(text); i++) text = `${base}${i}`;
    this.taken.add(text);
    return identifier(text);
  }
}

/** Globals and words a local must not take. */
const GLOBALS = [
  "Array",
  "Number",
  "Object",
  "RegExp",
  "String",
  "JSON",
  "Math",
  "undefined",
  "NaN",
  "Infinity",
  "globalThis",
  "arguments",
  "eval",
  ...(
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield " +
    "implements interface let package private protected public static await any boolean never number object string symbol unknown"
  ).split(" "),
];
