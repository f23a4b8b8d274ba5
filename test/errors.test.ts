import { describe, expect, it } from "vitest";
import { InputError, InputErrorList, InputErrors } from "../generator/errors.js";
import { ERROR_LIMIT } from "../generator/limits.js";

const error = (i: number, hint?: string) => new InputError({ file: `schemas/f${i}.json`, pointer: `/${i}` }, `problem ${i}`, hint);

/** What an InputErrorList throws once the errors are added; undefined when it throws nothing. */
function thrown(...errors: InputError[]): InputError | undefined {
  const list = new InputErrorList();
  for (const each of errors) list.add(each);
  try {
    list.throwIfAny();
  } catch (caught) {
    return caught as InputError;
  }
  return undefined;
}

describe("InputErrorList", () => {
  it("throws nothing when nothing was added, and a single error as it is", () => {
    expect(thrown()).toBeUndefined();
    const one = error(1, "a hint");
    expect(thrown(one)).toBe(one);
  });

  it("throws more than one as InputErrors: an InputError, the first's location, each one's message on its own lines", () => {
    const all = thrown(error(1, "a hint"), error(2));
    expect(all).toBeInstanceOf(InputErrors);
    expect(all).toBeInstanceOf(InputError);
    const errors = all as InputErrors;
    expect(errors.count).toBe(2);
    expect(errors.location).toEqual({ file: "schemas/f1.json", pointer: "/1" });
    expect(errors.message).toBe("schemas/f1.json#/1: problem 1\n  a hint\nschemas/f2.json#/2: problem 2");
    expect(errors.reports).toEqual(["schemas/f1.json#/1: problem 1\n  a hint", "schemas/f2.json#/2: problem 2"]);
  });

  it(`keeps the first ${ERROR_LIMIT} and counts the rest`, () => {
    const errors = thrown(...Array.from({ length: ERROR_LIMIT + 3 }, (_, i) => error(i))) as InputErrors;
    expect(errors.errors.map((each) => each.problem)).toEqual(Array.from({ length: ERROR_LIMIT }, (_, i) => `problem ${i}`));
    expect(errors.unshown).toBe(3);
    expect(errors.count).toBe(ERROR_LIMIT + 3);
    expect(errors.reports.at(-1)).toBe("… 3 more errors not shown");
  });

  it("adds the errors of an InputErrors each, and counts those it did not show", () => {
    const inner = thrown(...Array.from({ length: ERROR_LIMIT + 1 }, (_, i) => error(i))) as InputErrors;
    const outer = thrown(error(100), inner) as InputErrors;
    expect(outer.errors.map((each) => each.problem)).toEqual(["problem 100", ...inner.errors.slice(0, -1).map((each) => each.problem)]);
    expect(outer.unshown).toBe(2);
    expect(outer.errors.some((each) => each instanceof InputErrors)).toBe(false);
  });
});

describe("InputError.relocated", () => {
  it("moves an error, and each of several", () => {
    const move = (location: InputError["location"]) => ({ ...location, file: `HEAD:${location.file}` });
    expect(error(1, "hint").relocated(move).message).toBe("HEAD:schemas/f1.json#/1: problem 1\n  hint");
    const several = (thrown(error(1), error(2)) as InputErrors).relocated(move);
    expect(several).toBeInstanceOf(InputErrors);
    expect(several.message).toBe("HEAD:schemas/f1.json#/1: problem 1\nHEAD:schemas/f2.json#/2: problem 2");
  });
});
