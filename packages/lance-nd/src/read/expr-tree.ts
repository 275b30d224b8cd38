/**
 * The SQL of a filter expression tree (expr.ts), shaped for Lance's SQL
 * parser, which stops at about 50 levels of recursion ("recursion limit
 * exceeded"; README.md, "filter, filterExpr, lanceFilter"). Measured with
 * Lance 12: 45 nested parentheses parse and 48 do not; each `(x) OR (y)`
 * level on the right and each `NOT (x)` costs two.
 *
 * The tree is rendered so that it nests as little as the logic allows:
 * - `not` is pushed down to the comparisons (De Morgan) and `not not x` is
 *   `x`;
 * - terms of one operator form one list, written flat in groups of 64
 *   (`a OR b OR c` parses in a loop, not by recursion);
 * - a deep alternation of `and` and `or` (`a.or(b).and(c).or(d)…`) is
 *   rewritten as `(x AND P) OR Q` over segments of its deepest path, which
 *   nests log(length) deep instead of length deep.
 * These are identities of SQL's three-valued logic (Kleene's: AND and OR
 * are min and max, so they distribute and De Morgan holds), so the rows
 * selected do not change. A tree that still nests deeper than
 * {@link MAX_FILTER_NESTING} is refused with `InvalidInput` before Lance
 * sees it.
 */
import { LanceNdError } from "../errors.js";

/** How deep a rendered filter may nest, in parser levels (a parenthesis or a right operand is one): Lance stops near 50. */
const MAX_FILTER_NESTING = 40;

/**
 * The most terms written as one flat `a OR b OR …`. DataFusion turns a flat
 * chain into a binary tree as deep as the chain is long and walks it by
 * recursion: a chain of about 50,000 comparisons overflowed its stack and
 * ended the process (measured). Longer chains are written as chains of groups.
 */
const GROUP = 64;

/**
 * The most comparisons the rewrite of a deep tree may write (it repeats
 * some). Lance took 5 s to plan 15,000 and ended the process (a native stack
 * overflow) at 27,000 in that form (measured); a plain chain of 60,000 runs.
 */
const MAX_REWRITTEN_COMPARISONS = 8_000;

/** An operator of a chain. */
export type ChainOp = "AND" | "OR";

/**
 * A filter expression tree: a comparison (SQL), a negation or a chain of one
 * operator. A chain's terms are its first `length` (all when absent): chains
 * grown from one another share one array (expr.ts).
 */
export type ExprNode =
  | { readonly kind: "leaf"; readonly sql: string }
  | { readonly kind: "not"; readonly of: ExprNode }
  | { readonly kind: "chain"; readonly op: ChainOp; readonly terms: readonly ExprNode[]; readonly length?: number };

/** A tree after {@link normalize}: comparisons (maybe negated) under flat chains whose terms are not chains of the same operator. */
type Flat = { kind: "leaf"; sql: string } | { kind: "chain"; op: ChainOp; terms: Flat[] };

/**
 * The SQL of `node`, nested at most {@link MAX_FILTER_NESTING} levels.
 *
 * @throws LanceNdError `InvalidInput` when no shape fits: the tree nests too
 * deep even after rewriting, or its shallow form needs more than
 * {@link MAX_REWRITTEN_COMPARISONS} comparisons.
 */
export function renderTree(node: ExprNode): string {
  const flat = normalize(node, false);
  const depth = new Map<Flat, number>();
  const nested = nesting(flat, depth);
  if (nested <= MAX_FILTER_NESTING) return render(flat);
  const shallow = rebalance(flat, depth);
  const deepest = nesting(shallow, depth);
  const comparisons = countLeaves(shallow);
  if (deepest > MAX_FILTER_NESTING || comparisons > MAX_REWRITTEN_COMPARISONS) {
    const why =
      deepest > MAX_FILTER_NESTING
        ? `its shallowest equivalent form still nests ${deepest} levels`
        : `its equivalent form within that limit needs ${comparisons} comparisons, over the ${MAX_REWRITTEN_COMPARISONS} Lance plans in reasonable time`;
    throw new LanceNdError(
      "InvalidInput",
      `the filter expression nests ${nested} levels deep (each switch between and / or, and each not over a chain, is a level), over the limit of ${MAX_FILTER_NESTING} that Lance's SQL parser takes, and ${why}: split it into several filters or scans`,
    );
  }
  return render(shallow);
}

/** A tree node and whether it stands under an odd number of `not`s. */
interface Signed {
  node: ExprNode;
  negated: boolean;
}

/** `node` under `negated`, past its own `not`s (a long run of `.not()` calls is a loop). */
function signed(node: ExprNode, negated: boolean): Signed {
  let current = node;
  let odd = negated;
  while (current.kind === "not") {
    current = current.of;
    odd = !odd;
  }
  return { node: current, negated: odd };
}

/** `node` with `not` pushed to the comparisons and chains of one operator merged. */
function normalize(node: ExprNode, negate: boolean): Flat {
  return fold<Signed, Flat>(
    signed(node, negate),
    ({ node: current, negated }) => {
      if (current.kind !== "chain") return [];
      const terms: Signed[] = [];
      const length = current.length ?? current.terms.length;
      for (let i = 0; i < length; i++) terms.push(signed(current.terms[i]!, negated));
      return terms;
    },
    ({ node: current, negated }, terms) => {
      if (current.kind === "leaf") return negated ? { kind: "leaf", sql: `NOT (${current.sql})` } : current;
      const op: ChainOp = current.kind === "chain" && negated ? flip(current.op) : (current as { op: ChainOp }).op;
      return chainOf(op, terms);
    },
  );
}

function flip(op: ChainOp): ChainOp {
  return op === "AND" ? "OR" : "AND";
}

/**
 * Parser levels of `node` as {@link render} writes it: a chain of up to
 * {@link GROUP} terms is `(t1) OP (t2) …`, two levels over its deepest term;
 * a longer one is a chain of such groups, two levels more per grouping.
 */
function nesting(node: Flat, memo: Map<Flat, number>): number {
  return fold<Flat, number>(
    node,
    (n) => (n.kind === "chain" ? n.terms : []),
    (n, depths) => {
      if (n.kind === "leaf") return n.sql.startsWith("NOT (") ? 2 : 0;
      let deepest = 0;
      for (const d of depths) deepest = Math.max(deepest, d);
      let levels = 1;
      for (let width = GROUP; width < depths.length; width *= GROUP) levels++;
      return deepest + 2 * levels;
    },
    memo,
  );
}

/** The SQL of a normalized tree; a subtree shared by several parents is rendered once. */
function render(node: Flat): string {
  return fold<Flat, string>(
    node,
    (n) => (n.kind === "chain" ? n.terms : []),
    (n, terms) => (n.kind === "leaf" ? n.sql : grouped(terms, ` ${n.op} `)),
  );
}

/** `(t1) OP (t2) …` in groups of at most {@link GROUP} terms, themselves grouped the same way. */
function grouped(terms: readonly string[], op: string): string {
  if (terms.length <= GROUP) return terms.map((term) => `(${term})`).join(op);
  const size = GROUP ** Math.ceil(Math.log(terms.length) / Math.log(GROUP) - 1);
  const groups: string[] = [];
  for (let i = 0; i < terms.length; i += size) groups.push(grouped(terms.slice(i, i + size), op));
  return groups.map((group) => `(${group})`).join(op);
}

/** How many comparisons the SQL of `node` writes (a shared subtree once per use). */
function countLeaves(node: Flat): number {
  return fold<Flat, number>(
    node,
    (n) => (n.kind === "chain" ? n.terms : []),
    (n, counts) => (n.kind === "leaf" ? 1 : counts.reduce((a, b) => a + b, 0)),
  );
}

/**
 * A bottom-up pass over a tree without recursion (trees nest 10,000 deep):
 * `combine` gets each node with the results of its `children`; a node
 * met again (a shared subtree) takes its result from `memo`.
 */
function fold<N extends object, R>(
  root: N,
  children: (node: N) => readonly N[],
  combine: (node: N, results: R[]) => R,
  memo: Map<N, R> = new Map(),
): R {
  const rootKnown = memo.get(root);
  if (rootKnown !== undefined) return rootKnown;
  const stack: { node: N; children: readonly N[]; results: R[] }[] = [
    { node: root, children: children(root), results: [] },
  ];
  for (;;) {
    const top = stack.at(-1)!;
    if (top.results.length < top.children.length) {
      const next = top.children[top.results.length]!;
      const known = memo.get(next);
      if (known !== undefined) top.results.push(known);
      else stack.push({ node: next, children: children(next), results: [] });
      continue;
    }
    const value = combine(top.node, top.results);
    memo.set(top.node, value);
    stack.pop();
    const parent = stack.at(-1);
    if (parent === undefined) return value;
    parent.results.push(value);
  }
}

/** One step of a deep path: `x AND siblings` or `x OR siblings`, as `(x AND p) OR q`. */
interface Step {
  /** The terms ANDed to x (none: TRUE). */
  p: Flat[];
  /** The terms ORed after (none: FALSE). */
  q: Flat[];
}

/**
 * `node` with each deep path (root to the deepest comparison, through the
 * deepest term of each chain) written as `(x AND P) OR Q` over segments of
 * the path, `fanOut` segments a level: a path of L steps then nests about
 * 4·log_fanOut(L) levels. The smallest fan-out that fits is taken (the
 * SQL grows with it: a step's terms are repeated once per level and segment
 * below it).
 */
function rebalance(node: Flat, depth: Map<Flat, number>): Flat {
  if (node.kind === "leaf" || nesting(node, depth) <= MAX_FILTER_NESTING) return node;
  const steps: Step[] = [];
  let x: Flat = node;
  while (x.kind === "chain") {
    let deepest: Flat = x.terms[0]!;
    for (const term of x.terms) if (nesting(term, depth) > nesting(deepest, depth)) deepest = term;
    if (deepest.kind === "leaf") break;
    const siblings = x.terms.filter((term) => term !== deepest).map((term) => rebalance(term, depth));
    steps.push(x.op === "AND" ? { p: siblings, q: [] } : { p: [], q: siblings });
    x = deepest;
  }
  if (steps.length === 0) return node;
  let best: Flat = node;
  for (const fanOut of [2, 4, 8, 16, 32]) {
    const composed = compose(steps, fanOut);
    best = orOf([andOf([x, ...composed.p]), ...composed.q]);
    if (nesting(best, depth) <= MAX_FILTER_NESTING) return best;
  }
  return best;
}

/** The steps (outermost first) as one `(x AND p) OR q`, composed `fanOut` segments at a time. */
function compose(steps: readonly Step[], fanOut: number): Step {
  if (steps.length === 1) return steps[0]!;
  const size = Math.ceil(steps.length / fanOut);
  const parts: Step[] = [];
  for (let i = 0; i < steps.length; i += size) parts.push(compose(steps.slice(i, i + size), fanOut));
  // T1(T2(…Tk(x))) = (x AND P1 AND … AND Pk) OR Q1 OR (Q2 AND P1) OR (Q3 AND P1 AND P2) …
  const p: Flat[] = [];
  const q: Flat[] = [];
  for (const part of parts) {
    if (part.q.length > 0) q.push(p.length === 0 ? orOf(part.q) : andOf([orOf(part.q), ...p]));
    p.push(...part.p);
  }
  return { p: p.length === 0 ? [] : [andOf(p)], q };
}

/** The AND of `terms`, merged into one chain (one term: itself). */
function andOf(terms: readonly Flat[]): Flat {
  return chainOf("AND", terms);
}

/** The OR of `terms`, merged into one chain (one term: itself). */
function orOf(terms: readonly Flat[]): Flat {
  return chainOf("OR", terms);
}

function chainOf(op: ChainOp, terms: readonly Flat[]): Flat {
  const flat: Flat[] = [];
  for (const term of terms) {
    if (term.kind === "chain" && term.op === op) flat.push(...term.terms);
    else flat.push(term);
  }
  return flat.length === 1 ? flat[0]! : { kind: "chain", op, terms: flat };
}
