/**
 * What reads of one table version share, kept per table handle: the row
 * count, fragments and bytes per row of the version, the handle pinned to
 * it, its fully indexed keys and the in-memory size of projected rows.
 */
import type { Field } from "apache-arrow";
import type { ReadPlan } from "./read-plan.js";
import { rowBytes } from "./take-read.js";
import type { NdTable } from "../table.js";
import type { LanceTable } from "../lance/table-open.js";
import { checkoutVersion, currentVersion, listVersions } from "../lance/table-versions.js";
import { fullyIndexedKeys } from "./key-index.js";

/** What the reads of one version of a table share. */
export interface ReadState {
  /** The version the layout and the estimate belong to. */
  version: number;
  /** Rows of the version (NaN when the manifest does not say). */
  rows: number;
  /** Fragments of the version (0 when the manifest does not say). */
  fragments: number;
  /**
   * Bytes on disk per row of the rows' own data (all columns): the data
   * files' bytes less what every file spends on each leaf column whatever
   * its rows ({@link FILE_BYTES_PER_LEAF_COLUMN}); 0 for an empty table.
   */
  bytesPerRow: number;
  /** In-memory bytes of one row of a projection (key: the columns), measured once per version. */
  projected: Map<string, number>;
  /** A handle pinned to the version, opened by the first read by takes (an open costs ~1.5 ms). */
  view?: Promise<LanceTable>;
  /** The key index paths that cover every row of the version, listed by the first filtered read. */
  fullKeys?: Promise<Set<string>>;
}

/**
 * Bytes a Lance data file spends on each leaf column (a field without
 * children) whatever its rows: page and column metadata. Measured 300-380
 * per leaf with lancedb 0.39 (SDK-NOTES.md, section 24). On a table of many
 * small variables these bytes are most of the files (400 variables of 4
 * values in 8 rows: 48 KB a row on disk for 21 KB in memory), and a scan
 * sized by them reads more Lance batches than needed, each costing lancedb a
 * parse of the whole schema. Less these bytes, the estimate stays within 2x
 * of the rows' bytes in memory (test/read/read-state.test.ts).
 */
const FILE_BYTES_PER_LEAF_COLUMN = 320;

const states = new WeakMap<NdTable, ReadState>();

/**
 * The table's version, with its bytes per row estimated when the version
 * changed since the last scan through this handle, and its layout refreshed
 * when the version changed since the handle last read the schema (`open`
 * just did; a schema read costs ~2 ms, 300 ms at 4,000 variables, the
 * version check ~0.1 ms).
 */
export async function readState(table: NdTable): Promise<ReadState> {
  const version = await currentVersion(table.lance);
  const known = states.get(table);
  if (known !== undefined && known.version === version) return known;
  await table.refreshIfMoved();
  const listed = await listVersions(table.lance);
  const metadata = (listed.find((v) => v.version === version) ?? listed.at(-1))?.metadata ?? {};
  const rows = Number(metadata.total_rows ?? Number.NaN);
  const fragments = Number(metadata.total_fragments ?? 0) || 0;
  const bytes = Number(metadata.total_files_size ?? 0);
  const fixed = FILE_BYTES_PER_LEAF_COLUMN * leafColumns(table.tableSchema.fields) * fragments;
  const state = {
    version,
    rows,
    fragments,
    bytesPerRow: rows > 0 && Number.isFinite(bytes) ? Math.max(1, bytes - fixed) / rows : 0,
    projected: new Map<string, number>(),
  };
  states.set(table, state);
  return state;
}

/**
 * The handle reads by takes use: the table's own when it is a checked-out
 * view, else one pinned to the state's version, opened once and kept for
 * later reads of that version (when the version moves on, the old handle is
 * left to the garbage collector: a read may still use it).
 */
export function pinnedView(table: NdTable, state: ReadState): Promise<LanceTable> {
  if (table.lance.pinnedVersion !== undefined) return Promise.resolve(table.lance);
  state.view ??= checkoutVersion(table.lance, state.version);
  state.view.catch(() => (state.view = undefined));
  return state.view;
}

/**
 * Whether key indexes answer `plan`'s filter: it names only indexed global
 * attributes (no Lance SQL condition), and no row of the version is left
 * out of those indexes (rows appended since an index was built are found by
 * a scan of theirs, which reads their big columns). Listed on `view`, the
 * handle pinned to the state's version, once per version (~0.5 ms).
 */
export async function answeredByKeyIndexes(view: LanceTable, state: ReadState, plan: ReadPlan): Promise<boolean> {
  const paths = plan.filterPaths;
  if (paths === undefined || paths.length === 0) return false;
  state.fullKeys ??= fullyIndexedKeys(view);
  state.fullKeys.catch(() => (state.fullKeys = undefined));
  const keys = await state.fullKeys;
  return paths.every((path) => keys.has(path));
}

/**
 * The in-memory bytes of one row of `columns`, measured by a take of one row
 * and kept for the version. It sizes the Lance batches: a projection of small
 * columns (a coordinate) reads up to `batchSize` rows per batch instead of as
 * few as the whole rows' size allows.
 */
export async function projectedBytesPerRow(
  table: NdTable,
  state: ReadState,
  columns: readonly string[],
): Promise<number> {
  const key = columns.join("\u0000");
  let bytes = state.projected.get(key);
  if (bytes === undefined) {
    bytes = await rowBytes(table.lance, columns);
    state.projected.set(key, bytes);
  }
  return bytes;
}

function leafColumns(fields: readonly Field[]): number {
  let leaves = 0;
  for (const field of fields) {
    const children: readonly Field[] = field.type.children ?? [];
    leaves += children.length > 0 ? leafColumns(children) : 1;
  }
  return leaves;
}
