/** Options checked once where they enter the package, with zod (nd-arrow README "Windows", the reader contract). */
import { optionProblems } from "@lance-nd/casting/coded-error";
import type { z } from "zod";
import { NetcdfError } from "./netcdf-error.js";

/** `options` parsed by `schema`; `InvalidArgument` listing every problem (`options.storageAttrs: ...`). */
export function parseOptions<T extends z.ZodType>(schema: T, options: unknown, path: string): z.infer<T> {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  throw new NetcdfError("InvalidArgument", `${path}: ${optionProblems(parsed.error.issues)}`, {
    path,
    cause: parsed.error,
  });
}
