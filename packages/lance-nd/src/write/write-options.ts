/**
 * The options of `write`, `append` and `NdWriter`: their defaults, types and
 * validation with zod where they enter the library.
 */
import { parseOptions } from "@lance-nd/casting/coded-error";
import {
  CASTING_MODES,
  mergeColumnOptions,
  parseColumnOptions,
  type CastingMode,
  type ColumnOptions,
  type PlanOptions,
} from "@lance-nd/format";
import { z } from "zod";
import { LanceNdError } from "../errors.js";
import { lanceNdOptionsError, storageOptionsSchema } from "../option-errors.js";
import { withPureErrors } from "../pure-errors.js";

/** 128 MiB: the default size of one Lance add (fragment) on disk. */
const DEFAULT_TARGET_FRAGMENT_BYTES = 128 * 1024 * 1024;

/** The default number of Lance adds a writer runs at the same time (also bounded by memory, see README). */
export const DEFAULT_WRITE_PARALLELISM = 4;

/**
 * The column encoding a create or overwrite stores as the table's defaults
 * when the write does not say otherwise (README, "Default encoding"): zstd
 * level 3, measured faster than Lance's default and 45 % smaller on the
 * bench's ocean data. A user's `columnDefaults` win option by option.
 */
const DEFAULT_COLUMN_OPTIONS: ColumnOptions = { compression: { codec: "zstd", level: 3 } };

/** How a write treats the table at the uri. */
export type WriteMode = "create" | "append" | "overwrite";

/** Options of an append: {@link append} and `NdWriter.append`. */
export interface AppendOptions {
  /** What to do with a variable or attribute of another type than the table (default "no"; see README, Casting). */
  casting?: CastingMode;
  /** Encoding defaults for the columns this write adds (they do not change the table's stored defaults). */
  columnDefaults?: ColumnOptions;
  /** Encoding options per new column name; they override the defaults option by option. */
  columns?: Record<string, ColumnOptions>;
  /** Object store options, passed to lancedb as is (e.g. `{ region: "eu-west-1" }`). */
  storageOptions?: Record<string, string>;
  /** About this many bytes on disk per Lance add (default 128 MiB). */
  targetFragmentBytes?: number;
  /**
   * At most this many Lance adds at the same time (bounded by memory too).
   * Default 4 on local disk; 1 on memory:// and on object stores, unless
   * `conditionalPut` says the store has it (README, "Parallel adds").
   */
  writeParallelism?: number;
  /**
   * @internal At most this many bytes of rows (in memory) buffered plus in
   * adds in flight; each add then holds at most this over the parallelism
   * (README, "NdWriter sizing"). Default: the bounds of NdWriter sizing
   * (adds in flight 64 MiB, buffer 128 MiB). The CLI's import sets it
   * (16 MiB) to stay under its peak memory goal.
   */
  memoryBudgetBytes?: number;
  /**
   * The object store has conditional PUT (put-if-absent: AWS S3, GCS, Azure),
   * so concurrent commits cannot overwrite each other's manifest: the
   * default `writeParallelism` is then 4 there too (default false).
   */
  conditionalPut?: boolean;
}

/** Options of {@link write} and `NdWriter.create`. */
export interface WriteOptions extends AppendOptions {
  /** "create" (default) fails with `TableExists`; "append" adds to an existing table; "overwrite" replaces it. */
  mode?: WriteMode;
  /** Give each variable a `__stats__` column and fill it on every later write (create / overwrite only; default false). */
  stats?: boolean;
  /** Key-value pairs set in the table schema's metadata at create / overwrite (e.g. the CLI's `lance_nd:cf` mode). */
  schemaMetadata?: Record<string, string>;
}

/** Write options after validation, with the defaults filled in. */
export interface ParsedWriteOptions {
  mode: WriteMode;
  casting: CastingMode;
  stats: boolean;
  schemaMetadata: Record<string, string> | undefined;
  columnDefaults: ColumnOptions | undefined;
  columns: Record<string, ColumnOptions> | undefined;
  storageOptions: Record<string, string> | undefined;
  targetFragmentBytes: number;
  /** As given; undefined for the default of the store ({@link addParallelism}). */
  writeParallelism: number | undefined;
  /** As given; undefined for the bounds of NdWriter sizing. */
  memoryBudgetBytes: number | undefined;
  conditionalPut: boolean;
}

/** The options of a write plan (`planWrite`, `evolveFor`) that parsed write options give. */
export function planOptions(options: ParsedWriteOptions): PlanOptions & { casting: CastingMode } {
  const { casting, stats, columnDefaults, columns } = options;
  return {
    casting,
    stats,
    ...(columnDefaults === undefined ? {} : { columnDefaults }),
    ...(columns === undefined ? {} : { columns }),
  };
}

const optionsSchema = z.strictObject({
  mode: z.enum(["create", "append", "overwrite"], { error: 'expected "create", "append" or "overwrite"' }).optional(),
  casting: z
    .enum(CASTING_MODES, { error: `expected one of ${CASTING_MODES.map((m) => JSON.stringify(m)).join(", ")}` })
    .optional(),
  stats: z.boolean({ error: "expected true or false" }).optional(),
  schemaMetadata: z
    .record(z.string(), z.string(), { error: "expected an object of string keys to string values" })
    .optional(),
  columnDefaults: z.unknown().optional(),
  columns: z
    .record(z.string(), z.unknown(), { error: "expected an object of column name to column options" })
    .optional(),
  storageOptions: storageOptionsSchema,
  targetFragmentBytes: z
    .int({ error: "expected a positive integer" })
    .positive({ error: "expected a positive integer" })
    .optional(),
  writeParallelism: z
    .int({ error: "expected an integer from 1 to 64" })
    .min(1)
    .max(64, { error: "expected an integer from 1 to 64" })
    .optional(),
  memoryBudgetBytes: z
    .int({ error: "expected a positive integer" })
    .positive({ error: "expected a positive integer" })
    .optional(),
  conditionalPut: z.boolean({ error: "expected true or false" }).optional(),
});

/**
 * Validates write options (the `mode` of an append is forced to "append";
 * `stats` is refused there, because only a create or overwrite sets it).
 *
 * @throws LanceNdError `InvalidInput` with one message that names each bad option, its value and what is allowed.
 */
export function parseWriteOptions(input: unknown, uri: string, forAppend = false): ParsedWriteOptions {
  const options = parseOptions(optionsSchema, input, "write", lanceNdOptionsError(uri));
  const mode = forAppend ? "append" : (options.mode ?? "create");
  if (mode === "append" && options.stats !== undefined) {
    throw new LanceNdError(
      "InvalidInput",
      "invalid write options: stats: only a create or an overwrite sets the stats of a table",
      { uri },
    );
  }
  const given =
    options.columnDefaults === undefined
      ? undefined
      : withPureErrors({ uri }, () => parseColumnOptions(options.columnDefaults, "columnDefaults"));
  // A new table stores the library's default encoding under the user's; an append's new columns follow the table's stored defaults.
  const columnDefaults = mode === "append" ? given : mergeColumnOptions(DEFAULT_COLUMN_OPTIONS, given ?? {});
  const columns =
    options.columns === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(options.columns).map(([name, value]) => [
            name,
            withPureErrors({ uri }, () => parseColumnOptions(value, `columns.${name}`)),
          ]),
        );
  return {
    mode,
    casting: options.casting ?? "no",
    stats: options.stats ?? false,
    schemaMetadata: options.schemaMetadata,
    columnDefaults,
    columns,
    storageOptions: options.storageOptions,
    targetFragmentBytes: options.targetFragmentBytes ?? DEFAULT_TARGET_FRAGMENT_BYTES,
    writeParallelism: options.writeParallelism,
    memoryBudgetBytes: options.memoryBudgetBytes,
    conditionalPut: options.conditionalPut ?? false,
  };
}
