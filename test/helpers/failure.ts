import { InputError } from "../../generator/errors.js";

/**
 * The message of the InputError that `run` throws, as the CLI would print it after its
 * prefix. Fails the test if `run` succeeds or throws anything else (a bug, not bad input).
 */
export async function inputError(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error("expected an InputError");
}
