/**
 * Opening the inputs of an import at the part `--isel`, `--sel` and
 * `--project` take (import-selection.ts). Without `--concat`, and along the
 * other dims, each input is selected on its own. Along the dim of
 * `--concat`, the region is one of the concatenated files, as
 * `xr.concat(files, dim).isel(...)` / `.sel(...)`: `--isel` counts the
 * cells of the files in the order of the coordinate, and a file the
 * region takes nothing of is left out (CLI README, "Many files, one
 * dataset").
 */
import { planConcat } from "lance-nd";
import { CliError } from "../errors.js";
import type { GroupDataset } from "./group-datasets.js";
import type { ImportSource } from "./import-source.js";
import { EmptySelection, type ImportSelection } from "./import-selection.js";

/** Opens one input at a selection. */
export type OpenInput = (dataset: GroupDataset, selection: ImportSelection) => Promise<ImportSource>;

/** The inputs an import reads, and those a `--concat` region leaves out (their paths). */
export interface OpenedInputs {
  readonly files: ImportSource[];
  readonly leftOut: string[];
}

/**
 * `datasets` opened by `open` at `selection`, the region along `concat`
 * (when given) taken of the files as one dataset. What `open` throws
 * passes through, the inputs opened so far closed; a region along
 * `concat` that takes nothing of any file is `InvalidArgument`.
 */
export async function openInputs(
  datasets: readonly GroupDataset[],
  selection: ImportSelection,
  concat: string | undefined,
  open: OpenInput,
): Promise<OpenedInputs> {
  const files: ImportSource[] = [];
  const leftOut: string[] = [];
  try {
    const isel = concat === undefined ? undefined : selection.isel?.get(concat);
    if (typeof isel === "number")
      throw invalid(`--isel ${concat}=${isel} along --concat ${concat}: give a range (${concat}=${isel}:${isel + 1})`);
    const value = concat === undefined ? undefined : selection.sel?.get(concat);
    if (value !== undefined && !Array.isArray(value))
      throw invalid(`--sel ${concat}=${String(value)} along --concat ${concat}: give a slice (${concat}=start:stop)`);
    if (concat !== undefined && Array.isArray(isel)) {
      if (selection.sel?.has(concat)) throw invalid(`--isel and --sel both select ${concat}: give one`);
      const others = new Map([...selection.isel!].filter(([dim]) => dim !== concat));
      const whole = { ...selection, isel: others };
      for (const d of datasets) files.push(await open(d, whole));
      const regions = await fileRegions(files, concat, isel);
      const byFile = new Map(files.map((file, i) => [file, datasets[i]!]));
      await closeAll(files.splice(0));
      for (const [file, region] of regions) {
        if (region === undefined) leftOut.push(file.path);
        else files.push(await open(byFile.get(file)!, { ...selection, isel: new Map([...others, [concat, region]]) }));
      }
      return { files, leftOut };
    }
    let empty: EmptySelection | undefined;
    for (const d of datasets) {
      try {
        files.push(await open(d, selection));
      } catch (err) {
        if (!(err instanceof EmptySelection) || err.dim !== concat) throw err;
        empty ??= err;
        leftOut.push(d.path);
      }
    }
    if (files.length === 0 && empty !== undefined)
      throw invalid(`the selection along "${concat}" takes nothing of any of the files (the first: ${empty.message})`);
    return { files, leftOut };
  } catch (err) {
    await closeAll(files);
    throw err;
  }
}

/**
 * The cells `[start, stop)` along `dim` of each of `files` (in the order of
 * the coordinate) that `[from, to)` of their concatenation takes
 * (negative from its end), undefined for a file it takes none of.
 */
async function fileRegions(
  files: readonly ImportSource[],
  dim: string,
  [from, to]: [number, number],
): Promise<[ImportSource, [number, number] | undefined][]> {
  let parts: Awaited<ReturnType<typeof planConcat<ImportSource>>>;
  try {
    parts = await planConcat(files, dim);
  } catch (err) {
    throw new CliError("InvalidArgument", (err as Error).message.replace(/^concat: /, ""), { cause: err });
  }
  const total = parts.reduce((n, p) => n + p.size, 0);
  const [start, stop] = [from, to].map((i) => Math.min(total, Math.max(0, i < 0 ? total + i : i))) as [number, number];
  if (stop <= start)
    throw invalid(`--isel ${dim}=${from}:${to} selects nothing (the files have ${total} cells along "${dim}")`);
  return parts.map((part) => {
    const a = Math.max(start, part.start) - part.start;
    const b = Math.min(stop, part.start + part.size) - part.start;
    return [part.source, b > a ? [a, b] : undefined];
  });
}

async function closeAll(files: readonly ImportSource[]): Promise<void> {
  await Promise.all(files.map((f) => f.close().catch(() => {})));
}

function invalid(message: string): CliError {
  return new CliError("InvalidArgument", message);
}
