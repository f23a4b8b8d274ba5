import { describe, expect, it } from "vitest";
import { generatedIndex } from "../helpers/generated.js";

/**
 * Cost bounded by the input: the checks of a wide object read each of its keys once, and
 * validation collects errors up to a limit (100 unless told), past which it stops, the
 * work too, and says so. Counted, never timed: bench/linear.bench.js measures the time,
 * beside ajv's, on objects of a thousand and a million keys.
 */

type Result = { ok: boolean; errors?: readonly unknown[]; truncated?: true; unrecognized?: boolean; ignored?: readonly string[] };
type Check = (value: unknown, options?: { maxErrors?: number; mode?: "strict" | "tolerant" }) => Result;

const agUi = await generatedIndex("ag-ui");
const isEvent = agUi["isEvent"] as (value: unknown) => boolean;
const validateEvent = agUi["validateEvent"] as Check;
const decodeEvent = agUi["decodeEvent"] as Check;

/** A text message event, valid but for `n` properties its closed type does not have. */
function withUnknownKeys(n: number): Record<string, unknown> {
  const event: Record<string, unknown> = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" };
  for (let i = 0; i < n; i++) event[`unknown${i}`] = i;
  return event;
}

describe("validation stops collecting past a limit", () => {
  it("collects 100 errors unless told, says it stopped, and says nothing when it did not", () => {
    const wide = withUnknownKeys(1_000);
    const result = validateEvent(wide);
    expect(result).toMatchObject({ ok: false, truncated: true });
    expect(result.errors).toHaveLength(100);
    expect(result.errors![0]).toEqual({
      path: "/unknown0",
      keyword: "additionalProperties",
      message: 'must not have the property "unknown0"',
    });
    // Exactly as many as the limit: complete, so not truncated.
    const hundred = validateEvent(withUnknownKeys(100));
    expect(hundred.errors).toHaveLength(100);
    expect(hundred).not.toHaveProperty("truncated");
  });

  it("takes the limit as an option, at least one, and Infinity for every error", () => {
    const wide = withUnknownKeys(1_000);
    expect(validateEvent(wide, { maxErrors: 5 }).errors).toHaveLength(5);
    expect(validateEvent(wide, { maxErrors: 0 }).errors).toHaveLength(1);
    expect(validateEvent(wide, { maxErrors: Number.NaN }).errors).toHaveLength(1);
    const all = validateEvent(wide, { maxErrors: Infinity });
    expect(all.errors).toHaveLength(1_000);
    expect(all).not.toHaveProperty("truncated");
    expect(validateEvent(withUnknownKeys(0), { maxErrors: 1 })).toEqual({ ok: true, value: withUnknownKeys(0) });
  });

  it("holds for a decoder's explanation, strict; a tolerant decoder drops what it does not know", () => {
    const wide = withUnknownKeys(1_000);
    const strict = decodeEvent(wide);
    expect(strict).toMatchObject({ ok: false, unrecognized: false, truncated: true });
    expect(strict.errors).toHaveLength(100);
    expect(strict.errors).toEqual(validateEvent(wide).errors);
    expect(decodeEvent(wide, { maxErrors: 3 }).errors).toHaveLength(3);
    const tolerant = decodeEvent(wide, { mode: "tolerant", maxErrors: 3 });
    expect(tolerant).toMatchObject({ ok: true, value: withUnknownKeys(0) });
    expect(tolerant.ignored).toHaveLength(1_000);
  });

  it("stops the work past the limit, not only the storing: the properties after it are not read", () => {
    const reads = { count: 0 };
    const event: Record<string, unknown> = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" };
    for (let i = 0; i < 1_000; i++)
      Object.defineProperty(event, `unknown${i}`, {
        enumerable: true,
        get: () => {
          reads.count++;
          return i;
        },
      });
    for (const check of [validateEvent, decodeEvent]) {
      reads.count = 0;
      expect(check(event, { maxErrors: 10 }).errors).toHaveLength(10);
      // The eleventh error ends the checks; a guard asked first would read one more.
      expect(reads.count).toBeLessThanOrEqual(12);
    }
  });
});

describe("the checks of a wide object", () => {
  /** The object behind a proxy that counts how often its keys are listed, as `for…in` and `Object.keys` list them. */
  function counted(target: object): { proxy: object; listed: () => number } {
    let listed = 0;
    const proxy = new Proxy(target, {
      ownKeys(object) {
        listed++;
        return Reflect.ownKeys(object);
      },
    });
    return { proxy, listed: () => listed };
  }

  it("list its keys once, and a validator or decoder of a value it refuses twice: the tag is looked up, not found by a walk of the keys", () => {
    // A validator and a decoder ask the guard first, so that a valid value costs what the
    // guard costs, and then check, which lists the keys again; a tolerant decoder, whose
    // checks found properties it drops, then reads, a third time (and checks its copy).
    const checks: Readonly<Record<string, readonly [check: (value: unknown) => unknown, listings: number]>> = {
      isEvent: [isEvent, 1],
      validateEvent: [validateEvent, 2],
      decodeEvent: [decodeEvent, 2],
      "decodeEvent, tolerant": [(value) => decodeEvent(value, { mode: "tolerant" }), 3],
    };
    for (const [name, [check, listings]] of Object.entries(checks)) {
      const { proxy, listed } = counted(withUnknownKeys(1_000));
      check(proxy);
      expect([name, listed()]).toEqual([name, listings]);
    }
    // Valid: the same.
    const { proxy, listed } = counted({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" });
    expect(validateEvent(proxy).ok).toBe(true);
    expect(listed()).toBe(1);
  });

  it("do not copy what a strict decoder refuses", () => {
    const { proxy } = counted(withUnknownKeys(10));
    const defined: string[] = [];
    const define = Object.defineProperty;
    Object.defineProperty = ((object: object, key: PropertyKey, descriptor: PropertyDescriptor) => {
      if (typeof key === "string" && key.startsWith("unknown")) defined.push(key);
      return define(object, key, descriptor);
    }) as typeof Object.defineProperty;
    try {
      expect(decodeEvent(proxy).ok).toBe(false);
    } finally {
      Object.defineProperty = define;
    }
    expect(defined).toEqual([]);
  });

  it("tell an own tag from one a prototype lends, and one JSON does not write from one it does", () => {
    const lent = Object.create({ type: "TEXT_MESSAGE_CONTENT" }) as Record<string, unknown>;
    Object.assign(lent, { messageId: "m", delta: "hi" });
    expect([isEvent(lent), validateEvent(lent).ok, decodeEvent(lent).ok]).toEqual([false, false, false]);
    const hidden: Record<string, unknown> = { messageId: "m", delta: "hi" };
    Object.defineProperty(hidden, "type", { value: "TEXT_MESSAGE_CONTENT", enumerable: false });
    expect([isEvent(hidden), validateEvent(hidden).ok, decodeEvent(hidden).ok]).toEqual([false, false, false]);
    expect(validateEvent(hidden).errors).toEqual([{ path: "/type", keyword: "required", message: "is required" }]);
  });
});
