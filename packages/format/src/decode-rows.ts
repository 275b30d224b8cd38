/** Reading rows: a RecordBatch of table rows back as nd record batches. */
import { Schema, Struct, makeData, type RecordBatch } from "apache-arrow";
import { decode, isNdArrowError, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { recordBatchOf } from "@lance-nd/nd-arrow/internal";
import { isStatsColumn } from "@lance-nd/stats";
import { stripEncodingMetadata } from "./column-encoding.js";
import { FormatError } from "./errors.js";

/**
 * Decodes table rows (any projection of the table's columns, e.g. a Lance
 * scan batch) as a reader of the format does: the stats columns are left
 * out (FORMAT.md 4.7), a null array row leaves the array out of the row
 * (1.2), a null `__global_attrs__` row has no global attributes (1.5),
 * and the `lance-encoding:*` keys are removed from the arrays' metadata
 * (section 3). Throws `InvalidTable`, naming the column and row, for rows
 * that break the nd-arrow layout.
 *
 * @example
 * for (const batch of decodeRows(scanBatch)) console.log(batch.names());
 */
export function decodeRows(rb: RecordBatch): NdRecordBatch[] {
  const keep = rb.schema.fields.flatMap((field, i) =>
    isStatsColumn(field.name) ? [] : [{ field: stripEncodingMetadata(field), i }],
  );
  const schema = new Schema(keep.map((k) => k.field));
  const children = keep.map((k) => rb.data.children[k.i]!);
  const nd = recordBatchOf(
    schema,
    makeData({ type: new Struct(schema.fields), length: rb.numRows, nullCount: 0, children }),
  );
  try {
    return decode(nd, { nulls: "absent" });
  } catch (err) {
    if (!isNdArrowError(err)) throw err;
    throw new FormatError("InvalidTable", `the table rows break the nd-arrow layout: ${err.message}`, {
      column: err.column,
      cause: err,
    });
  }
}
