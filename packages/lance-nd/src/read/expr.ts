/**
 * Filter expressions: `col("__global_attrs__.id").eq("a").and(stat("sst").max.gt(300))`
 * builds the Lance SQL of a filter with every name and literal quoted.
 */
import { GLOBAL_ATTRS_COLUMN } from "@lance-nd/nd-arrow";
import { quoteFieldPath, sqlStringLiteral } from "@lance-nd/format";
import { statsColumnName } from "@lance-nd/stats";
import { LanceNdError } from "../errors.js";
import { type ChainOp, type ExprNode, renderTree } from "./expr-tree.js";

/**
 * A literal of a filter: a string (quoted, `'` doubled), a finite number, a
 * bigint, a boolean, a Date or null. A Date is an instant: it matches the
 * timestamps that name the same instant whatever the column's time zone
 * (README, "filter, filterExpr, lanceFilter"), compared in the column's unit (a seconds column
 * compares the Date truncated to its second).
 */
export type Literal = string | number | bigint | boolean | Date | null;

/**
 * A boolean filter expression. Combine with {@link Expr.and}, {@link Expr.or}
 * and {@link Expr.not}; pass it to `scan(table).filterExpr(expr)` or
 * `table.delete(expr)`. `String(expr)` is its SQL.
 *
 * Any tree of `and`, `or` and `not` works up to a depth Lance's SQL parser
 * takes (it stops near 50 levels): chains of one operator are one flat list,
 * `not` is pushed down to the comparisons, and deep alternations of `and`
 * and `or` are rewritten into an equivalent shallow form (expr-tree.ts;
 * README, "filter, filterExpr, lanceFilter"). `toSql` throws `InvalidInput`
 * naming the limit for a tree that still nests too deep.
 */
export class Expr {
  readonly #node: ExprNode;
  #rendered: string | undefined;

  /** @internal Use {@link col} and {@link stat}. */
  constructor(sql: string | ExprNode) {
    this.#node = typeof sql === "string" ? { kind: "leaf", sql } : sql;
  }

  /** Both hold. */
  and(other: Expr): Expr {
    return this.#join("AND", checkExpr(other, "and"));
  }

  /** Either holds. */
  or(other: Expr): Expr {
    return this.#join("OR", checkExpr(other, "or"));
  }

  /** The negation. Note SQL's three values: `NOT (x = 1)` does not match a row where `x` is null. */
  not(): Expr {
    return new Expr({ kind: "not", of: this.#node });
  }

  /**
   * The Lance SQL of the expression.
   *
   * @throws LanceNdError `InvalidInput` when the expression nests deeper than
   * Lance's SQL parser takes, even after rewriting (MAX_FILTER_NESTING levels).
   */
  toSql(): string {
    this.#rendered ??= renderTree(this.#node);
    return this.#rendered;
  }

  /** The Lance SQL of the expression. */
  toString(): string {
    return this.toSql();
  }

  /** `this op other`, extending this chain when it is a chain of `op` (AND and OR are associative, also with SQL's nulls). */
  #join(op: ChainOp, other: Expr): Expr {
    const left = this.#node.kind === "chain" && this.#node.op === op ? this.#node : startChain(op, this.#node);
    const right = other.#node.kind === "chain" && other.#node.op === op ? chainTerms(other.#node) : [other.#node];
    return new Expr(extendChain(left, right));
  }
}

/**
 * A chain node whose `terms` may be shared by the chains grown from one
 * another: a chain owns its first `length` terms and appends in place when
 * it is the longest, so n chained calls cost O(n), not O(n^2).
 */
interface Chain {
  readonly kind: "chain";
  readonly op: ChainOp;
  readonly terms: ExprNode[];
  readonly length: number;
}

function startChain(op: ChainOp, node: ExprNode): Chain {
  return { kind: "chain", op, terms: [node], length: 1 };
}

type ChainNode = Extract<ExprNode, { kind: "chain" }>;

/** The terms a chain node owns. */
function chainTerms(node: ChainNode): readonly ExprNode[] {
  const length = node.length ?? node.terms.length;
  return length === node.terms.length ? node.terms : node.terms.slice(0, length);
}

function extendChain(chain: ChainNode, more: readonly ExprNode[]): Chain {
  const owned = chain.length ?? chain.terms.length;
  // Only the chain that owns the whole array appends in place; the others copy their part.
  const terms = chain.terms.length === owned ? (chain.terms as ExprNode[]) : chain.terms.slice(0, owned);
  terms.push(...more);
  return { kind: "chain", op: chain.op, terms, length: terms.length };
}

/**
 * A field of the table in a filter: a top-level column or a nested field.
 * Its comparisons make an {@link Expr}.
 */
export class Column {
  /** The field path, one name per level. */
  readonly path: readonly string[];

  /** @internal Use {@link col} and {@link stat}. */
  constructor(path: readonly string[]) {
    this.path = path;
  }

  /** Equal to `value`; `eq(null)` is `IS NULL` (SQL's `= NULL` would match nothing). */
  eq(value: Literal): Expr {
    return value === null ? this.isNull() : this.#compare("=", value, "eq");
  }

  /** Not equal to `value`; `ne(null)` is `IS NOT NULL`. A null field matches neither `eq` nor `ne` of a value. */
  ne(value: Literal): Expr {
    return value === null ? this.isNotNull() : this.#compare("<>", value, "ne");
  }

  /** Less than `value`. */
  lt(value: Literal): Expr {
    return this.#compare("<", value, "lt");
  }

  /** Less than or equal to `value`. */
  le(value: Literal): Expr {
    return this.#compare("<=", value, "le");
  }

  /** Greater than `value`. */
  gt(value: Literal): Expr {
    return this.#compare(">", value, "gt");
  }

  /** Greater than or equal to `value`. */
  ge(value: Literal): Expr {
    return this.#compare(">=", value, "ge");
  }

  /** The field is null (for a variable: the row does not have it). */
  isNull(): Expr {
    return new Expr(`${this.toSql()} IS NULL`);
  }

  /** The field is not null. */
  isNotNull(): Expr {
    return new Expr(`${this.toSql()} IS NOT NULL`);
  }

  /** Equal to one of `values` (at least one). */
  isIn(values: readonly Literal[]): Expr {
    if (!Array.isArray(values) || values.length === 0) {
      throw new LanceNdError("InvalidInput", `isIn on ${this.toSql()} needs a non-empty array of values`, {
        column: this.path.join("."),
      });
    }
    return new Expr(`${this.toSql()} IN (${values.map((v) => sqlLiteral(v, this.#where("isIn"))).join(", ")})`);
  }

  /** Between `low` and `high`, both included. */
  between(low: Literal, high: Literal): Expr {
    const where = this.#where("between");
    return new Expr(
      `${this.toSql()} BETWEEN ${sqlLiteral(notNull(low, where), where)} AND ${sqlLiteral(notNull(high, where), where)}`,
    );
  }

  /** The quoted Lance SQL name of the field (backticks per level). */
  toSql(): string {
    return quoteFieldPath(this.path);
  }

  /** The quoted Lance SQL name of the field. */
  toString(): string {
    return this.toSql();
  }

  #compare(op: string, value: Literal, method: string): Expr {
    const where = this.#where(method);
    return new Expr(`${this.toSql()} ${op} ${sqlLiteral(notNull(value, where), where)}`);
  }

  #where(method: string): string {
    return `${method} on ${this.toSql()}`;
  }
}

/**
 * A field of the table for a filter. A string path splits at `.`, except
 * that an attribute key is taken whole: `__global_attrs__.<key>` and
 * `<variable>.attrs.<key>` (so `__global_attrs__.a.b` is the key `a.b`). Pass
 * an array for any other exact path.
 *
 * @throws LanceNdError `InvalidInput` for an empty path or name.
 * @example
 * col("__global_attrs__.id").eq("a");       // `__global_attrs__`.`id` = 'a'
 * col("sst.attrs.units").isIn(["K", "degC"]);
 * col(["__global_attrs__", "a.b"]).gt(3);
 */
export function col(path: string | readonly string[]): Column {
  const segments = typeof path === "string" ? splitPath(path) : [...path];
  if (segments.length === 0 || segments.some((s) => typeof s !== "string" || s === "")) {
    throw new LanceNdError("InvalidInput", `bad field path ${JSON.stringify(path)}: it needs non-empty names`);
  }
  return new Column(segments);
}

/**
 * The stats of a variable for a filter (tables written with `stats: true`):
 * `stat("sst").max.gt(300)` selects the rows where some value of `sst` is
 * above 300, without reading `sst`.
 *
 * @example
 * stat("sst").min.ge(270).and(stat("sst").max.le(310));
 */
export function stat(variable: string): { min: Column; max: Column } {
  if (typeof variable !== "string" || variable === "")
    throw new LanceNdError("InvalidInput", "stat needs a variable name");
  const column = statsColumnName(variable);
  return { min: new Column([column, "min"]), max: new Column([column, "max"]) };
}

function splitPath(path: string): string[] {
  const dot = path.indexOf(".");
  if (dot < 0) return [path];
  const head = path.slice(0, dot);
  const rest = path.slice(dot + 1);
  if (head === GLOBAL_ATTRS_COLUMN) return [head, rest];
  if (rest.startsWith("attrs.")) return [head, "attrs", rest.slice("attrs.".length)];
  return [head, ...rest.split(".")];
}

function checkExpr(value: unknown, method: string): Expr {
  if (value instanceof Expr) return value;
  throw new LanceNdError("InvalidInput", `${method} needs an Expr (from col or stat), got ${typeof value}`);
}

function notNull(value: Literal, where: string): Exclude<Literal, null> {
  if (value === null || value === undefined) {
    throw new LanceNdError("InvalidInput", `${where}: null cannot be compared; use isNull() or isNotNull()`);
  }
  return value;
}

/** The Lance SQL of a literal. */
function sqlLiteral(value: Literal, where: string): string {
  if (value === null) return "NULL";
  switch (typeof value) {
    case "string":
      return sqlStringLiteral(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "TRUE" : "FALSE";
    case "number":
      if (!Number.isFinite(value))
        throw new LanceNdError("InvalidInput", `${where}: ${String(value)} is not a finite number`);
      return Object.is(value, -0) ? "0" : String(value);
    default:
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new LanceNdError("InvalidInput", `${where}: invalid Date`);
        return instantLiteral(value);
      }
      throw new LanceNdError("InvalidInput", `${where}: unsupported literal ${String(value)} (${typeof value})`);
  }
}

/**
 * A Date as a UTC-zoned Arrow timestamp. Lance compares two zoned
 * timestamps as instants, but reads a zone-less `TIMESTAMP '...Z'` as wall
 * clock time in the column's zone (SDK-NOTES.md, section 9).
 */
function instantLiteral(value: Date): string {
  return `arrow_cast('${value.toISOString()}', 'Timestamp(Millisecond, Some("UTC"))')`;
}
