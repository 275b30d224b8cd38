/**
 * Rows of some of a source's variables (the CLI README, "Rows of an
 * import"): a source whose variables sit on dims of their own (GMT's
 * `dcw-gmt.nc`: 1,046 variables on 523 dims, none over 4 MiB) cannot be cut
 * within the row budget along any one dim, so its variables are grouped:
 * variables that share a dim stay together (a row's grid is then shared by
 * no other group's rows), a group over the budget is cut on its storage
 * grid ({@link storageRowSizes}), and groups within it are packed whole
 * into rows of at most the budget.
 */
import { largestVariable, ROW_BYTES, storageRowSizes, type StoredVariable } from "./storage-rows.js";

/** A variable the row planner groups: a {@link StoredVariable} with its name. */
export interface NamedStoredVariable extends StoredVariable {
  readonly name: string;
}

/** Rows of some of a source's variables: those variables, cut by `sizes` (empty: one row holds them whole). */
export interface RowGroup {
  readonly variables: readonly string[];
  readonly sizes: Readonly<Record<string, number>>;
}

/**
 * The rows of a source of `variables` within `budget` bytes a row, as
 * groups of variables with their row sizes, in the source's order. The
 * source is one group of every variable (cut on the storage grid of its
 * largest variable when over the budget) unless the variables that cut
 * leaves whole, repeated in every row, hold more than `budget` bytes and
 * some variables share no dim with the others. Then each set of variables
 * linked by shared dims is cut the same way when over the budget, and the
 * others are packed whole, in order, into groups of at most `budget` bytes;
 * every row of such a source stays within the budget, storage blocks cut
 * too.
 *
 * @example planRowGroups([a(x 10), b(y 10)], 1 << 20) // [{ variables: ["a", "b"], sizes: {} }]
 */
export function planRowGroups(variables: readonly NamedStoredVariable[], budget = ROW_BYTES): RowGroup[] {
  const single = cutGroup(variables, budget, false);
  const cut = new Set(Object.keys(single.sizes));
  const repeated = variables.filter((v) => !v.dims.some((d) => cut.has(d.name)));
  if (cut.size === 0 || rowBytes(repeated, {}) <= budget) return [single];
  const components = linkedByDims(variables);
  if (components.length === 1) return [single];
  const groups: RowGroup[] = [];
  let packed: string[] = [];
  let packedBytes = 0;
  for (const component of components) {
    const bytes = component.reduce((n, v) => n + variableBytes(v), 0);
    if (packed.length > 0 && (bytes > budget || packedBytes + bytes > budget)) {
      groups.push({ variables: packed, sizes: {} });
      [packed, packedBytes] = [[], 0];
    }
    if (bytes > budget) {
      groups.push(cutGroup(component, budget, true));
      continue;
    }
    packed.push(...component.map((v) => v.name));
    packedBytes += bytes;
  }
  if (packed.length > 0) groups.push({ variables: packed, sizes: {} });
  return groups;
}

/**
 * `variables` as one group: whole within `budget`, else cut on the storage
 * grid of the largest ({@link storageRowSizes}). With `strict`, every row
 * stays within `budget`: the variables on the largest's dims share it, and
 * a storage block over it is cut too.
 */
function cutGroup(variables: readonly NamedStoredVariable[], budget: number, strict: boolean): RowGroup {
  const names = variables.map((v) => v.name);
  const largest = largestVariable(variables);
  if (rowBytes(variables, {}) <= budget || largest === undefined) return { variables: names, sizes: {} };
  if (!strict) return { variables: names, sizes: storageRowSizes(largest, budget) };
  const same = (v: StoredVariable) =>
    v.dims.length === largest.dims.length && v.dims.every((d, i) => d.name === largest.dims[i]!.name);
  const itemBytes = variables.filter(same).reduce((n, v) => n + v.itemBytes, 0);
  return { variables: names, sizes: storageRowSizes({ ...largest, itemBytes }, budget, budget) };
}

/** The bytes of the largest row of `variables` cut by `sizes`. */
function rowBytes(variables: readonly StoredVariable[], sizes: Readonly<Record<string, number>>): number {
  return variables.reduce(
    (n, v) => n + v.dims.reduce((m, d) => m * Math.min(d.size, sizes[d.name] ?? d.size), v.itemBytes),
    0,
  );
}

/** The bytes of a variable's values. */
function variableBytes(v: StoredVariable): number {
  return v.dims.reduce((n, d) => n * d.size, v.itemBytes);
}

/** `variables` split into sets linked by shared dims (a scalar is a set of its own), each in the source's order, ordered by their first variable. */
function linkedByDims(variables: readonly NamedStoredVariable[]): NamedStoredVariable[][] {
  const parent = variables.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const firstWithDim = new Map<string, number>();
  variables.forEach((v, i) => {
    for (const d of v.dims) {
      const first = firstWithDim.get(d.name);
      if (first === undefined) firstWithDim.set(d.name, i);
      else parent[root(i)] = root(first);
    }
  });
  const sets = new Map<number, NamedStoredVariable[]>();
  variables.forEach((v, i) => {
    const set = sets.get(root(i));
    if (set === undefined) sets.set(root(i), [v]);
    else set.push(v);
  });
  return [...sets.values()];
}
