/**
 * `lance-nd import --concat <dim>`: the files as the rows of one dataset
 * along `<dim>` (CLI README, "Many files, one dataset"), placed by lance-nd's
 * `planConcat`. A create orders the files; an append places them after the
 * dataset's last file; a replace puts each file in the place of the rows of
 * the file of the same name (the `_SourceFile` global attribute), or in the
 * gap its rows left when they were removed (by `check --repair`).
 */
import { basename } from "node:path";
import { SOURCE_FILE_ATTR, col, dataset, planConcat, scan } from "lance-nd";
import type { ConcatPart, ConcatSource, Dataset, Expr, NdTable } from "lance-nd";
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import { CliError } from "../errors.js";
import { checkConcatFiles } from "./import-concat-checks.js";
import type { ImportSource } from "./import-source.js";

/** Where the files of a `--concat` import go, and (a replace) which rows they replace. */
export interface ConcatImport {
  /** The files in order along the dim, each with its start. */
  readonly parts: ConcatPart<ImportSource>[];
  /** A replace: the rows of the files given (their id and `_SourceFile`). */
  readonly replaced: Expr | undefined;
}

/** A file of the dataset already in the table: its name, place along the dim and first and last coordinate values. */
interface StoredFile {
  readonly name: string;
  start: number;
  end: number;
  first: number;
  last: number;
}

/**
 * Plans a `--concat` import of `files` as the dataset `id` along `dim`:
 * into a new table (`table` undefined, or an id it lacks) in coordinate
 * order; after the id's last file (append; a file name it has already is
 * refused); or each in the place of its namesake, or of a gap between the
 * files where its rows were removed (replace: same size along the dim,
 * between its neighbours' coordinates). The files must agree as
 * `checkConcatFiles` says (no two of one name, the same variables, equal
 * variables without the dim). Throws `InvalidArgument`.
 */
export async function planConcatImport(
  files: readonly ImportSource[],
  dim: string,
  id: string,
  mode: "create" | "append" | "overwrite" | "replace",
  table: NdTable | undefined,
): Promise<ConcatImport> {
  await checkConcatFiles(files, dim);
  const idIs = col("__global_attrs__.id").eq(id);
  const stored = table === undefined ? undefined : await storedDataset(table, idIs, dim);
  if (stored === undefined || mode === "create" || mode === "overwrite") {
    if (mode === "replace") throw invalid(`${table!.uri} has no rows with id "${id}" to replace; use --mode append`);
    return { parts: await concat(files, dim), replaced: undefined };
  }
  const byName = new Map(stored.files.map((f) => [f.name, f]));
  const names = files.map((f) => basename(f.path));
  if (mode === "append") {
    const present = names.filter((name) => byName.has(name));
    if (present.length > 0) {
      throw invalid(
        `the dataset "${id}" has the file ${present.map((n) => `"${n}"`).join(", ")} already; use --mode replace to replace its rows`,
      );
    }
    return { parts: await concat(files, dim, datasetSource(stored.dataset, table!.uri)), replaced: undefined };
  }
  const parts: ConcatPart<ImportSource>[] = [];
  for (const [i, file] of files.entries()) {
    const [part] = await concat([file], dim);
    const old = byName.get(names[i]!) ?? gapFor(stored.files, part!);
    if (old === undefined) {
      throw invalid(
        `the dataset "${id}" has no file "${names[i]}" to replace (it has ${[...byName.keys()].join(", ")}) and no gap it fits; use --mode append`,
      );
    }
    if (part!.size !== old.end - old.start) {
      throw invalid(
        `${file.path} has ${part!.size} steps along "${dim}"; the rows it replaces have ${old.end - old.start}`,
      );
    }
    const k = stored.files.findIndex((f) => f.start >= old.end);
    const lower = stored.files.filter((f) => f.end <= old.start).at(-1)?.last ?? -Infinity;
    const upper = k < 0 ? Infinity : stored.files[k]!.first;
    if (!(part!.first > lower && part!.last < upper)) {
      throw invalid(`${file.path}: its "${dim}" reaches into the files next to the one it replaces`);
    }
    parts.push({ ...part!, start: old.start });
  }
  const replaced = idIs.and(col(`__global_attrs__.${SOURCE_FILE_ATTR}`).isIn(names));
  return { parts, replaced };
}

/** `planConcat`, its `InvalidInput` as the CLI's `InvalidArgument`. */
async function concat(
  files: readonly ImportSource[],
  dim: string,
  after?: ConcatSource,
): Promise<ConcatPart<ImportSource>[]> {
  try {
    return await planConcat(files, dim, after);
  } catch (err) {
    throw new CliError("InvalidArgument", (err as Error).message.replace(/^concat: /, ""), { cause: err });
  }
}

/**
 * The gap between stored files (sorted by start) where the rows of a file
 * of `part`'s size and coordinates were removed, as the place it goes.
 */
function gapFor(files: readonly StoredFile[], part: ConcatPart<ImportSource>): StoredFile | undefined {
  for (let k = 0; k < files.length; k++) {
    const start = k === 0 ? 0 : files[k - 1]!.end;
    const below = k === 0 ? -Infinity : files[k - 1]!.last;
    if (files[k]!.start - start === part.size && part.first > below && part.last < files[k]!.first)
      return { name: "", start, end: files[k]!.start, first: part.first, last: part.last };
  }
  return undefined;
}

/**
 * The dataset `id` in the table, with its files (from the rows' `chunk_offset`
 * and their pieces of the `dim` coordinate: no read of the whole
 * coordinate, which rows removed by a repair may interrupt), or undefined
 * when the table has no rows of it.
 */
async function storedDataset(
  table: NdTable,
  idIs: Expr,
  dim: string,
): Promise<{ dataset: Dataset; files: StoredFile[] } | undefined> {
  await table.refresh();
  const byName = new Map<string, StoredFile>();
  let any = false;
  let d = -1;
  let ds: Dataset | undefined;
  const project = table.layout.arrays.has(dim) ? [dim] : [];
  for await (const row of scan(table).project(project).filterExpr(idIs)) {
    any = true;
    ds ??= await dataset(table, { where: idIs });
    d = ds.dims.findIndex((x) => x.name === dim);
    if (d < 0) throw invalid(`the dataset in ${table.uri} has no dim "${dim}"`);
    const name = row.globalAttr(SOURCE_FILE_ATTR);
    const offset = row.globalAttrs.get(CHUNK_OFFSET);
    if (typeof name !== "string" || offset === undefined) {
      throw invalid(`the rows of this id in ${table.uri} were not imported with --concat (they name no source file)`);
    }
    const start = Number((offset.value as { get(i: number): unknown }).get(d));
    const values = row.get(dim)?.values;
    const end = start + (values?.length ?? ds.dims[d]!.size);
    const first = Number(values?.get(0) ?? Number.NaN);
    const last = Number(values?.get(values.length - 1) ?? Number.NaN);
    const file = byName.get(name);
    if (file === undefined) byName.set(name, { name, start, end, first, last });
    else {
      if (start < file.start) [file.start, file.first] = [start, first];
      if (end > file.end) [file.end, file.last] = [end, last];
    }
  }
  if (!any || ds === undefined) return undefined;
  return { dataset: ds, files: [...byName.values()].sort((a, b) => a.start - b.start) };
}

/** A stored dataset as a `planConcat` source: its coordinates, named by the table. */
function datasetSource(ds: Dataset, uri: string): ConcatSource {
  const sizes = new Map(ds.dims.map((d) => [d.name, d.size]));
  return {
    path: uri,
    variables: ds.variables.map((v) => ({
      name: v.name,
      dims: v.dims.map((name) => ({ name, size: sizes.get(name)! })),
    })),
    read: (name) => ds.coord(name),
  };
}

function invalid(message: string): CliError {
  return new CliError("InvalidArgument", message);
}
