/**
 * Options validated with zod where they enter the library: the schema of
 * storage options shared by `open` and the writes, and zod's issues turned
 * into one `InvalidInput` message (the one format of every package,
 * `optionsMessage` of `@lance-nd/casting/coded-error`).
 */
import { optionsMessage } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { LanceNdError } from "./errors.js";

/** Storage options: an object of string values, passed to Lance as they are. */
export const storageOptionsSchema = z
  .record(z.string(), z.string(), { error: "expected an object of string values" })
  .optional();

/** One `InvalidInput` naming each bad option of `input`, its value and what is allowed. */
export function invalidOptions(call: string, input: unknown, error: z.ZodError, uri: string): LanceNdError {
  return new LanceNdError("InvalidInput", optionsMessage(call, input, error.issues), { uri, cause: error });
}
