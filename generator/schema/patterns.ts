import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { appendPointer } from "../pointer.js";
import { walkSchemas } from "./walk.js";

/** A regular expression a schema gives, and where: a `pattern`'s value, or a name under `patternProperties`. */
export interface PatternSite {
  readonly source: string;
  readonly pointer: string;
}

/** Every pattern of a schema and its subschemas (`propertyNames`' among them), in document order. */
export function patternsOf(schema: JsonValue, pointer = ""): PatternSite[] {
  const found: PatternSite[] = [];
  walkSchemas(schema, pointer, (each, at) => {
    if (!isJsonObject(each)) return;
    if (typeof each["pattern"] === "string") found.push({ source: each["pattern"], pointer: appendPointer(at, "pattern") });
    const properties = each["patternProperties"];
    if (isJsonObject(properties))
      for (const source of Object.keys(properties)) found.push({ source, pointer: appendPointer(at, "patternProperties", source) });
  });
  return found;
}
