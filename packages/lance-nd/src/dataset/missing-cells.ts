/**
 * Cells of a selection that no row holds. A dataset's rows need not tile its
 * grid: `check --repair` removes unreadable rows, and a `where` may select
 * rows around a gap. Planning accepts that; a read fails only when its
 * selection needs cells no row holds, naming them and how to bring them
 * back (README "Datasets").
 */
import { tilingProblem } from "@lance-nd/nd-arrow/internal";
import { LanceNdError } from "../errors.js";
import type { NdTable } from "../table.js";
import type { DatasetPlan } from "./plan.js";
import type { DimRange } from "./selection.js";
import { probeBox, rowSpan } from "./variable-rows.js";

/**
 * Rejects a read of `ranges` when some of its cells (the stand-in cell along
 * a dim selected empty, as `blockRows` probes) lie in no row.
 *
 * @throws LanceNdError `InvalidInput` naming how many cells are missing, the
 * first of them (by dim name, in the rows' `chunk_offset` frame) and that
 * importing the file that held them again (`import --mode replace`) brings
 * them back.
 */
export function checkCellsHeld(view: NdTable, plan: DatasetPlan, ranges: readonly DimRange[]): void {
  const probe = probeBox(plan, ranges);
  const span = rowSpan(plan);
  const cells = probe.reduce((n, [a, b]) => n * (b - a), 1);
  const meeting = plan.rows.filter((row) =>
    probe.every(([a, b], d) => row.start[d]! < b && a < row.start[d]! + span(row, d)),
  );
  const extents = meeting.map((row) => plan.grid.map((_, d) => span(row, d)));
  let covered = 0;
  meeting.forEach((row, k) => {
    covered += probe.reduce(
      (n, [a, b], d) => n * (Math.min(b, row.start[d]! + extents[k]![d]!) - Math.max(a, row.start[d]!)),
      1,
    );
  });
  if (covered >= cells) return;
  const problem = tilingProblem(
    probe,
    meeting.map((row) => row.start),
    extents,
  );
  const cell = problem?.kind === "gap" ? problem.cell : undefined;
  const first =
    cell === undefined
      ? ""
      : ` (the first: ${plan.grid.map((d, k) => `${d.name} ${cell[k]! + plan.origin[k]!}`).join(", ")})`;
  const box = probe.map(([a, b], k) => `${plan.grid[k]!.name} ${a + plan.origin[k]!}:${b + plan.origin[k]!}`);
  throw new LanceNdError(
    "InvalidInput",
    `dataset: no row holds ${cells - covered} of the ${cells} cells [${box.join(", ")}] the selection needs${first}; ` +
      "their rows are gone (removed by check --repair?): import the file that held them again with import --mode replace",
    { uri: view.uri },
  );
}
