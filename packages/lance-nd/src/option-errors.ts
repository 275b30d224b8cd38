/**
 * Options validated with zod where they enter the library: the schema of
 * storage options shared by `open` and the writes, and the error that
 * `parseOptions` of `@lance-nd/casting/coded-error` (the one way and
 * message format of every package) throws for bad ones.
 */
import { z } from "zod";
import { LanceNdError } from "./errors.js";

/** Storage options: an object of string values, passed to Lance as they are. */
export const storageOptionsSchema = z
  .record(z.string(), z.string(), { error: "expected an object of string values" })
  .optional();

/** `parseOptions`' refusal for options of a call on the table at `uri`: one `InvalidInput` naming each bad option. */
export function lanceNdOptionsError(uri: string): (message: string, cause: unknown) => LanceNdError {
  return (message, cause) => new LanceNdError("InvalidInput", message, { uri, cause });
}
