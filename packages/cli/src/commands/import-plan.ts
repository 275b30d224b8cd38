/**
 * The type plan of an import: every file's header is read first, and each
 * variable's type and each attribute's type is planned over all files under
 * the casting mode, so the table does not depend on the order
 * of the files on the command line (CLI README, "Types over many files").
 */
import { DataType, Field, List, Type } from "apache-arrow";
import { castAttrValue, castVector, promoteTypes, sameType } from "@lance-nd/casting";
import { RAW_VARIABLE_ATTR, STORED_DTYPE_ATTR, cfDecode, dtypeOf, isCfError, maskRoundTrips } from "@lance-nd/cf";
import type { CfErrorCode } from "@lance-nd/cf";
import { Attr, NdArray, attr, toVector } from "@lance-nd/nd-arrow";
import type { Attrs, NdRecordBatch } from "@lance-nd/nd-arrow";
import { cfModeOptions, recordAttrTypes, type CfMode } from "lance-nd/internal";
import { CliError } from "../errors.js";

/**
 * How one input's values are CF-decoded: the `--cf` mode, and whether
 * `valid_range` / `valid_min` / `valid_max` mask too (netCDF under
 * `--cf mask-range`, as netCDF4-python masks; not Zarr, whose JSON
 * attributes cannot tell packed from unpacked bounds). Both readers return
 * stored values (nd-arrow README "Windows"): this is the one place an
 * import decodes them.
 */
export interface SourceCf {
  readonly mode: CfMode;
  readonly validRange: boolean;
  /** Time variables `--cf decode` cannot decode (a date past the timestamp range, `months since`): kept as CF numbers. */
  readonly rawTimes?: ReadonlySet<string>;
}

/** What to import with instead, by the `CfError` code that refuses a decoding. */
const CF_HINTS: Partial<Record<CfErrorCode, string>> = {
  LossyMask: "import it with --cf raw to keep every value",
  UnsupportedCalendar: "import with --cf mask or raw to keep the numbers",
};

/** The `--cf` mode that avoids the refusal `err` (a `CfError`), undefined for other errors. */
export function cfHint(err: unknown): string | undefined {
  return isCfError(err) ? CF_HINTS[err.code] : undefined;
}

/**
 * True when `array` (its attributes) is imported as stored although `cf`
 * masks: its `missing_value` differs from its `_FillValue`, so a masked cell
 * might not export as it was (CLI README, "CF conventions"). Such a
 * variable carries `RAW_VARIABLE_ATTR` in the table.
 */
export function keptRaw(array: NdArray, cf: SourceCf, name: string): boolean {
  return cf.mode !== "raw" && (cf.rawTimes?.has(name) === true || !maskRoundTrips(array, name, false));
}

/**
 * `array` CF-decoded under `cf`, masking `_FillValue` and `missing_value`
 * only, as xarray does (`lossless`: a mask that export could not undo is
 * refused; CLI README, "CF conventions"); a variable {@link keptRaw} comes
 * back as stored, marked `RAW_VARIABLE_ATTR`. A refusal that another `--cf`
 * mode avoids is `InvalidArgument` naming that mode.
 */
export function decodeFor(array: NdArray, cf: SourceCf, name: string, lossless: boolean): NdArray {
  try {
    if (keptRaw(array, cf, name))
      return array.withAttrs(new Map([...array.attrs, [RAW_VARIABLE_ATTR, attr.utf8("raw")]]));
    const options = { ...cfModeOptions(cf.mode), defaultFill: false, validRange: cf.validRange, lossless, name };
    return cfDecode(array, options);
  } catch (err) {
    const hint = cfHint(err);
    if (hint === undefined) throw err;
    throw new CliError("InvalidArgument", `${(err as Error).message} (${hint})`, { variable: name, cause: err });
  }
}

/**
 * The type a variable of stored `type` with `attrs` has after decoding
 * under `cf` (the decoding of an empty array of it, so the rule lives in
 * cfDecode alone); undefined for values that are not numbers, which are
 * not planned.
 */
export function decodedType(type: DataType, attrs: Attrs, cf: SourceCf, name: string): DataType | undefined {
  if (!DataType.isInt(type) && !DataType.isFloat(type)) return undefined;
  return decodeFor(emptyOf(type, attrs, name), cf, name, false).type;
}

/** An empty array of `type` with `attrs`: what a rule that reads only the type and attributes is asked with. */
export function emptyOf(type: DataType, attrs: Attrs, name: string): NdArray {
  return new NdArray(toVector([], type), [{ name, size: 0 }], attrs);
}

/** Target types: per variable, and per attribute key (`<variable>/<key>`, `/<key>` for globals; a List when any file has a list). */
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
 * Plans types over all files. Attributes that disagree in a way no casting
 * resolves (text in one file, numbers in another; a text attribute that is
 * a list in one file and one string in another) are `InvalidArgument`
 * naming the attribute and each file's type, in every casting mode. With
 * casting `no` nothing else is planned (types must match; the writer says
 * where they do not). Otherwise each variable and numeric attribute gets
 * the promotion of its types over all files (a number in one file and a
 * list in another become a list: netCDF attributes are all lists);
 * `InvalidArgument` names a variable whose types have no common type.
 */
export function planTypes(files: readonly PlanInput[], casting: string): TypePlan {
  const values = new Map<string, DataType>();
  const attrs = new Map<string, DataType>();
  const seen = attrsOverFiles(files);
  for (const [key, uses] of seen) refuseDisagreement(key, uses);
  if (casting === "no") return { values, attrs };
  const merge = (into: Map<string, DataType>, key: string, type: DataType, where: string): void => {
    const before = into.get(key);
    if (before === undefined) into.set(key, type);
    else if (!sameType(before, type)) {
      try {
        into.set(key, promoteTypes(before, type));
      } catch (cause) {
        throw new CliError(
          "InvalidArgument",
          `${where}: types ${String(before)} and ${String(type)} have no common type`,
          { cause },
        );
      }
    }
  };
  for (const file of files) {
    for (const v of file.variables) {
      const type = file.typeAfterCf(v.name);
      if (type !== undefined) merge(values, v.name, type, `${file.path}: variable "${v.name}"`);
    }
  }
  for (const [key, uses] of seen) {
    if (!uses.every((u) => isNumber(u.attr.itemType))) continue;
    const items = new Map<string, DataType>();
    for (const u of uses) merge(items, key, u.attr.itemType, `${u.path}: attribute ${key}`);
    const item = items.get(key)!;
    const list = uses.some((u) => u.attr.isList);
    attrs.set(key, list ? new List(new Field("item", item, true)) : item);
  }
  return { values, attrs };
}

/** One file's attribute under a plan key (`<variable>/<key>`, `/<key>` for globals). */
interface AttrUse {
  readonly path: string;
  readonly attr: Attr;
}

/** Every attribute of every file by its plan key. */
function attrsOverFiles(files: readonly PlanInput[]): Map<string, AttrUse[]> {
  const seen = new Map<string, AttrUse[]>();
  const add = (prefix: string, list: ReadonlyMap<string, Attr>, path: string): void => {
    for (const [key, attr] of list) {
      const planKey = `${prefix}/${key}`;
      const uses = seen.get(planKey) ?? [];
      uses.push({ path, attr });
      seen.set(planKey, uses);
    }
  };
  for (const file of files) {
    for (const v of file.variables) add(v.name, v.attrs, file.path);
    add("", file.globalAttrs, file.path);
  }
  return seen;
}

function isNumber(type: DataType): boolean {
  return type.typeId === Type.Int || type.typeId === Type.Float;
}

/** `InvalidArgument` when the uses of one attribute disagree beyond what casting joins (numbers join). */
function refuseDisagreement(key: string, uses: readonly AttrUse[]): void {
  const first = uses[0]!.attr;
  const joins = (a: Attr): boolean =>
    isNumber(first.itemType) ? isNumber(a.itemType) : sameType(a.itemType, first.itemType) && a.isList === first.isList;
  if (uses.every((u) => joins(u.attr))) return;
  const described = uses.map((u) => `${String(u.attr.type)} in ${u.path}`).join(", ");
  const [variable, name] = [key.slice(0, key.indexOf("/")), key.slice(key.indexOf("/") + 1)];
  const what = variable === "" ? `global attribute "${name}"` : `attribute "${name}" of variable "${variable}"`;
  throw new CliError(
    "InvalidArgument",
    `${what} has types that no casting joins: ${described} (make them agree, or import the files into separate tables)`,
  );
}

/** A row of stored values (from either reader) with its arrays CF-decoded under `cf`, then cast to the plan. */
export function applyPlan(row: NdRecordBatch, plan: TypePlan, cf: SourceCf, casting: string): NdRecordBatch {
  const rule = casting === "promote" ? "safe" : (casting as "safe" | "same_kind");
  const arrays = row.arrays().map(([name, array]) => {
    let out = decodeFor(array, cf, name, true);
    const target = plan.values.get(name);
    if (target !== undefined && !sameType(out.type, target)) out = castToPlan(out, target, rule);
    if (plan.attrs.size > 0) out = out.withAttrs(castAttrs(out.attrs, name, plan));
    return [name, out] as const;
  });
  return row
    .withArrays(arrays)
    .withGlobalAttrs(plan.attrs.size > 0 ? castAttrs(row.globalAttrs, "", plan) : row.globalAttrs);
}

/**
 * `array` cast to the plan's `target`, its stored type recorded
 * (`STORED_DTYPE_ATTR`, unless decoding recorded it) so that export casts
 * it back (`cfEncode`).
 */
function castToPlan(array: NdArray, target: DataType, rule: "safe" | "same_kind"): NdArray {
  const cast = array.withValues(castVector(array.values, target, rule));
  const stored = dtypeOf(array.type);
  if (stored === undefined || array.attrs.has(STORED_DTYPE_ATTR)) return cast;
  return cast.withAttrs(new Map([...cast.attrs, [STORED_DTYPE_ATTR, attr.utf8(stored)]]));
}

/**
 * Attributes cast to the plan: numbers promoted, one number made a list
 * where another file has a list; the types changed are recorded for export
 * (`recordAttrTypes`).
 */
function castAttrs(list: ReadonlyMap<string, Attr>, prefix: string, plan: TypePlan): ReadonlyMap<string, Attr> {
  return recordAttrTypes(list, promotedAttrs(list, prefix, plan));
}

/** Attributes cast to the plan. */
function promotedAttrs(list: ReadonlyMap<string, Attr>, prefix: string, plan: TypePlan): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const [key, a] of list) {
    const target = plan.attrs.get(`${prefix}/${key}`);
    if (target === undefined || sameType(target, a.type)) {
      out.set(key, a);
      continue;
    }
    const list = target.typeId === Type.List;
    const item = list ? (target as List).valueType : target;
    const value = sameType(item, a.itemType) ? a.value : castAttrValue(a.value, item);
    out.set(key, new Attr(list ? new List(new Field("item", item, true)) : item, value));
  }
  return out;
}
