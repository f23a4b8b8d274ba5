import type { JsonObject } from "../json.js";
import type { Doc } from "../ir/model.js";

/** The JSDoc a schema carries: its description, default and deprecation. */
export function docOf(schema: JsonObject): Doc {
  const description = typeof schema["description"] === "string" ? tidy(schema["description"]) : "";
  return {
    ...(description === "" ? {} : { description }),
    ...(schema["default"] === undefined ? {} : { default: schema["default"] }),
    ...(schema["deprecated"] === true ? { deprecated: true } : {}),
  };
}

/** Merges what two schemas say about one field: the first to say something wins. */
export function mergeDocs(first: Doc, second: Doc): Doc {
  return {
    ...((first.description ?? second.description) !== undefined ? { description: (first.description ?? second.description)! } : {}),
    ...((first.default ?? second.default) !== undefined ? { default: (first.default ?? second.default)! } : {}),
    ...((first.deprecated ?? second.deprecated) ? { deprecated: true as const } : {}),
  };
}

/**
 * Removes the indentation that comment-derived descriptions carry on their continuation
 * lines (proto comments become "first line\n second line"), and trailing blanks.
 */
function tidy(text: string): string {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd());
  const rest = lines.slice(1).filter((line) => line !== "");
  const indent = rest.length === 0 ? 0 : Math.min(...rest.map((line) => /^ */.exec(line)![0].length));
  return [lines[0]!.trim(), ...lines.slice(1).map((line) => line.slice(indent))].join("\n").trim();
}
