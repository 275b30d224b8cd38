/**
 * Projections of wide tables. Lance plans each column of a projection that
 * is not all plain top-level names (a nested path such as `sst.dim_sizes`,
 * a stats column `__stats__:sst`) by converting the table's whole schema,
 * so such a projection of k columns costs about k times the schema's
 * fields times 1.7 µs (SDK-NOTES.md, section 18): 110 s for the 3,139
 * columns that plan a table of GMT's dcw-gmt.nc (1,046 variables, 21,979
 * fields), where reading every column of its 66 MiB takes 4.3 s. A read
 * that would cost more to plan than to read whole reads every column and
 * keeps the projected ones ({@link pickColumns}).
 */
import {
  BufferType,
  Field,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableFromIPC,
  tableToIPC,
  type Data,
  type DataType,
} from "apache-arrow";
import { plainProjection, tableBytes } from "./table-read.js";
import type { LanceTable } from "./table-open.js";

/** Seconds Lance takes to plan one projected column per field of the table's schema. */
const PLAN_SECONDS_PER_FIELD = 1.7e-6;
/** Bytes of a table's data files a scan of every column reads per second (the dcw-gmt.nc table: 66 MiB in 4.3 s). */
const WHOLE_READ_BYTES_PER_SECOND = 15 * 2 ** 20;
/** Below this estimate of planning time the projection is sent as it is, without asking the table's size. */
const PLAN_SECONDS_WORTH_A_LOOK = 1;

const fieldCounts = new WeakMap<Schema, number>();

/** The fields of `schema`, nested ones included: what Lance's per-call costs grow with (SDK-NOTES.md, sections 18 and 29). */
export function fieldCount(schema: Schema): number {
  let count = fieldCounts.get(schema);
  if (count === undefined) {
    const walk = (fields: readonly Field[]): number =>
      fields.reduce((n, field) => n + 1 + walk((field.type.children ?? []) as Field[]), 0);
    count = walk(schema.fields);
    fieldCounts.set(schema, count);
  }
  return count;
}

/**
 * True when reading every column of `table` costs less than planning the
 * projection of `columns` on a table of `schema`: many columns sent as a
 * list of names (not a {@link plainProjection}) on a schema of many fields, and a table small enough to
 * read whole (its data files' bytes).
 */
export async function readsWholeRows(table: LanceTable, schema: Schema, columns: readonly string[]): Promise<boolean> {
  if (plainProjection(columns)) return false;
  const planSeconds = columns.length * fieldCount(schema) * PLAN_SECONDS_PER_FIELD;
  if (planSeconds < PLAN_SECONDS_WORTH_A_LOOK) return false;
  return (await tableBytes(table)) / WHOLE_READ_BYTES_PER_SECOND < planSeconds;
}

/** The segments of a column path as lance-nd writes them (`name`, `` `a.b`.dim_sizes ``, `__stats__:sst`). */
export function pathSegments(path: string): string[] {
  const segments: string[] = [];
  let at = 0;
  while (at < path.length) {
    if (path[at] === "`") {
      let name = "";
      let end = at + 1;
      for (;;) {
        const tick = path.indexOf("`", end);
        if (tick < 0) throw new Error(`unterminated quote in column path ${path}`);
        name += path.slice(end, tick);
        if (path[tick + 1] !== "`") {
          end = tick + 1;
          break;
        }
        name += "`";
        end = tick + 2;
      }
      segments.push(name);
      at = end + 1; // past the dot
    } else {
      const dot = path.indexOf(".", at);
      segments.push(path.slice(at, dot < 0 ? path.length : dot));
      at = dot < 0 ? path.length : dot + 1;
    }
  }
  return segments;
}

/** `leaf` with a row null wherever one of `parents` (the structs above it) is null. */
function nullUnder(leaf: Data, parents: readonly Data[]): Data {
  if (parents.every((parent) => parent.nullCount === 0)) return leaf;
  const bitmap = new Uint8Array(Math.ceil((leaf.offset + leaf.length) / 8));
  let nulls = 0;
  for (let i = 0; i < leaf.length; i++) {
    if (leaf.getValid(i) && parents.every((parent) => parent.getValid(i))) {
      const bit = leaf.offset + i;
      bitmap[bit >> 3]! |= 1 << (bit & 7);
    } else nulls++;
  }
  const buffers = { ...leaf.buffers, [BufferType.VALIDITY]: bitmap };
  return leaf.clone(leaf.type, leaf.offset, leaf.length, nulls, buffers);
}

/**
 * The batch a projection of `columns` gives (each path a top-level column
 * of that name, in that order, then `_rowid` when `batch` has it), cut out
 * of `batch`, a read of every column: a nested path is null where a struct
 * above it is. The columns are copied, so the batch read (one buffer for
 * all its columns) is not kept alive by them.
 */
export function pickColumns(batch: RecordBatch, columns: readonly string[]): RecordBatch {
  const fields: Field[] = [];
  const children: Data[] = [];
  for (const name of [...columns, ...(batch.schema.fields.some((f) => f.name === "_rowid") ? ["_rowid"] : [])]) {
    const [top, ...rest] = pathSegments(name);
    const missing = () => new Error(`no column ${name} in the rows read`);
    const at = batch.schema.fields.findIndex((f) => f.name === top);
    if (at < 0) throw missing();
    let field = batch.schema.fields[at]!;
    let data = batch.data.children[at]!;
    const parents: Data[] = [];
    for (const segment of rest) {
      const index = ((field.type.children ?? []) as Field[]).findIndex((child) => child.name === segment);
      if (index < 0) throw missing();
      parents.push(data);
      field = (field.type.children as Field[])[index]!;
      data = data.children[index]!;
    }
    fields.push(new Field(name, field.type, true, field.metadata));
    children.push(nullUnder(data, parents));
  }
  const type = new Struct<Record<string, DataType>>(fields);
  const picked = new RecordBatch(new Schema(fields), makeData({ type, length: batch.numRows, children, nullCount: 0 }));
  return tableFromIPC(tableToIPC(new Table(picked))).batches[0]!;
}
