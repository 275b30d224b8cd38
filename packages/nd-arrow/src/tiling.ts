/**
 * Whether boxes (chunks placed by their start and extent on a grid) tile a
 * box of the grid: no two share a cell, and together they cover it. Pure
 * geometry, so `assemble` and readers that plan before reading any value
 * (lance-nd's datasets) give the same verdict.
 */

/** Why boxes do not tile: two overlap (indices into the boxes), or cells of the box stay uncovered. */
export type TilingProblem =
  | { kind: "overlap"; boxes: [number, number] }
  | { kind: "gap"; covered: number; cells: number; cell: number[] | undefined };

/**
 * The first reason why the boxes at `starts` with `extents` (one entry per
 * grid dim each) do not tile `box` (`[start, stop)` per dim), or
 * `undefined` when they do. Boxes may stick out of `box`; boxes with no cell
 * never overlap. A gap names the first uncovered cell, in row-major order,
 * among cells whose coordinates are box or chunk edges.
 *
 * @example
 * tilingProblem([[0, 4]], [[0], [2]], [[2], [2]]); // undefined
 * tilingProblem([[0, 4]], [[0]], [[2]]);           // { kind: "gap", covered: 2, cells: 4, cell: [2] }
 */
export function tilingProblem(
  box: readonly (readonly [number, number])[],
  starts: readonly (readonly number[])[],
  extents: readonly (readonly number[])[],
): TilingProblem | undefined {
  let covered = 0;
  for (let j = 0; j < starts.length; j++) {
    const ext = extents[j]!;
    covered += cellsInside(box, starts[j]!, ext);
    if (ext.some((e) => e === 0)) continue;
    for (let i = 0; i < j; i++) {
      if (extents[i]!.some((e) => e === 0)) continue;
      const overlaps = box.every(
        (_, d) => starts[i]![d]! < starts[j]![d]! + ext[d]! && starts[j]![d]! < starts[i]![d]! + extents[i]![d]!,
      );
      if (overlaps) return { kind: "overlap", boxes: [i, j] };
    }
  }
  const cells = box.reduce((n, [a, b]) => n * (b - a), 1);
  if (covered < cells) return { kind: "gap", covered, cells, cell: findGap(box, starts, extents) };
  return undefined;
}

/** The cells of one box inside `box`. */
function cellsInside(
  box: readonly (readonly [number, number])[],
  start: readonly number[],
  extent: readonly number[],
): number {
  return box.reduce((n, [a, b], d) => n * Math.max(0, Math.min(b, start[d]! + extent[d]!) - Math.max(a, start[d]!)), 1);
}

/** One uncovered cell of `box`: the first, in row-major order, among cells whose coordinates are a box or chunk edge. */
function findGap(
  box: readonly (readonly [number, number])[],
  starts: readonly (readonly number[])[],
  extents: readonly (readonly number[])[],
): number[] | undefined {
  const candidates = box.map(([lo, hi], d) => {
    const edges = new Set<number>([lo]);
    starts.forEach((s, i) => {
      edges.add(s[d]!);
      edges.add(s[d]! + extents[i]![d]!);
    });
    return [...edges].filter((e) => e >= lo && e < hi).sort((a, b) => a - b);
  });
  const total = candidates.reduce((n, c) => n * c.length, 1);
  for (let k = 0; k < Math.min(total, 100_000); k++) {
    const cell = new Array<number>(box.length);
    for (let d = box.length - 1, rest = k; d >= 0; d--) {
      cell[d] = candidates[d]![rest % candidates[d]!.length]!;
      rest = Math.floor(rest / candidates[d]!.length);
    }
    const inside = starts.some((s, i) => cell.every((x, d) => x >= s[d]! && x < s[d]! + extents[i]![d]!));
    if (!inside) return cell;
  }
  return undefined;
}
