/** JSON Pointers (RFC 6901), kept in their string form: "" is the whole document. */

export function escapeToken(token: string): string {
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapeToken(token: string): string {
  if (!token.includes("~")) return token;
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

export function appendPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  let appended = pointer;
  for (const token of tokens) appended += `/${typeof token === "number" ? token : escapeToken(token)}`;
  return appended;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON Pointer: ${JSON.stringify(pointer)}`);
  return pointer.slice(1).split("/").map(unescapeToken);
}

/**
 * The JSON Pointer a local `$ref` names, its fragment percent-decoded (`"#/$defs/A%20B"` is
 * `"/$defs/A B"`); undefined where the value is no string, or names another document.
 */
export function localRefPointer(ref: unknown): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  // Most refs hold no escape: decoding them would only copy them.
  return ref.includes("%") ? decodeURIComponent(ref.slice(1)) : ref.slice(1);
}

/** The value at `pointer`, or undefined when the pointer leads nowhere. */
export function getAtPointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token)) node = node[Number(token)];
    else if (typeof node === "object" && node !== null && !Array.isArray(node) && Object.hasOwn(node, token))
      node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}

/** `pointer` is `prefix` or lies beneath it. */
export function isWithin(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}
