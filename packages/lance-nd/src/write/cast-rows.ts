/**
 * Casting incoming rows to the table types: the `casts` of a write plan
 * applied to the values and attributes of nd record batches.
 */
import { castVector, isCastingError, type Casting } from "@lance-nd/casting";
import type { Cast, CastingMode } from "@lance-nd/format";
import { Attr, GLOBAL_ATTRS_COLUMN, type NdRecordBatch, type Attrs, type NdArray } from "@lance-nd/nd-arrow";
import { DataType } from "apache-arrow";
import type { Vector } from "apache-arrow";
import { LanceNdError } from "../errors.js";

/**
 * The batches with each cast of `casts` applied: variable values under
 * `casting` ("promote" casts as "safe", after the table was widened),
 * attributes and global attributes as "safe". Batches without a cast
 * column come back as they are (no copy). `firstRow` counts the rows of
 * the call, for error messages.
 *
 * @throws LanceNdError `SchemaMismatch` naming the variable (or attribute),
 * the row, both types, the mode and the first value that does not fit.
 */
export function castBatches(
  batches: readonly NdRecordBatch[],
  casts: readonly Cast[],
  casting: CastingMode,
  uri: string,
  firstRow = 0,
): NdRecordBatch[] {
  if (casts.length === 0) return [...batches];
  const byColumn = new Map<string, Cast[]>();
  for (const cast of casts) byColumn.set(cast.column, [...(byColumn.get(cast.column) ?? []), cast]);
  const mode = casting === "promote" ? "safe" : casting;
  return batches.map((batch, i) => {
    const row = firstRow + i;
    let out = batch;
    const globalCasts = byColumn.get(GLOBAL_ATTRS_COLUMN);
    if (globalCasts !== undefined) {
      out = out.withGlobalAttrs(castAttrs(out.globalAttrs, globalCasts, { uri, column: GLOBAL_ATTRS_COLUMN, row }));
    }
    const arrays: [string, NdArray][] = [];
    for (const [name, array] of out.arrays()) {
      const columnCasts = byColumn.get(name);
      if (columnCasts === undefined) continue;
      const place = { uri, column: name, row };
      let cast = array;
      const valueCast = columnCasts.find((c) => c.target === "values");
      if (valueCast !== undefined) {
        cast = cast.withValues(castValues(cast.values, valueCast.to, mode, place));
      }
      const attrCasts = columnCasts.filter((c) => c.target !== "values");
      if (attrCasts.length > 0) cast = cast.withAttrs(castAttrs(cast.attrs, attrCasts, place));
      arrays.push([name, cast]);
    }
    return arrays.length === 0 ? out : out.withArrays(arrays);
  });
}

interface Place {
  uri: string;
  column: string;
  row: number;
}

function castValues(values: Vector, to: DataType, casting: Casting, place: Place): Vector {
  try {
    return castVector(values, to, casting);
  } catch (err) {
    if (!isCastingError(err)) throw err;
    const value =
      err.code === "ValueOutOfRange"
        ? `: value ${showValue(err.value)} at index ${err.index} does not fit`
        : `: ${err.message}`;
    throw new LanceNdError(
      "SchemaMismatch",
      `cannot cast the ${String(values.type)} values to the table's ${String(to)} with casting "${casting}"${value}`,
      { ...place, cause: err },
    );
  }
}

/** The attributes with the casts whose target names one of their keys. */
function castAttrs(attrs: Attrs, casts: readonly Cast[], place: Place): Attrs {
  const out = new Map(attrs);
  for (const cast of casts) {
    const key =
      typeof cast.target === "object" ? ("attr" in cast.target ? cast.target.attr : cast.target.globalAttr) : undefined;
    const attr = key === undefined ? undefined : attrs.get(key);
    if (key === undefined || attr === undefined) continue;
    const itemType = DataType.isList(cast.to) ? (cast.to.children[0]?.type ?? cast.to) : cast.to;
    try {
      out.set(key, new Attr(cast.to, castVector(attr.value, itemType, "safe")));
    } catch (err) {
      if (!isCastingError(err)) throw err;
      throw new LanceNdError(
        "SchemaMismatch",
        `attribute "${key}": cannot cast ${String(attr.type)} to the table's ${String(cast.to)}: ${err.message}`,
        {
          ...place,
          cause: err,
        },
      );
    }
  }
  return out;
}

function showValue(value: unknown): string {
  return typeof value === "bigint" ? `${value}n` : String(value);
}
