/**
 * Building a RecordBatch in time linear in its columns. apache-arrow's
 * constructor (`new RecordBatch(schema, data)`) merges the schema with a copy
 * of itself field by field (`Schema.assign`, a `findIndex` per field), which
 * is quadratic in the number of columns: 0.3 s a batch at 8,000 columns, the
 * larger part of lance-nd's own time in a scan of 4,000 variables with stats
 * (bench/README.md, "Wide tables, scale, concurrent writers").
 */
import { RecordBatch, type Data, type Schema, type Struct } from "apache-arrow";

/** The RecordBatch class of an apache-arrow module (this package's, or the copy another package loads). */
export type RecordBatchClass = typeof RecordBatch;

/**
 * A RecordBatch of `schema` and `data` (a struct of one child per field,
 * each of `data.length` rows), of the class `of` (default: this package's
 * apache-arrow). Equal to what the constructor makes when every child has
 * `data.length` rows, without its quadratic schema merge; any other batch
 * goes through the constructor (which pads short children with nulls).
 *
 * @example
 * const rb = recordBatchOf(schema, makeData({ type: new Struct(schema.fields), length: 1, children }));
 */
export function recordBatchOf(schema: Schema, data: Data<Struct>, of: RecordBatchClass = RecordBatch): RecordBatch {
  const sameLength =
    data.children.length === schema.fields.length && data.children.every((child) => child.length === data.length);
  if (!sameLength) return new of(schema, data);
  // The constructor's only own properties are `schema` and `data` (apache-arrow 15-18; test/record-batch.test.ts).
  const batch = Object.create(of.prototype) as RecordBatch;
  return Object.assign(batch, { schema, data });
}
