/**
 * The viewer's API: JSON about the table, Arrow IPC of coordinates and
 * windows. Every answer is computed from the one table the server serves;
 * a bad request is a 400 with a JSON error naming what is wrong.
 */
import { InvalidArgumentError } from "commander";
import pLimit from "p-limit";
import { RecordBatchStreamWriter } from "apache-arrow";
import { NdRecordBatch, encode } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";
import type { NdTable } from "lance-nd";
import { parseIntAssignments } from "../args/assignments.js";
import { openTable, type TableFlags } from "../args/open-table.js";
import { CliError } from "../errors.js";
import type { Answer } from "../http/send.js";
import { printJson } from "../io.js";
import { isUserError, oneLine } from "../report.js";
import { matchingDatasets, readCatalog } from "./catalog.js";
import type { TableSummary } from "./catalog.js";
import { openDatasetView } from "./dataset-view.js";
import type { DatasetView } from "./dataset-view.js";
import { readWindow } from "./read-window.js";

/**
 * How many window reads run at once (CLI README, "view"): the others wait,
 * so the server's memory follows this number, not the number of requests a
 * page (or several) sends together. Each read holds one row of the table at
 * a time (read-window.ts).
 */
const WINDOW_READS_AT_ONCE = 2;

/** The media type of the Arrow IPC stream format. */
const ARROW_STREAM_TYPE = "application/vnd.apache.arrow.stream";

/** Table handles kept (one per version asked for). */
const CACHED_TABLES = 8;
/** Table summaries kept (one per version). */
const CACHED_CATALOGS = 4;
/** Open datasets kept (one pinned `dataset` view per version and id, with its summary and coordinates). */
const CACHED_DATASETS = 64;

/**
 * The promise kept under `key` in `cache`, or a new one from `make`, kept
 * unless it fails; the oldest entry goes when the cache holds `limit`.
 */
function cached<T>(cache: Map<string, Promise<T>>, key: string, limit: number, make: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= limit) cache.delete(cache.keys().next().value!);
    value = make();
    cache.set(key, value);
    value.catch(() => cache.delete(key));
  }
  return value;
}

/**
 * The API of one table. `answer(route, query)` serves `/api/<route>`:
 * - `table?version=n`: the {@link TableSummary} as JSON;
 * - `dataset?dataset=id&version=n`: the dataset's summary (dims, variables) as JSON;
 * - `datasets?where=sql&version=n`: `{ ids }`, the datasets with a row that the filter selects;
 * - `coords?dataset=id&names=a,b&version=n`: those of its coordinate variables, as Arrow IPC (one nd row);
 * - `window?dataset=id&variable=v&isel=dim=i,...&step=n&version=n`: the 2-D window as Arrow IPC, every
 *   `step`-th cell (default 1) along both dims; one of more than `MAX_WINDOW_CELLS` cells is a 400.
 * `dataset` absent means the rows without an `id`.
 */
export class ViewApi {
  readonly #uri: string;
  readonly #flags: Omit<TableFlags, "version">;
  readonly #tables = new Map<string, Promise<NdTable>>();
  readonly #catalogs = new Map<string, Promise<TableSummary>>();
  readonly #datasets = new Map<string, Promise<DatasetView>>();
  readonly #windowTurns = pLimit(WINDOW_READS_AT_ONCE);

  /** The API of the table at `uri`, on `flags.branch` (default main), reached with `flags.storageOption`. */
  constructor(uri: string, flags: Omit<TableFlags, "version"> = {}) {
    this.#uri = uri;
    this.#flags = flags;
  }

  /** Opens the table once, so a bad uri fails before the server starts. */
  async open(): Promise<void> {
    await this.#table(undefined);
  }

  /** The answer to `GET /api/<route>?<query>`; never throws. */
  async answer(route: string, query: URLSearchParams): Promise<Answer> {
    try {
      const table = await this.#table(parseVersionParam(query.get("version")));
      switch (route) {
        case "table":
          return json(200, await this.#catalog(table));
        case "dataset":
          return json(200, (await this.#dataset(table, query.get("dataset"))).summary);
        case "datasets":
          return json(200, { ids: await matchingDatasets(table, required(query, "where")) });
        case "coords": {
          const names = new Set(required(query, "names").split(","));
          const view = await this.#dataset(table, query.get("dataset"));
          const isCoord = (name: string) =>
            view.summary.variables.some((v) => v.name === name && v.dims.length === 1 && v.dims[0] === name);
          const coordNames = view.summary.dims.map((d) => d.name).filter((name) => names.has(name) && isCoord(name));
          const coords = await Promise.all(
            coordNames.map(async (name): Promise<[string, NdArray]> => [name, await view.coord(name)]),
          );
          return arrow(new NdRecordBatch(coords));
        }
        case "window": {
          const isel = parseIsel(query.get("isel") ?? "");
          const variable = required(query, "variable");
          const step = parseStep(query.get("step"));
          const view = await this.#dataset(table, query.get("dataset"));
          return arrow(await this.#windowTurns(() => readWindow(view.ds, variable, isel, step)));
        }
        default:
          return error(404, "NotFound", `no API route "${route}" (routes: table, dataset, datasets, coords, window)`);
      }
    } catch (err) {
      if (isUserError(err)) return error(400, (err as { code: string }).code, oneLine((err as Error).message));
      process.stderr.write(
        `lance-nd view: unexpected error on /api/${route}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      return error(500, "Internal", "the server failed to answer (see its terminal)");
    }
  }

  /** The table at `version` (undefined: the latest when the server started); a failed open (a version that does not exist) is not kept. */
  #table(version: number | undefined): Promise<NdTable> {
    return cached(this.#tables, String(version ?? "latest"), CACHED_TABLES, () =>
      openTable(this.#uri, { ...this.#flags, version }),
    );
  }

  async #catalog(table: NdTable): Promise<TableSummary> {
    const version = await table.version();
    return cached(this.#catalogs, String(version), CACHED_CATALOGS, () => readCatalog(table, this.#uri));
  }

  /** Dataset `id` of `table`'s version, opened once; `InvalidArgument` when it has none of that id. */
  async #dataset(table: NdTable, id: string | null): Promise<DatasetView> {
    const catalog = await this.#catalog(table);
    const entry = catalog.datasets.find((d) => d.id === id);
    if (entry === undefined)
      throw new CliError(
        "InvalidArgument",
        `no dataset ${id === null ? "without an id" : JSON.stringify(id)} in the table`,
      );
    return cached(this.#datasets, `${catalog.version}\u0000${id}`, CACHED_DATASETS, () =>
      openDatasetView(table, entry),
    );
  }
}

/** A JSON answer (bigints as decimal strings, non-finite numbers as strings, as `--json` prints them). */
function json(status: number, value: unknown): Answer {
  let body = "";
  printJson({ write: (text) => (body += String(text)) }, value, false);
  return { status, type: "application/json; charset=utf-8", body };
}

/** A JSON error answer: `{ error: { code, message } }`. */
export function error(status: number, code: string, message: string): Answer {
  return json(status, { error: { code, message } });
}

async function arrow(batch: NdRecordBatch): Promise<Answer> {
  const writer = new RecordBatchStreamWriter();
  writer.write(encode([batch]));
  writer.finish();
  return { status: 200, type: ARROW_STREAM_TYPE, body: await writer.toUint8Array() };
}

function required(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === "") throw new CliError("InvalidArgument", `the query parameter "${name}" is missing`);
  return value;
}

function parseVersionParam(text: string | null): number | undefined {
  if (text === null || text === "") return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new CliError("InvalidArgument", `version=${text}: expected an integer >= 1`);
  return Number(text);
}

/** The `step` of a window: an integer >= 1, 1 when absent. */
function parseStep(text: string | null): number {
  if (text === null || text === "") return 1;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new CliError("InvalidArgument", `step=${text}: expected an integer >= 1`);
  return Number(text);
}

function parseIsel(text: string): Map<string, number> {
  if (text === "") return new Map();
  try {
    return parseIntAssignments(text, 0);
  } catch (cause) {
    if (cause instanceof InvalidArgumentError)
      throw new CliError("InvalidArgument", `isel=${text}: ${cause.message}`, { cause });
    throw cause;
  }
}
