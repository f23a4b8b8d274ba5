import type { JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import { Code, concat, group, hardline, indent, join, line, softline } from "./code.js";

/**
 * A JSON document laid out as prettier lays out JSON: objects one member per line,
 * arrays on one line when they fit.
 */
export function jsonCode(value: JsonValue): Code {
  if (Array.isArray(value)) {
    if (value.length === 0) return Code.trusted("[]");
    return group(
      Code.trusted("["),
      indent(softline, join(concat(Code.trusted(","), line), value.map(jsonCode))),
      softline,
      Code.trusted("]"),
    );
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return Code.trusted("{}");
    const members = keys.map((key) => concat(Code.trusted(`${JSON.stringify(key)}: `), jsonCode(value[key]!)));
    return concat(Code.trusted("{"), indent(hardline, join(concat(Code.trusted(","), hardline), members)), hardline, Code.trusted("}"));
  }
  return Code.trusted(JSON.stringify(value));
}
