/**
 * Finding a dataset's layouts in one table version and telling the current
 * ones from the stale (README "Layouts"). A layout is current when its rows
 * are all there (as many as each row's `layout_rows` says), each names the
 * fingerprint of the source rows this version holds, and they plan as a
 * dataset on the source's grid. Anything else (a rechunk killed half-way,
 * a source changed since by an append, replace, delete or restore, rows
 * removed) is stale: reads never take it.
 */
import type { Struct } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, type Attrs } from "@lance-nd/nd-arrow";
import { decodeRows } from "@lance-nd/format";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import { col } from "../read/expr.js";
import { planRead, type Condition } from "../read/read-plan.js";
import { planScan } from "./plan-scan.js";
import type { NdTable } from "../table.js";
import { planDataset, type DatasetPlan } from "./plan.js";
import type { ReadLayout } from "./layout-choice.js";
import {
  LAYOUT_CHUNK,
  LAYOUT_OF,
  LAYOUT_ROWS,
  LAYOUT_SOURCE,
  LAYOUT_SOURCE_VERSION,
  SOURCE_LAYOUT,
  layoutName,
  rowsFingerprint,
} from "./layout-attrs.js";

/** One layout of a dataset as the table version holds it. */
export interface LayoutState {
  /** Its name (the part of its id after `@`). */
  readonly name: string;
  /** Its id: `<source id>@<name>`. */
  readonly id: string;
  /** Its chunk shape as `rechunk` took it. */
  readonly chunk: string;
  /** The rows of it the version holds. */
  readonly rows: number;
  /** The source version it was cut from. */
  readonly sourceVersion: number;
  /** Why it is not read, or null when it is current. */
  readonly stale: string | null;
  /** Its plan, when current. */
  readonly plan: DatasetPlan | null;
  /** Its smallest `_rowid`: layouts created earlier have smaller ones. */
  readonly firstRowId: bigint;
}

/**
 * The layouts of the dataset `sourceId` that `view` (a pinned version)
 * holds, current or stale, in the order they were created. `source` is the
 * plan of the source's rows. No scan when no row of the table was ever a
 * layout (the global attributes have no `layout_of`).
 */
export async function datasetLayouts(view: NdTable, sourceId: string, source: DatasetPlan): Promise<LayoutState[]> {
  const rows = await layoutRows(view, col(`${GLOBAL_ATTRS_COLUMN}.${LAYOUT_OF}`).eq(sourceId).toSql());
  const fingerprint = rowsFingerprint(source.rows.map((row) => row.rowId));
  const states: LayoutState[] = [];
  for (const [id, layout] of rows) {
    const first = layout.attrs[0]!;
    const expected = Number(first.get(LAYOUT_ROWS)?.toJS());
    const base = {
      name: layoutName(id, sourceId),
      id,
      chunk: String(first.get(LAYOUT_CHUNK)?.toJS() ?? ""),
      rows: layout.attrs.length,
      sourceVersion: Number(first.get(LAYOUT_SOURCE_VERSION)?.toJS() ?? 0),
      firstRowId: layout.firstRowId,
    };
    const stale = staleness(layout.attrs, expected, fingerprint);
    const plan = stale === null ? await layoutPlan(view, id, source) : null;
    states.push({
      ...base,
      stale: stale ?? (plan === null ? "its rows do not tile the source's grid" : null),
      plan,
    });
  }
  return states.sort((a, b) => (a.firstRowId < b.firstRowId ? -1 : a.firstRowId > b.firstRowId ? 1 : 0));
}

/** Why rows of one layout are not current, or null when they are. */
function staleness(attrs: readonly Attrs[], expected: number, fingerprint: string): string | null {
  if (attrs.some((a) => a.get(LAYOUT_SOURCE)?.toJS() !== fingerprint)) return "the source changed since its rechunk";
  if (attrs.some((a) => Number(a.get(LAYOUT_ROWS)?.toJS()) !== expected) || attrs.length !== expected) {
    return `${attrs.length} of its ${expected} rows are there (a rechunk did not complete)`;
  }
  return null;
}

/** The layout's plan when its rows make up a dataset on the source's grid and variables, else null. */
async function layoutPlan(view: NdTable, id: string, source: DatasetPlan): Promise<DatasetPlan | null> {
  const filter = planRead(view.uri, view.layout, {
    projection: [],
    conditions: [{ kind: "nd", sql: col(`${GLOBAL_ATTRS_COLUMN}.id`).eq(id).toSql() }],
  }).filter;
  let plan: DatasetPlan;
  try {
    plan = await planDataset(view, filter);
  } catch (err) {
    if (isLanceNdError(err, "InvalidInput")) return null;
    throw err;
  }
  const same = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);
  const names = (p: DatasetPlan) => p.variables.map((v) => v.name).sort();
  return same(plan.grid, source.grid) && same(plan.origin, source.origin) && same(names(plan), names(source))
    ? plan
    : null;
}

/**
 * The condition that keeps the rows of layouts out of a dataset's rows
 * (none when no row of the table was ever a layout): a layout is read
 * through its dataset, never as a dataset of its own.
 */
export function notLayoutRows(view: NdTable): Condition[] {
  return hasLayoutAttr(view) ? [{ kind: "nd", sql: col(`${GLOBAL_ATTRS_COLUMN}.${LAYOUT_OF}`).isNull().toSql() }] : [];
}

/** True when the table's global attributes have `layout_of`: some row was once a layout. */
function hasLayoutAttr(view: NdTable): boolean {
  const field = view.layout.globalAttrs;
  return field !== null && (field.type as Struct).children.some((child) => child.name === LAYOUT_OF);
}

/**
 * The ids of the datasets some row of `view` is a layout of, sorted (none,
 * without a scan, when no row of the table was ever a layout).
 */
export async function layoutSources(view: NdTable): Promise<string[]> {
  if (!hasLayoutAttr(view)) return [];
  const rows = await layoutRows(view, col(`${GLOBAL_ATTRS_COLUMN}.${LAYOUT_OF}`).isNotNull().toSql());
  return [...new Set([...rows.values()].map((layout) => String(layout.attrs[0]!.get(LAYOUT_OF)?.toJS())))].sort();
}

/** The global attributes of the layout rows `sql` selects, by layout id, with each layout's smallest `_rowid`. */
async function layoutRows(view: NdTable, sql: string): Promise<Map<string, { attrs: Attrs[]; firstRowId: bigint }>> {
  const byId = new Map<string, { attrs: Attrs[]; firstRowId: bigint }>();
  if (!hasLayoutAttr(view)) return byId;
  const { filter } = planRead(view.uri, view.layout, { projection: [], conditions: [{ kind: "nd", sql }] });
  for (const rb of await planScan(view, [GLOBAL_ATTRS_COLUMN], filter)) {
    const attrs = withPureErrors({ uri: view.uri }, () =>
      decodeRows(rb.selectAt([rb.schema.fields.findIndex((f) => f.name === GLOBAL_ATTRS_COLUMN)])).map(
        (row) => row.globalAttrs,
      ),
    );
    const rowIds = rb.getChild("_rowid")!;
    attrs.forEach((rowAttrs, r) => {
      const id = String(rowAttrs.get("id")?.toJS());
      const rowId = rowIds.get(r) as bigint;
      const entry = byId.get(id);
      if (entry === undefined) byId.set(id, { attrs: [rowAttrs], firstRowId: rowId });
      else {
        entry.attrs.push(rowAttrs);
        if (rowId < entry.firstRowId) entry.firstRowId = rowId;
      }
    });
  }
  return byId;
}

/**
 * The layouts a read of the dataset planned as `source` may take: the
 * source's own rows (named `source`) first, then its current layouts in
 * the order they were created. Only the source's rows for a dataset
 * without an id, a layout opened by its own id, or rows a `where` picked
 * from the middle of a dataset (their fingerprint is no layout's).
 */
export async function readLayouts(view: NdTable, source: DatasetPlan): Promise<ReadLayout[]> {
  const own: ReadLayout = { name: SOURCE_LAYOUT, plan: source };
  const id = source.rows[0]?.id;
  if (id === undefined || source.globalAttrs.has(LAYOUT_OF)) return [own];
  const layouts = await datasetLayouts(view, id, source);
  return [own, ...layouts.flatMap((state) => (state.plan === null ? [] : [{ name: state.name, plan: state.plan }]))];
}

/**
 * The layout named `name` among `layouts`, for a read that forces it.
 *
 * @throws LanceNdError `InvalidInput` naming the current layouts when it is not one of them.
 */
export function forcedLayout(uri: string, layouts: readonly ReadLayout[], name: string): ReadLayout {
  const found = layouts.find((layout) => layout.name === name);
  if (found !== undefined) return found;
  throw new LanceNdError(
    "InvalidInput",
    `dataset: no current layout "${name}"; the current layouts are ${layouts.map((l) => l.name).join(", ")} (a stale layout is never read: rechunk with refresh rewrites it)`,
    { uri },
  );
}
