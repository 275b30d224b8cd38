/**
 * What a call fails with: the one way the tests catch an error to assert on it.
 */

/**
 * The error `run` fails with: `run` is a promise, or a function whose call
 * may throw or return a promise that rejects. `undefined` when it succeeds.
 */
export async function failure(run: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof run === "function" ? run() : run);
  } catch (err) {
    return err;
  }
  return undefined;
}
