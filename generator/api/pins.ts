import { applyEdits, modify } from "jsonc-parser";
import type { FormattingOptions } from "jsonc-parser";
import type { Pin } from "../load/index.js";
import { parsePointer } from "../pointer.js";

/**
 * The pins of the config are a lockfile: what a schema's sha256 was when the output was
 * last written from it. These functions rewrite them in the config's own text, so that
 * its formatting, key order and other entries stay as the user wrote them.
 */

/** The pins that no longer match their schema: changed since the last generation, or never recorded. */
export function stalePins(pins: readonly Pin[]): Pin[] {
  return pins.filter((pin) => pin.pinned !== pin.sha256);
}

/** The config text with each pin's current sha256 recorded; a new pin goes right after its entry's "schema". */
export function repin(config: string, pins: readonly Pin[]): string {
  const formatting = formattingOf(config);
  let text = config;
  for (const pin of pins) {
    const entry = parsePointer(pin.entry).map((token) => (/^\d+$/.test(token) ? Number(token) : token));
    const edits = modify(text, [...entry, "sha256"], pin.sha256, {
      formattingOptions: formatting,
      getInsertionIndex: (keys) => {
        const schema = keys.indexOf("schema");
        return schema === -1 ? keys.length : schema + 1;
      },
    });
    text = applyEdits(text, edits);
  }
  return text;
}

/** What `generate` did: `acme: pinned schemas/acme.schema.json at sha256 f8c085eb… (was 893a81d2…)`. */
export function describeRepin(pin: Pin): string {
  const was = pin.pinned === undefined ? "not pinned before" : `was ${short(pin.pinned)}`;
  return `${pin.protocol}: pinned ${pin.file} at sha256 ${short(pin.sha256)} (${was})`;
}

/** What `check` finds: `acme: schemas/acme.schema.json changed since it was pinned (sha256 f8c085eb…, pinned 893a81d2…)`. */
export function describeStalePin(pin: Pin): string {
  return pin.pinned === undefined
    ? `${pin.protocol}: ${pin.file} is not pinned (sha256 ${short(pin.sha256)})`
    : `${pin.protocol}: ${pin.file} changed since it was pinned (sha256 ${short(pin.sha256)}, pinned ${short(pin.pinned)})`;
}

function short(sha256: string): string {
  return `${sha256.slice(0, 8)}…`;
}

/** The indentation and line ends the config already uses, so that an inserted key lines up with its neighbours. */
export function layoutOf(text: string): { readonly indent: string; readonly eol: string } {
  return { indent: /\n([ \t]+)"/.exec(text)?.[1] ?? "  ", eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

function formattingOf(text: string): FormattingOptions {
  const { indent, eol } = layoutOf(text);
  return indent.startsWith("\t") ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}
