import { fromSdkError, type SdkErrorContext } from "../errors.js";

/**
 * Runs one `@lancedb/lancedb` call and rethrows its error as a
 * {@link LanceNdError} (see {@link fromSdkError}), with the SDK error as `cause`.
 *
 * @example
 * const n = await sdkCall({ uri, op: "countRows" }, () => table.sdk.countRows());
 */
export async function sdkCall<T>(context: SdkErrorContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromSdkError(err, context);
  }
}
