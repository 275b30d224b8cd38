import { isNdArrowError, type NdArrowErrorCode } from "../src/index.js";

/** What a test reads of a thrown NdArrowError. */
export interface Thrown {
  code?: NdArrowErrorCode;
  column?: string | undefined;
  row?: number | undefined;
  message?: string;
}

/**
 * The NdArrowError that `fn` throws, or `{}` when it returns; any other
 * error is rethrown, so a test never mistakes a crash for a rule.
 */
export function errorOf(fn: () => unknown): Thrown {
  try {
    fn();
  } catch (err) {
    if (isNdArrowError(err)) return err;
    throw err;
  }
  return {};
}

/** The code of the NdArrowError that `fn` throws, or undefined. */
export function codeOf(fn: () => unknown): NdArrowErrorCode | undefined {
  return errorOf(fn).code;
}
