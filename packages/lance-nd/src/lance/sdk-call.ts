import { cleanSdkMessage, fromSdkError, type SdkErrorContext } from "../errors.js";
import { deniedPath } from "./denied-path.js";

/**
 * Runs one `@lancedb/lancedb` call and rethrows its error as a
 * {@link LanceNdError} (see {@link fromSdkError}), with the SDK error as `cause`.
 * A "Permission denied" without a path gets the local file or folder at
 * fault (see {@link deniedPath}).
 *
 * @example
 * const n = await sdkCall({ uri, op: "countRows" }, () => table.sdk.countRows());
 */
export async function sdkCall<T>(context: SdkErrorContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromSdkError(err, withDeniedPath(err, context));
  }
}

/** The context with the local path at fault, for a "Permission denied" whose message names no path. */
function withDeniedPath(err: unknown, context: SdkErrorContext): SdkErrorContext {
  const reason = cleanSdkMessage(err instanceof Error ? err.message : String(err));
  if (!/Permission denied/i.test(reason) || /(?:^|[\s"'(])\/[^\s"']+/.test(reason)) return context;
  const denied = deniedPath(context.uri);
  return denied === undefined ? context : { ...context, deniedPath: denied };
}
