/**
 * Reading a store's metadata (README "Reading"): the root group's
 * attributes, its child arrays and the groups nested under it, from
 * consolidated metadata when the store has it (`.zmetadata` in v2,
 * `consolidated_metadata` in v3) and from the directory otherwise, or the
 * one array a single-array store holds. Each array's v2 metadata is turned
 * into the v3 form zarrita reads.
 */
import { Bool, Type, util } from "apache-arrow";
import type { ArrayMetadata, CodecMetadata, DataType as ZarritaType } from "zarrita";
import { checkedBlosc } from "./blosc-check.js";
import { fromV2Dtype, fromV3DataType } from "./data-type.js";
import type { ZarrType } from "./data-type.js";
import { parseZarrJson } from "./json-text.js";
import type { StoreFiles } from "./store-files.js";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** One array of a store, as read from its metadata. */
export interface ArrayNode {
  /** The array's name (its key in the group; a single-array store's name). */
  readonly name: string;
  /** Its key prefix under the store root (`""` for a single-array store). */
  readonly key: string;
  /** 2 or 3. */
  readonly format: 2 | 3;
  /** The data type and its nd-arrow counterpart. */
  readonly type: ZarrType;
  readonly shape: readonly number[];
  /** Dim names: `_ARRAY_DIMENSIONS` (v2), `dimension_names` (v3), else `dim_<i>`. */
  readonly dimNames: readonly string[];
  /** The attributes as stored (JSON), without `_ARRAY_DIMENSIONS`. */
  readonly attrs: Readonly<Record<string, unknown>>;
  /** The chunk shape (the inner chunks of a sharded array). */
  readonly chunkShape: readonly number[];
  /** The shard shape of a sharded array. */
  readonly shardShape: readonly number[] | undefined;
  /** The fill value as stored (v2 `fill_value`, v3 `fill_value`). */
  readonly fillValue: unknown;
  /** @internal The metadata zarrita reads the array with (v3 form, reading type). */
  readonly zarrita: ArrayMetadata;
}

/** A store's root: its group attributes and arrays. */
export interface StoreNodes {
  readonly format: 2 | 3;
  /** Root group attributes (empty for a single-array store). */
  readonly groupAttrs: Readonly<Record<string, unknown>>;
  readonly arrays: readonly ArrayNode[];
  /** True when the children came from consolidated metadata. */
  readonly consolidated: boolean;
  /** The groups nested under the root, at any depth (`"surface"`, `"model/run1"`), sorted. */
  readonly groups: readonly string[];
}

type Json = Record<string, unknown>;

/**
 * The nodes of the store in `files`. `NotFound` when the root holds no
 * Zarr metadata; `InvalidStore` for metadata that is not Zarr;
 * `UnsupportedType` for an array whose type nd-arrow cannot hold.
 */
export async function readNodes(files: StoreFiles, path: string, singleName: string): Promise<StoreNodes> {
  const json = async (key: string): Promise<Json | undefined> => {
    const bytes = await files.read(key);
    if (bytes === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = parseZarrJson(new TextDecoder().decode(bytes), key.endsWith(".zattrs"));
    } catch (cause) {
      throw new ZarrError("InvalidStore", `"${key}" is not valid JSON (${(cause as Error).message})`, { path, cause });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new ZarrError("InvalidStore", `"${key}" is not a JSON object`, { path });
    }
    return parsed as Json;
  };
  const v3 = await json("zarr.json");
  if (v3 !== undefined) {
    if (v3.node_type === "array")
      return {
        format: 3,
        groupAttrs: {},
        arrays: [v3Array(singleName, "", v3, path)],
        consolidated: false,
        groups: [],
      };
    if (v3.node_type !== "group")
      throw new ZarrError("InvalidStore", `zarr.json has node_type ${JSON.stringify(v3.node_type)}`, { path });
    const inline = (v3.consolidated_metadata as { metadata?: Record<string, Json> } | null | undefined)?.metadata;
    const children = inline !== undefined ? Object.entries(inline) : await listed(files, "zarr.json", json);
    const arrays = children
      .filter(([name, meta]) => !name.includes("/") && meta.node_type === "array")
      .map(([name, meta]) => v3Array(name, name, meta, path));
    const groups =
      inline !== undefined
        ? children.filter(([, meta]) => meta.node_type === "group").map(([name]) => name)
        : await groupsUnder(files, async (key) => (await json(`${key}/zarr.json`))?.node_type === "group");
    return {
      format: 3,
      groupAttrs: objectOr(v3.attributes),
      arrays,
      consolidated: inline !== undefined,
      groups: groups.sort(),
    };
  }
  const zarray = await json(".zarray");
  if (zarray !== undefined) {
    return {
      format: 2,
      groupAttrs: {},
      arrays: [v2Array(singleName, "", zarray, (await json(".zattrs")) ?? {}, path)],
      consolidated: false,
      groups: [],
    };
  }
  if ((await json(".zgroup")) === undefined) {
    throw new ZarrError("NotFound", "no Zarr metadata (zarr.json, .zgroup or .zarray) at the root of the store", {
      path,
    });
  }
  const consolidated = (await json(".zmetadata"))?.metadata as Record<string, Json> | undefined;
  const meta = consolidated === undefined ? undefined : new Map(Object.entries(consolidated));
  const names =
    meta === undefined
      ? (await listed(files, ".zarray", json)).map(([name]) => name)
      : [...meta.keys()].filter((k) => /^[^/]+\/\.zarray$/.test(k)).map((k) => k.slice(0, -".zarray".length - 1));
  const arrays: ArrayNode[] = [];
  for (const name of names.sort()) {
    const zarrayOf = meta?.get(`${name}/.zarray`) ?? (await json(`${name}/.zarray`))!;
    const zattrs = meta === undefined ? await json(`${name}/.zattrs`) : meta.get(`${name}/.zattrs`);
    arrays.push(v2Array(name, name, zarrayOf, zattrs ?? {}, path));
  }
  const groupAttrs = meta?.get(".zattrs") ?? (await json(".zattrs")) ?? {};
  const groups =
    meta === undefined
      ? await groupsUnder(files, async (key) => (await files.read(`${key}/.zgroup`)) !== undefined)
      : [...meta.keys()].filter((k) => k.endsWith("/.zgroup")).map((k) => k.slice(0, -"/.zgroup".length));
  return { format: 2, groupAttrs, arrays, consolidated: meta !== undefined, groups: groups.sort() };
}

/** The groups under directory `key` at any depth, by walking only into groups (never into arrays' chunks). */
async function groupsUnder(files: StoreFiles, isGroup: (key: string) => Promise<boolean>, key = ""): Promise<string[]> {
  const found: string[] = [];
  for (const name of await files.listDirs(key)) {
    const child = key === "" ? name : `${key}/${name}`;
    if (await isGroup(child)) found.push(child, ...(await groupsUnder(files, isGroup, child)));
  }
  return found;
}

/** The child directories that hold `file`, with its JSON. */
async function listed(
  files: StoreFiles,
  file: string,
  json: (key: string) => Promise<Json | undefined>,
): Promise<[string, Json][]> {
  const out: [string, Json][] = [];
  for (const name of await files.listDirs("")) {
    const meta = await json(`${name}/${file}`);
    if (meta !== undefined) out.push([name, meta]);
  }
  return out;
}

function v2Array(name: string, key: string, zarray: Json, zattrs: Json, path: string): ArrayNode {
  const where: ZarrErrorContext = { path, variable: name };
  const shape = intList(zarray.shape, "shape", where);
  const chunkShape = intList(zarray.chunks, "chunks", where, 1);
  if (chunkShape.length !== shape.length)
    throw new ZarrError("InvalidStore", "chunks and shape have different ranks", where);
  const filters = (Array.isArray(zarray.filters) ? zarray.filters : []) as Json[];
  const storedType = fromV2Dtype(
    zarray.dtype,
    filters.map((f) => String(f.id)),
    where,
  );
  const codecs: CodecMetadata[] = [];
  if (zarray.order === "F") codecs.push({ name: "transpose", configuration: { order: "F" } });
  for (const { id, ...configuration } of filters) codecs.push({ name: `numcodecs.${String(id)}`, configuration });
  if (storedType.endian === "big") codecs.push({ name: "bytes", configuration: { endian: "big" } });
  const compressor = zarray.compressor as Json | null | undefined;
  if (compressor) {
    const { id, ...configuration } = compressor;
    codecs.push({ name: `numcodecs.${String(id)}`, configuration });
  }
  const dims = zattrs._ARRAY_DIMENSIONS;
  const { _ARRAY_DIMENSIONS: _, ...stored } = zattrs;
  const [type, attrs] = xarrayBool(storedType, stored);
  const separator = zarray.dimension_separator === "/" ? "/" : ".";
  checkFill(type, zarray.fill_value, where);
  return {
    name,
    key,
    format: 2,
    type,
    shape,
    dimNames: dimNames(dims, shape.length, "_ARRAY_DIMENSIONS", where),
    attrs,
    chunkShape,
    shardShape: undefined,
    fillValue: zarray.fill_value,
    zarrita: zarritaMetadata(
      type,
      shape,
      chunkShape,
      { name: "v2", configuration: { separator } },
      codecs,
      zarray.fill_value,
      attrs,
    ),
  };
}

function v3Array(name: string, key: string, meta: Json, path: string): ArrayNode {
  const where: ZarrErrorContext = { path, variable: name };
  if (meta.zarr_format !== 3 || meta.node_type !== "array")
    throw new ZarrError("InvalidStore", "zarr.json is not v3 array metadata", where);
  const [type, attrs] = xarrayBool(fromV3DataType(meta.data_type, where), objectOr(meta.attributes));
  const shape = intList(meta.shape, "shape", where);
  const grid = meta.chunk_grid as { name?: unknown; configuration?: { chunk_shape?: unknown } } | undefined;
  if (grid?.name !== "regular")
    throw new ZarrError("InvalidStore", `chunk grid ${JSON.stringify(grid?.name)} is not "regular"`, where);
  const gridShape = intList(grid.configuration?.chunk_shape, "chunk_shape", where, 1);
  if (gridShape.length !== shape.length)
    throw new ZarrError("InvalidStore", "chunk_shape and shape have different ranks", where);
  const codecs = (Array.isArray(meta.codecs) ? meta.codecs : []) as CodecMetadata[];
  const sharding = codecs.find((c) => c.name === "sharding_indexed");
  const inner =
    sharding === undefined ? gridShape : intList(sharding.configuration.chunk_shape, "sharding chunk_shape", where, 1);
  checkFill(type, meta.fill_value, where);
  return {
    name,
    key,
    format: 3,
    type,
    shape,
    dimNames: dimNames(meta.dimension_names, shape.length, "dimension_names", where),
    attrs,
    chunkShape: inner,
    shardShape: sharding === undefined ? undefined : gridShape,
    fillValue: meta.fill_value,
    zarrita: zarritaMetadata(
      type,
      shape,
      gridShape,
      meta.chunk_key_encoding as ArrayMetadata["chunk_key_encoding"],
      codecs,
      meta.fill_value,
      attrs,
    ),
  };
}

/**
 * xarray stores booleans as 1-byte integers with a `dtype: "bool"` attribute
 * (and shows them as booleans even without CF decoding): the same here.
 */
function xarrayBool(type: ZarrType, attrs: Json): [ZarrType, Json] {
  if (attrs.dtype !== "bool" || (type.read !== "int8" && type.read !== "uint8")) return [type, attrs];
  const { dtype: _, ...rest } = attrs;
  return [{ ...type, arrow: new Bool(), kind: "bool" }, rest];
}

function zarritaMetadata(
  type: ZarrType,
  shape: number[],
  chunkShape: number[],
  keys: ArrayMetadata["chunk_key_encoding"],
  codecs: CodecMetadata[],
  fillValue: unknown,
  attributes: Json,
): ArrayMetadata {
  return {
    zarr_format: 3,
    node_type: "array",
    shape,
    data_type: type.read,
    chunk_grid: { name: "regular", configuration: { chunk_shape: chunkShape } },
    chunk_key_encoding: keys ?? { name: "default" },
    codecs: checkedBlosc(codecs),
    fill_value: readingFill(type.read, fillValue) as never,
    attributes,
  };
}

/** The smallest and largest value of each integer type a fill value may hold. */
const INTEGER_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** The float fill values spelled as text (Zarr v2 and v3): NaN, the infinities and v3's hex bit patterns. */
const FLOAT_FILL_TEXT = /^(NaN|Infinity|-Infinity|0x[0-9a-f]+)$/i;

/**
 * Refuses (`InvalidStore`, naming the array) a fill value its data type
 * cannot hold: an integer fill that is not an integer in the type's range
 * (300 for uint8, "NaN" for int8, "Infinity" for int16), a float fill that
 * is not a number or one of its text spellings. A time may be "NaT".
 * Missing chunks would otherwise read as some other value.
 */
function checkFill(type: ZarrType, fill: unknown, where: ZarrErrorContext): void {
  if (fill === null || fill === undefined || type.kind === "text" || type.kind === "bytes") return;
  if (type.kind === "time" && fill === "NaT") return;
  const refuse = (why: string): never => {
    throw new ZarrError("InvalidStore", `fill_value ${JSON.stringify(fill)} ${why}`, where);
  };
  if (type.kind === "bool") {
    if (typeof fill !== "boolean" && fill !== 0 && fill !== 1) refuse("is not a boolean");
    return;
  }
  const range = type.arrow.typeId === Type.Float ? undefined : INTEGER_RANGES[type.read];
  if (range !== undefined) {
    if (typeof fill !== "bigint" && !(typeof fill === "number" && Number.isInteger(fill)))
      refuse(`is not an integer, which the ${type.stored} array holds`);
    // A 64-bit fill past 2^53 reaches here as the nearest float: compared as one.
    const [low, high] = typeof fill === "bigint" ? range : [Number(range[0]), Number(range[1])];
    if ((fill as number | bigint) < low || (fill as number | bigint) > high)
      refuse(`is outside the range of ${type.stored}`);
    return;
  }
  if (typeof fill !== "number" && !(typeof fill === "string" && FLOAT_FILL_TEXT.test(fill)))
    refuse(`is not a number, which the ${type.stored} array holds`);
}

/** The fill value of a missing chunk, as zarrita's reading type holds it. */
function readingFill(read: ZarritaType, fill: unknown): unknown {
  const special: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, "-Infinity": -Infinity };
  const number = typeof fill === "string" && fill in special ? special[fill]! : fill;
  if (read === "bool") return fill === true;
  if (fill === "NaT") return -(2n ** 63n);
  if (read === "int64" || read === "uint64")
    return typeof number === "number" && Number.isSafeInteger(number) ? BigInt(number) : 0n;
  if (read === "uint16" && typeof number === "number") return util.float64ToUint16(number);
  if (read === "string" || read.startsWith("v2:")) return typeof fill === "string" ? fill : "";
  return typeof number === "number" ? number : 0;
}

/** `value` as a list of sizes of at least `least` (1 for chunk shapes: a chunk of no cells holds nothing). */
function intList(value: unknown, field: string, where: ZarrErrorContext, least = 0): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isSafeInteger(v) && v >= least)) {
    const what = least === 0 ? "a list of sizes" : `a list of sizes of at least ${least}`;
    throw new ZarrError("InvalidStore", `${field} is ${JSON.stringify(value)}, not ${what}`, where);
  }
  return value as number[];
}

function dimNames(value: unknown, rank: number, field: string, where: ZarrErrorContext): string[] {
  if (value === undefined || value === null) return Array.from({ length: rank }, (_, i) => `dim_${i}`);
  if (!Array.isArray(value) || value.length !== rank) {
    throw new ZarrError("InvalidStore", `${field} is ${JSON.stringify(value)}, expected ${rank} names`, where);
  }
  return value.map((v, i) => (typeof v === "string" && v !== "" ? v : `dim_${i}`));
}

function objectOr(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
