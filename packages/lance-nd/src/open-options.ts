/** The options of `open`, validated with zod. */
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import type { OpenTableOptions } from "./lance/table-open.js";
import { lanceNdOptionsError, storageOptionsSchema } from "./option-errors.js";

const openOptionsSchema = z.strictObject({
  storageOptions: storageOptionsSchema,
  branch: z.string({ error: "expected a branch name" }).min(1, { error: "expected a branch name" }).optional(),
});

/**
 * Validates the options of `open`.
 *
 * @throws LanceNdError `InvalidInput` with one message that names each bad option, its value and what is allowed.
 */
export function parseOpenOptions(input: unknown, uri: string): OpenTableOptions {
  const { storageOptions, branch } = parseOptions(openOptionsSchema, input, "open", lanceNdOptionsError(uri));
  return {
    ...(storageOptions === undefined ? {} : { storageOptions }),
    ...(branch === undefined || branch === "main" ? {} : { branch }),
  };
}
