/**
 * Options validated with zod where they enter the library: the schema of
 * storage options shared by `open` and the writes, and zod's issues turned
 * into one `InvalidInput` message.
 */
import { describeValue } from "@lance-nd/format";
import { z } from "zod";
import { LanceNdError } from "./errors.js";

/** Storage options: an object of string values, passed to Lance as they are. */
export const storageOptionsSchema = z
  .record(z.string(), z.string(), { error: "expected an object of string values" })
  .optional();

/** One `InvalidInput` naming each bad option of `input`, its value and what is allowed. */
export function invalidOptions(call: string, input: unknown, error: z.ZodError, uri: string): LanceNdError {
  const problems = error.issues.map((issue) => {
    const place = issue.path.length === 0 ? "options" : issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys")
      return `unknown option ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    return `${place} = ${describeValue(valueAt(input, issue.path))}: ${issue.message}`;
  });
  return new LanceNdError("InvalidInput", `invalid ${call} options: ${problems.join("; ")}`, { uri, cause: error });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
