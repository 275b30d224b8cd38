/**
 * The type plan of an import: every file's header is read first, and each
 * variable's type and each numeric attribute's type is planned over all
 * files under the casting mode, so the table does not depend on the order
 * of the files on the command line (CLI README, "Types over many files").
 */
import { Field, List, Type } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { castAttrValue, castVector, promoteTypes, sameType } from "@lance-nd/casting";
import { cfDecode } from "@lance-nd/cf";
import { Attr, NdArray } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NetcdfFile } from "@lance-nd/netcdf";
import { CliError } from "../errors.js";

/** What `--cf` does to the values (CLI README, "CF conventions"). */
export type CfMode = "raw" | "mask" | "decode";

/** The cfDecode options of a mode. */
export function cfOptions(mode: CfMode): { mask: boolean; scale: boolean; times: boolean } {
  return { mask: mode !== "raw", scale: mode === "decode", times: mode === "decode" };
}

/**
 * The cfDecode options of a mode for netCDF values: also `validRange`, as
 * netCDF4-python masks. (Zarr stores decode in `openZarr` with
 * {@link cfOptions}: JSON attributes cannot tell packed from unpacked bounds.)
 */
function netcdfCfOptions(mode: CfMode): ReturnType<typeof cfOptions> & { validRange: boolean } {
  return { ...cfOptions(mode), validRange: true };
}

const PROBES: Record<string, () => ArrayLike<number | bigint>> = {
  byte: () => new Int8Array(1),
  ubyte: () => new Uint8Array(1),
  short: () => new Int16Array(1),
  ushort: () => new Uint16Array(1),
  int: () => new Int32Array(1),
  uint: () => new Uint32Array(1),
  int64: () => new BigInt64Array(1),
  uint64: () => new BigUint64Array(1),
  float: () => new Float32Array(1),
  double: () => new Float64Array(1),
};

/** The type a variable of `file` has after `--cf mode` (a one-value probe through cfDecode, so the rule lives in one place). */
export function netcdfDecodedType(file: NetcdfFile, name: string, mode: CfMode): DataType | undefined {
  const v = file.variable(name);
  const probe = PROBES[v.type];
  if (probe === undefined) return undefined;
  const array = NdArray.from(probe() as never, { dims: { x: 1 }, attrs: v.attrs });
  return cfDecode(array, { ...netcdfCfOptions(mode), name }).type;
}

/** Target types: per variable, and per attribute key (`<variable>/<key>`, `/<key>` for globals). */
export interface TypePlan {
  readonly values: ReadonlyMap<string, DataType>;
  readonly attrs: ReadonlyMap<string, DataType>;
}

/** What the plan reads of one input (a netCDF file or a Zarr store: `ImportSource`). */
export interface PlanInput {
  readonly path: string;
  readonly variables: readonly { readonly name: string; readonly attrs: ReadonlyMap<string, Attr> }[];
  readonly globalAttrs: ReadonlyMap<string, Attr>;
  /** A variable's type after `--cf` (undefined: not planned). */
  typeAfterCf(name: string): DataType | undefined;
}

/**
 * Plans types over all files. With casting `no` nothing is planned (types
 * must match; the writer says where they do not). Otherwise each variable
 * (and numeric attribute) gets the promotion of its types over all files;
 * `InvalidArgument` names a variable whose types have no common type.
 */
export function planTypes(files: readonly PlanInput[], casting: string): TypePlan {
  const values = new Map<string, DataType>();
  const attrs = new Map<string, DataType>();
  if (casting === "no") return { values, attrs };
  const merge = (into: Map<string, DataType>, key: string, type: DataType, where: string): void => {
    const seen = into.get(key);
    if (seen === undefined) into.set(key, type);
    else if (!sameType(seen, type)) {
      try {
        into.set(key, promoteTypes(seen, type));
      } catch (cause) {
        throw new CliError(
          "InvalidArgument",
          `${where}: types ${String(seen)} and ${String(type)} have no common type`,
          { cause },
        );
      }
    }
  };
  const attrTypes = (prefix: string, list: ReadonlyMap<string, Attr>, path: string): void => {
    for (const [key, a] of list) {
      const item = a.itemType;
      if (item.typeId === Type.Int || item.typeId === Type.Float)
        merge(attrs, `${prefix}/${key}${a.isList ? "[]" : ""}`, item, `${path}: attribute ${prefix}/${key}`);
    }
  };
  for (const file of files) {
    for (const v of file.variables) {
      const type = file.typeAfterCf(v.name);
      if (type !== undefined) merge(values, v.name, type, `${file.path}: variable "${v.name}"`);
      attrTypes(v.name, v.attrs, file.path);
    }
    attrTypes("", file.globalAttrs, file.path);
  }
  return { values, attrs };
}

/**
 * A row with its arrays CF-decoded, then cast to the plan. Rows still to
 * decode (`mode` not `raw`) are netCDF rows: a Zarr source decodes in
 * `openZarr` and passes `raw` (ImportSource.rowCf).
 */
export function applyPlan(row: NdRecordBatch, plan: TypePlan, mode: CfMode, casting: string): NdRecordBatch {
  const rule = casting === "promote" ? "safe" : (casting as "safe" | "same_kind");
  const arrays = row.arrays().map(([name, array]) => {
    let out = cfDecode(array, { ...netcdfCfOptions(mode), name });
    const target = plan.values.get(name);
    if (target !== undefined && !sameType(out.type, target)) out = out.withValues(castVector(out.values, target, rule));
    if (plan.attrs.size > 0) out = out.withAttrs(castAttrs(out.attrs, name, plan));
    return [name, out] as const;
  });
  return row
    .withArrays(arrays)
    .withGlobalAttrs(plan.attrs.size > 0 ? castAttrs(row.globalAttrs, "", plan) : row.globalAttrs);
}

function castAttrs(list: ReadonlyMap<string, Attr>, prefix: string, plan: TypePlan): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const [key, a] of list) {
    const target = plan.attrs.get(`${prefix}/${key}${a.isList ? "[]" : ""}`);
    if (target === undefined || sameType(target, a.itemType)) out.set(key, a);
    else
      out.set(
        key,
        new Attr(a.isList ? new List(new Field("item", target, true)) : target, castAttrValue(a.value, target)),
      );
  }
  return out;
}
