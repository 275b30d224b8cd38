import { CodedError, codedErrorGuard, quotedPlace, type CodedErrorGuard } from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type LanceNdErrorCode =
  | "TableNotFound" // no table at the uri
  | "TableExists" // create of a table that already exists
  | "InvalidTable" // a table that is not a lance-nd table of this release
  | "SchemaMismatch" // rows that do not fit the table schema
  | "CommitConflict" // another commit changed the table first (see `retryable`)
  | "WriterFailed" // a write failed in storage; nothing was committed
  | "VariableNotFound" // a dataset read naming a variable the dataset does not have
  | "DimNotFound" // a dataset selection naming a dim the dataset does not have (or that a selection dropped)
  | "InvalidInput"; // a bad argument: filter, column name, version, uri

/** Where an error happened, as far as it is known. */
export interface LanceNdErrorContext {
  /** The table uri. */
  uri?: string;
  /** The column (or nested field path) at fault. */
  column?: string;
  /** The row at fault, counted from 0 in the rows of the call. */
  row?: number;
  /** For `CommitConflict`: true when the same operation may succeed on the latest version. */
  retryable?: boolean;
  /** The underlying error, typically the SDK's. */
  cause?: unknown;
}

/**
 * The one error type of `lance-nd`. `code` says what went wrong, `uri`,
 * `column` and `row` say where, `cause` holds the SDK error.
 *
 * @example
 * try { await open("data/missing.lance"); } catch (err) {
 *   if (isLanceNdError(err, "TableNotFound")) console.error(err.uri);
 * }
 */
export class LanceNdError extends CodedError<LanceNdErrorCode> {
  override readonly name = "LanceNdError";
  readonly uri: string | undefined;
  readonly column: string | undefined;
  readonly row: number | undefined;
  /** True for a `CommitConflict` that may succeed when run again on the latest version. */
  readonly retryable: boolean;

  constructor(code: LanceNdErrorCode, message: string, context: LanceNdErrorContext = {}) {
    const row = context.row === undefined ? undefined : `row ${context.row}`;
    const place = [quotedPlace("table", context.uri), quotedPlace("column", context.column), row];
    super(code, message, place, context.cause);
    this.uri = context.uri;
    this.column = context.column;
    this.row = context.row;
    this.retryable = code === "CommitConflict" && context.retryable === true;
  }
}

/** True when `err` is a {@link LanceNdError}, optionally with one of `codes`. */
export const isLanceNdError: CodedErrorGuard<LanceNdError, LanceNdErrorCode> = codedErrorGuard("LanceNdError");

/** What the library was doing when the SDK failed. */
export interface SdkErrorContext {
  /** The table uri. */
  uri: string;
  /** The operation, e.g. "append", "scan", "addColumns"; it starts the message. */
  op: string;
  /** The column the operation was about, when there is one. */
  column?: string;
  /** For a "Permission denied" that names no path: the local file or folder at fault. */
  deniedPath?: string;
}

/**
 * Turns an error thrown by `@lancedb/lancedb` (flat strings only) into a
 * {@link LanceNdError}: the code comes from the message text (see
 * SDK-NOTES.md, section 8), the message loses the Rust source paths and the
 * repeated "Caused by" chain, and the SDK error stays as `cause`.
 * A `LanceNdError` passes through unchanged.
 */
export function fromSdkError(err: unknown, context: SdkErrorContext): LanceNdError {
  if (err instanceof LanceNdError) return err;
  const raw = err instanceof Error ? err.message : String(err);
  const gone = MISSING_DATA_FILE.exec(raw)?.[1];
  const compared = variableCompared(raw);
  const reason =
    gone === undefined
      ? (compared ?? missingVersion(raw) ?? cleanSdkMessage(raw))
      : `the data file ${gone} of the version read is gone (cleanup removes the files only old versions use; a dataset or checkout pinned to such a version cannot read after it: open the latest version)`;
  const { code, retryable } =
    gone !== undefined
      ? asTheOp(context.op)
      : compared !== undefined
        ? { code: "InvalidInput" as const, retryable: false }
        : classify(raw, context.op);
  const column = context.column ?? columnOf(raw);
  const where = context.deniedPath === undefined ? "" : ` (no access to "${context.deniedPath}")`;
  return new LanceNdError(code, `${context.op} failed: ${reason}${where}${literalHint(raw)}`, {
    uri: context.uri,
    ...(column === undefined ? {} : { column }),
    retryable,
    cause: err,
  });
}

/**
 * The first line of reason of an SDK message: without "Caused by" repeats,
 * Rust source locations (`/…/src/x.rs:12:34`) and wrapper prefixes.
 */
export function cleanSdkMessage(message: string): string {
  const first = message.split(/\s+Caused by:/)[0] ?? message;
  return first
    .replace(/,?\s*(?:\/|[A-Za-z]:\\)[^\s,]*\.rs:\d+:\d+/g, "")
    .replace(/^Failed to execute query stream: GenericFailure, /, "")
    .replace(/^lance error: /, "")
    .replace(/^LanceError\((\w+)\): /, "")
    .replace(/^Invalid input, /, "")
    .trim();
}

const WRITE_OPS =
  /^(create|append|overwrite|addColumns|addNullFields|castColumn|setFieldMetadata|addSchemaMetadata|delete|compact|cleanup|restore)/;

/** A data file the manifest lists but storage no longer has (SDK-NOTES.md, section 8): its path. */
const MISSING_DATA_FILE = /Not found: (\S*\.lance\/data\/[^\s,/]+\.lance)\b/;

/**
 * A missing version said without Lance's internal manifest path: `version
 * 3 does not exist`, with the branch when the path is a branch's
 * (`<table>/tree/<branch>/_versions/3.manifest`); undefined for other text.
 */
function missingVersion(raw: string): string | undefined {
  const match = /(?:\/tree\/(.+?))?\/_versions\/(\d+)\.manifest was not found/.exec(raw);
  if (match === null) return undefined;
  const [, branch, version] = match;
  return branch === undefined
    ? `version ${version} does not exist (never written, or removed by cleanup)`
    : `version ${version} does not exist on branch "${branch}" (a branch holds the versions from the one it was forked from on, or cleanup removed it)`;
}

/**
 * A filter that compares a variable with a value (`time > 3`): Lance
 * answers with the variable's whole struct type (values, dims, attributes;
 * 1,500 characters). Says instead that it is a variable and which stats
 * filter does what was meant (README "filter, filterExpr, lanceFilter");
 * undefined for other text.
 */
function variableCompared(raw: string): string | undefined {
  const match =
    /Error resolving filter expression (.*?): Invalid user input: Received literal .*? and could not convert to literal of type 'Struct\(\[Field \{ name: "values"/.exec(
      raw,
    );
  const name = match === null ? undefined : /`([^`]+)`/.exec(match[1]!)?.[1];
  if (match === null || name === undefined) return undefined;
  const expression = match[1]!;
  const stat = (bound: string) => expression.replace(`\`${name}\``, `\`__stats__:${name}\`.${bound}`);
  return (
    `"${name}" is a variable (each row holds an array of its values), so ${expression} compares no value; ` +
    `filter rows by its stats: ${stat("min")} (every value of the row) or ${stat("max")} (some value)`
  );
}

/**
 * How to write a date a filter compared with a timestamp or date column as
 * a plain string, which Lance does not convert (`time >= '2001-01-01'`):
 * ` (write it TIMESTAMP '2001-01-01')`; empty for other text.
 */
function literalHint(raw: string): string {
  const match = /Received literal Utf8\("([^"]*)"\) and could not convert to literal of type '(Timestamp|Date)/.exec(
    raw,
  );
  if (match === null) return "";
  const [, text, kind] = match;
  return ` (write the ${kind === "Date" ? "date" : "time"} as ${kind === "Date" ? "DATE" : "TIMESTAMP"} '${text}')`;
}

/** The code of a failure of the operation itself: `WriterFailed` for writes, `InvalidTable` for reads. */
function asTheOp(op: string): { code: LanceNdErrorCode; retryable: boolean } {
  return { code: WRITE_OPS.test(op) ? "WriterFailed" : "InvalidTable", retryable: false };
}

function classify(raw: string, op: string): { code: LanceNdErrorCode; retryable: boolean } {
  if (/Retryable commit conflict/i.test(raw)) return { code: "CommitConflict", retryable: true };
  if (/Incompatible transaction|commit conflict/i.test(raw)) return { code: "CommitConflict", retryable: false };
  if (/_versions\/\d+\.manifest was not found|version \d+ (?:does not exist|not found)/i.test(raw)) {
    return { code: "InvalidInput", retryable: false };
  }
  if (/^Table '.*' was not found|Dataset at path .* was not found/.test(raw))
    return { code: "TableNotFound", retryable: false };
  // The table folder removed under an open handle: its `_versions` folder is gone (SDK-NOTES.md, section 8).
  if (/Not found: \S*_versions(?:[,\s]|$)/.test(raw)) return { code: "TableNotFound", retryable: false };
  if (/already exists/.test(raw) && !/Column .* already exists/.test(raw))
    return { code: "TableExists", retryable: false };
  if (
    /No field named|Error parsing statement|sql parser error|JSON access is not supported|checked out|Unrecognized type id|Invalid table name/.test(
      raw,
    )
  ) {
    return { code: "InvalidInput", retryable: false };
  }
  if (
    /does not exist in table schema|Cast error|Cannot cast|unmasked nulls|contains nulls not present in parent|already exists|not found/i.test(
      raw,
    )
  ) {
    return { code: "SchemaMismatch", retryable: false };
  }
  if (/^Invalid input|Invalid user input/.test(raw)) return { code: "InvalidInput", retryable: false };
  return asTheOp(op);
}

function columnOf(raw: string): string | undefined {
  const match =
    /No field named ([^.\s]+(?:\.[^.\s]+)*?)\. Valid fields/.exec(raw) ??
    /field '([^']+)' does not exist/.exec(raw) ??
    /Cannot cast column "([^"]+)"/.exec(raw) ??
    /StructArray field "([^"]+)"/.exec(raw) ??
    /Field (\S+) not found/.exec(raw) ??
    /Column (\S+) already exists/.exec(raw);
  return match?.[1]?.replace(/^"(.*)"$/, "$1");
}
