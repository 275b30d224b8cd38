/**
 * The Lance encoding options of a column (FORMAT.md section 3), validated with zod
 * where they enter.
 */
import { z } from "zod";
import { FormatError } from "./errors.js";
import { describeValue } from "@lance-nd/casting/coded-error";

/** A compression codec of Lance. */
export type Codec = "none" | "lz4" | "zstd";

/** The Lance encoding options of one column; each option is optional. */
export interface ColumnOptions {
  /** `lance-encoding:structural-encoding` of the top-level column. */
  structuralEncoding?: "miniblock" | "fullzip";
  /** `lance-encoding:compression` (and `compression-level`, zstd only) of each leaf. */
  compression?: Codec | { codec: Codec; level?: number };
  /** `lance-encoding:bss` (byte stream split) of each leaf. */
  bss?: "off" | "on" | "auto";
  /** `lance-encoding:rle-threshold` of each leaf, from 0 to 1. */
  rleThreshold?: number;
}

const CODECS = ["none", "lz4", "zstd"] as const;
const ALLOWED_KEYS = ["structuralEncoding", "compression", "bss", "rleThreshold"];

const codecSchema = z.enum(CODECS, { error: 'expected "none", "lz4" or "zstd"' });

const compressionSchema = z.preprocess(
  (value) => (typeof value === "string" ? { codec: value } : value),
  z
    .strictObject(
      { codec: codecSchema, level: z.int({ error: "expected an integer" }).optional() },
      { error: 'expected "none", "lz4", "zstd" or { codec, level? }' },
    )
    .refine((c) => c.level === undefined || c.codec === "zstd", {
      message: 'a compression level is only allowed with "zstd"',
      path: ["level"],
    }),
);

const columnOptionsSchema = z.strictObject(
  {
    structuralEncoding: z.enum(["miniblock", "fullzip"], { error: 'expected "miniblock" or "fullzip"' }).optional(),
    compression: compressionSchema.optional(),
    bss: z.enum(["off", "on", "auto"], { error: 'expected "off", "on" or "auto"' }).optional(),
    rleThreshold: z
      .number({ error: "expected a number from 0 to 1" })
      .min(0)
      .max(1, "expected a number from 0 to 1")
      .optional(),
  },
  { error: `expected an object with the options ${ALLOWED_KEYS.join(", ")}` },
);

/**
 * Validates column options and returns them in canonical form (a
 * compression without a level is the codec string). `where` names the
 * options in the message, e.g. `columns.sst`. Throws one `InvalidInput` that
 * lists each bad option: its path, the bad value and what is allowed.
 *
 * @example parseColumnOptions({ compression: { codec: "zstd", level: 3 } }, "columnDefaults")
 */
export function parseColumnOptions(input: unknown, where = "column options"): ColumnOptions {
  const result = columnOptionsSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => describeIssue(input, issue, where));
    throw new FormatError("InvalidInput", `invalid ${where}: ${problems.join("; ")}`, { cause: result.error });
  }
  const { compression, ...rest } = result.data;
  const options: ColumnOptions = dropUndefined(rest);
  if (compression !== undefined) {
    options.compression =
      compression.level === undefined ? compression.codec : { codec: compression.codec, level: compression.level };
  }
  return options;
}

/**
 * Each option of `override` replaces the same option of `base`.
 *
 * @example mergeColumnOptions({ compression: "zstd", bss: "on" }, { bss: "off" }) // { compression: "zstd", bss: "off" }
 */
export function mergeColumnOptions(base: ColumnOptions, override: ColumnOptions | undefined): ColumnOptions {
  return { ...base, ...dropUndefined(override ?? {}) };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function describeIssue(input: unknown, issue: z.core.$ZodIssue, where: string): string {
  // Walk the input along the issue path while it is an object: a codec
  // given as a string reports at `compression`, not at `compression.codec`.
  const path: string[] = [];
  let value: unknown = input;
  for (const key of issue.path) {
    if (typeof value !== "object" || value === null) break;
    path.push(String(key));
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  const place = [where, ...path].join(".");
  if (issue.code === "unrecognized_keys") {
    const allowed = issue.path.length === 0 ? ALLOWED_KEYS : ["codec", "level"];
    return `${place}: unknown option ${issue.keys.map((k) => JSON.stringify(k)).join(", ")} (allowed: ${allowed.join(", ")})`;
  }
  return `${place} = ${describeValue(value)}: ${issue.message}`;
}
