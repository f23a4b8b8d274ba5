import { fileURLToPath, pathToFileURL } from "node:url";
import { InputError } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import type { Location } from "../files/folder.js";
import { locate } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import { describeFileError } from "../files/problem.js";
import { parseJson } from "../json.js";

/** Limits on what an upstream may send: a schema is text, and never this large. */
export interface FetchLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
}

const LIMITS: FetchLimits = { maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };

/** Plain http is for a server on this machine only (a test, a local mirror): anything else could be tampered with on the way. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Where a `file:` upstream may be: in the project, relative to its folder. */
export interface LocalFiles {
  /** The project's real path, which a relative `file:` URL starts from. */
  readonly root: string;
}

/**
 * The bytes at a protocol's `upstream` URL: `https:`, `file:` (relative to the config,
 * and inside the project), or `http:` on the loopback interface. Redirects are
 * followed on the same host only. Every failure is an InputError at the config entry's
 * `upstream`.
 */
export async function fetchUpstream(upstream: string, local: LocalFiles, where: SourceLocation, limits = LIMITS): Promise<Buffer> {
  const fail = (problem: string, hint?: string): never => {
    throw new InputError(where, `${upstream}: ${problem}`, hint);
  };
  let url: URL;
  try {
    url = new URL(upstream, pathToFileURL(`${local.root}/`));
  } catch {
    return fail("not a URL");
  }
  if (url.protocol === "file:") return readLocal(url, local.root, limits, fail);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname)))
    return fail(`${url.protocol} is not allowed`, "upstream URLs are https:, file: inside the project, or http: on 127.0.0.1 only");
  const signal = AbortSignal.timeout(limits.timeoutMs);
  for (let redirects = 0; ; redirects++) {
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: "manual",
        signal,
        headers: { accept: "application/schema+json, application/json;q=0.9, */*;q=0.1" },
      });
    } catch (error) {
      return fail(`cannot fetch: ${reason(error)}`);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) return fail(`HTTP ${response.status} without a Location`);
      const next = new URL(location, url);
      if (next.host !== url.host || next.protocol !== url.protocol)
        return fail(`redirected to ${next.origin}, another host`, "record the URL the content is served from as upstream");
      if (redirects >= limits.maxRedirects) return fail(`more than ${limits.maxRedirects} redirects`);
      url = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return fail(`HTTP ${response.status} ${response.statusText}`.trim());
    }
    return readBody(response, limits, fail);
  }
}

async function readBody(response: Response, limits: FetchLimits, fail: (problem: string) => never): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    return fail(`the body is ${declared} bytes, more than the ${limits.maxBytes} a schema may have`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Leaving the loop early cancels the rest of the body.
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) return fail(`the body is more than the ${limits.maxBytes} bytes a schema may have`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    return fail(`the body could not be read: ${reason(error)}`);
  }
  return Buffer.concat(chunks);
}

/**
 * A `file:` upstream's bytes, from a file of the project. One outside it, by its path or
 * through a link, is refused in the same words whether or not it exists: nothing outside
 * the project is looked at.
 */
function readLocal(url: URL, root: string, limits: FetchLimits, fail: (problem: string, hint?: string) => never): Buffer {
  const outside = (): never =>
    fail(
      "is outside the project",
      "a file: upstream names a file of the project, relative to the config; anything else is fetched by https:",
    );
  let location: Location;
  try {
    location = locate(root, fileURLToPath(url));
  } catch (error) {
    // A file URL of another host, or a folder of the project that cannot be looked into.
    return error instanceof TypeError ? outside() : fail(`cannot read: ${describeFileError(error)}`);
  }
  if (!location.inside) return outside();
  if (!location.exists) return fail("cannot read: no such file");
  try {
    if (nodeFileSystem.lstat(location.path).size > limits.maxBytes)
      return fail(`the file is more than the ${limits.maxBytes} bytes a schema may have`);
    return nodeFileSystem.read(location.path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    return fail(`cannot read: ${describeFileError(error)}`);
  }
}

function reason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === "TimeoutError") return "timed out";
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * What is vendored from an upstream body: the JSON document, and how much text before
 * it was removed. Some publishers put a line of text before the JSON (a title, a
 * notice); text before the first line that starts a JSON object or array is dropped, and
 * the caller says so. Anything else that is not JSON is refused with its line and column.
 */
export function vendor(body: Buffer, where: string): { readonly bytes: Buffer; readonly droppedLines: number } {
  const text = body.toString("utf8");
  if (isJson(text)) return { bytes: body, droppedLines: 0 };
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith("{") || line.startsWith("["));
  if (start > 0) {
    const rest = lines.slice(start).join("\n");
    if (isJson(rest)) return { bytes: Buffer.from(rest, "utf8"), droppedLines: start };
  }
  // Not JSON, with or without the text before it: parseJson says where it fails.
  parseJson(text, where);
  return { bytes: body, droppedLines: 0 };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
