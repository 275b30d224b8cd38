/**
 * nd-level filters: Lance SQL over the variables, `__global_attrs__.<key>`
 * and `__stats__:<variable>.min/max` whose names the library checks against
 * the table layout and quotes for Lance.
 */
import type { DataType, Field } from "apache-arrow";
import { Type } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN } from "@lance-nd/nd-arrow";
import { quoteFieldPath, type TableLayout } from "@lance-nd/format";
import { STATS_PREFIX, statsColumnName } from "@lance-nd/stats";
import { LanceNdError } from "../errors.js";

/** A checked nd-level filter. */
export interface NdFilter {
  /** The Lance SQL: each column reference quoted per level, with the table's spelling of the names. */
  sql: string;
  /** The top-level columns it references (variables, `__global_attrs__`, stats columns). */
  columns: Set<string>;
  /** The column paths it references, levels joined by "." (`__global_attrs__.id`, as Lance names indexed fields). */
  paths: Set<string>;
}

// Words of Lance SQL (DataFusion's dialect) that are not column names. A word
// right before "(" is a function and a word after AS a type, so neither is listed.
const KEYWORDS = new Set([
  "and",
  "or",
  "not",
  "is",
  "null",
  "true",
  "false",
  "in",
  "between",
  "like",
  "ilike",
  "escape",
  "similar",
  "to",
  "case",
  "when",
  "then",
  "else",
  "end",
  "as",
  "distinct",
  "from",
  "unknown",
  "regexp",
  "rlike",
  "glob",
]);

// Lance's row version columns (tables with stable row ids): the commit ledger's
// undo command deletes by `_row_created_at_version` (README.md, "Commit ledger").
const ROW_VERSION_COLUMNS = new Set(["_row_created_at_version", "_row_last_updated_at_version"]);

// Words that start a typed literal (`TIMESTAMP '2024-01-01T00:00:00Z'`) when a
// string follows; otherwise they are names (`time` is a common variable).
const LITERAL_TYPES = new Set(["timestamp", "date", "time", "interval", "decimal"]);

/**
 * Checks and rewrites an nd-level filter: every column it names must be a
 * variable, `__global_attrs__` or a stats column of the table (case is
 * matched exactly first, then loosely, as Lance does), and every nested
 * name below a struct must exist. Unquoted `__stats__:sst.max` is quoted as
 * `` `__stats__:sst`.max `` (Lance cannot parse it otherwise).
 *
 * @throws LanceNdError `InvalidInput` naming the unknown column or field, or
 * for an unterminated string or quoted name.
 */
export function checkNdFilter(uri: string, layout: TableLayout, sql: string): NdFilter {
  if (typeof sql !== "string") {
    throw new LanceNdError(
      "InvalidInput",
      `a filter must be a Lance SQL string or an Expr, got ${typeof sql} ${String(sql)}`,
      { uri },
    );
  }
  const columns = new Set<string>();
  const paths = new Set<string>();
  const rewritten = mapNames(uri, sql, (segments) => {
    const path = resolvePath(uri, layout, segments);
    columns.add(path[0]!);
    paths.add(path.join("."));
    return quoteFieldPath(path);
  });
  return { sql: rewritten, columns, paths };
}

/**
 * The top-level names a Lance SQL filter seems to reference (as written,
 * unchecked), e.g. to see whether a `lanceFilter` touches a big column.
 *
 * @throws LanceNdError `InvalidInput` for an unterminated string or quoted name.
 */
export function referencedColumns(uri: string, sql: string): Set<string> {
  const columns = new Set<string>();
  mapNames(uri, sql, (segments, text) => {
    columns.add(segments[0]!);
    return text;
  });
  return columns;
}

/** `sql` with each column reference replaced by `onName(segments, text)`; strings, numbers, keywords, functions and types stay. */
function mapNames(uri: string, sql: string, onName: (segments: string[], text: string) => string): string {
  if (typeof sql !== "string" || sql.trim() === "")
    throw new LanceNdError("InvalidInput", "a filter must be a non-empty SQL string", { uri });
  let out = "";
  let i = 0;
  let afterAs = false;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'") {
      const end = closing(sql, i, "'", uri);
      out += sql.slice(i, end);
      i = end;
      afterAs = false;
    } else if (isNameStart(c) || c === "`" || c === '"') {
      const chain = readChain(sql, i, uri);
      const text = sql.slice(i, chain.end);
      const word =
        chain.quoted[0] === false && chain.segments.length === 1 ? chain.segments[0]!.toLowerCase() : undefined;
      const following = sql.slice(chain.end).trimStart()[0];
      const typedLiteral = word !== undefined && LITERAL_TYPES.has(word) && following === "'";
      const instant = word === "timestamp" && typedLiteral ? zonedTimestamp(sql, chain.end, uri) : undefined;
      if (instant !== undefined) {
        out += instant.sql;
        i = instant.end;
        afterAs = false;
        continue;
      }
      if (afterAs || following === "(" || typedLiteral || (word !== undefined && KEYWORDS.has(word))) {
        out += text;
        afterAs = word === "as";
      } else {
        out += onName(chain.segments, text);
        afterAs = false;
      }
      i = chain.end;
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i))!;
      out += match[0];
      i += Math.max(1, match[0].length);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

// A date, a time of day, then a zone: `Z`, `+05:30`, `-0400`, `+05`.
const ZONED = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * `TIMESTAMP '<date>T<time><zone>'` (the string right after `at`) as a
 * UTC-zoned Arrow timestamp, which Lance compares as an instant: a
 * zone-less TIMESTAMP literal is wall-clock time in the column's zone, so
 * its `Z` or offset would be ignored (SDK-NOTES.md, section 9). Undefined
 * for a string without a zone, which stays wall-clock time.
 */
function zonedTimestamp(sql: string, at: number, uri: string): { sql: string; end: number } | undefined {
  const start = sql.indexOf("'", at);
  const end = closing(sql, start, "'", uri);
  const text = sql.slice(start + 1, end - 1).trim();
  if (!ZONED.test(text)) return undefined;
  return { sql: `arrow_cast('${text}', 'Timestamp(Nanosecond, Some("UTC"))')`, end };
}

function isNameStart(c: string): boolean {
  return /[A-Za-z_\u0080-\uffff]/.test(c);
}

function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_\u0080-\uffff]/.test(c);
}

/** The index after the closing `quote` of the quoted text at `start` (a doubled quote is part of the text). */
function closing(sql: string, start: number, quote: string, uri: string): number {
  let i = start + 1;
  for (;;) {
    const next = sql.indexOf(quote, i);
    if (next < 0)
      throw new LanceNdError("InvalidInput", `filter ${JSON.stringify(sql)}: unterminated ${quote} at ${start}`, {
        uri,
      });
    if (sql[next + 1] === quote) i = next + 2;
    else return next + 1;
  }
}

interface Chain {
  segments: string[];
  quoted: boolean[];
  end: number;
}

/** A name chain `a.b.c`; each name plain, `quoted` or "quoted". Unquoted `__stats__:<var>` runs to the next `.`, space or operator. */
function readChain(sql: string, start: number, uri: string): Chain {
  const segments: string[] = [];
  const quoted: boolean[] = [];
  let i = start;
  for (;;) {
    const c = sql[i];
    if (c === "`" || c === '"') {
      const end = closing(sql, i, c, uri);
      segments.push(sql.slice(i + 1, end - 1).replaceAll(c + c, c));
      quoted.push(true);
      i = end;
    } else if (c !== undefined && isNameStart(c)) {
      let end = i;
      while (end < sql.length && isNameChar(sql[end]!)) end++;
      if (sql.startsWith(STATS_PREFIX, i) && end === i + STATS_PREFIX.length - 1 && sql[end] === ":") {
        end = i + STATS_PREFIX.length;
        while (end < sql.length && !/[\s.()=<>!,'"`+\-*/%|&[\]]/.test(sql[end]!)) end++;
      }
      segments.push(sql.slice(i, end));
      quoted.push(false);
      i = end;
    } else {
      throw new LanceNdError("InvalidInput", `filter ${JSON.stringify(sql)}: a name is missing after "." at ${i}`, {
        uri,
      });
    }
    if (sql[i] !== "." || !/[A-Za-z_`"\u0080-\uffff]/.test(sql[i + 1] ?? "")) return { segments, quoted, end: i };
    i++;
  }
}

/** The path with the table's spelling of each name. */
function resolvePath(uri: string, layout: TableLayout, segments: readonly string[]): string[] {
  const [head, ...rest] = segments;
  if (rest.length === 0 && ROW_VERSION_COLUMNS.has(head!)) return [head!];
  const top = topLevelFields(layout);
  const field = pick(top, head!);
  if (field === undefined) {
    const stats = head!.startsWith(STATS_PREFIX) ? ` (the table has no stats column "${head}")` : "";
    const known = [...top.keys()].join(", ");
    throw new LanceNdError("InvalidInput", `filter names unknown column "${head}"${stats}; the columns are ${known}`, {
      uri,
      column: head!,
    });
  }
  const path = [field.name];
  let type: DataType = field.type;
  for (const name of rest) {
    if (type.typeId !== Type.Struct) {
      path.push(name);
      continue;
    }
    const children = new Map((type.children as Field[]).map((f) => [f.name, f]));
    const child = pick(children, name);
    if (child === undefined) {
      const full = [...path, name].join(".");
      throw new LanceNdError(
        "InvalidInput",
        `filter names unknown field "${full}"; "${path.join(".")}" has ${[...children.keys()].join(", ")}`,
        {
          uri,
          column: full,
        },
      );
    }
    path.push(child.name);
    type = child.type;
  }
  return path;
}

function topLevelFields(layout: TableLayout): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const [name, column] of layout.arrays) fields.set(name, column.field);
  if (layout.globalAttrs !== null) fields.set(GLOBAL_ATTRS_COLUMN, layout.globalAttrs);
  for (const [variable, field] of layout.statsColumns) fields.set(statsColumnName(variable), field);
  return fields;
}

/** Exact name first, then the one name that matches ignoring case. */
function pick(fields: ReadonlyMap<string, Field>, name: string): Field | undefined {
  const exact = fields.get(name);
  if (exact !== undefined) return exact;
  const loose = [...fields.values()].filter((f) => f.name.toLowerCase() === name.toLowerCase());
  return loose.length === 1 ? loose[0] : undefined;
}
