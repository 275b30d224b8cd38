/** Options checked once where they enter the package, with zod. */
import { optionProblems } from "@lance-nd/casting/coded-error";
import type { z } from "zod";
import { ZarrError } from "./zarr-error.js";

/** `options` parsed by `schema`; `InvalidArgument` listing every problem (`options.version: ...`). */
export function parseOptions<T extends z.ZodType>(schema: T, options: unknown, path: string): z.infer<T> {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  throw new ZarrError("InvalidArgument", optionProblems(parsed.error.issues), { path, cause: parsed.error });
}
