/**
 * The viewer's API: JSON about the table, Arrow IPC of coordinates and
 * windows. Every answer is computed from the one table the server serves;
 * a bad request is a 400 with a JSON error naming what is wrong.
 */
import { InvalidArgumentError } from "commander";
import { RecordBatchStreamWriter } from "apache-arrow";
import { encode } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NdTable } from "lance-nd";
import { parseIntAssignments } from "../args/assignments.js";
import { openTable } from "../commands/open-table.js";
import { CliError } from "../errors.js";
import { printJson } from "../io.js";
import { isUserError, oneLine } from "../report.js";
import { matchingDatasets, readCatalog } from "./catalog.js";
import type { TableSummary } from "./catalog.js";
import { readCoordinates, readWindow } from "./read-window.js";

/** An HTTP answer: status, content type, body. */
export interface Answer {
  status: number;
  type: string;
  body: string | Uint8Array;
}

/** The media type of the Arrow IPC stream format. */
export const ARROW_STREAM_TYPE = "application/vnd.apache.arrow.stream";

/** Summaries kept per version: a catalog reads every row once. */
const CACHED_CATALOGS = 4;

/**
 * The API of one table. `answer(route, query)` serves `/api/<route>`:
 * - `table?version=n`: the {@link TableSummary} as JSON;
 * - `datasets?where=sql&version=n`: `{ ids }`, the datasets with a row that the filter selects;
 * - `coords?dataset=id&names=a,b&version=n`: the coordinate variables as Arrow IPC (one nd row);
 * - `window?dataset=id&variable=v&isel=dim=i,...&version=n`: the 2-D window as Arrow IPC.
 * `dataset` absent means the rows without an `id`.
 */
export class ViewApi {
  readonly #uri: string;
  readonly #tables = new Map<number | undefined, Promise<NdTable>>();
  readonly #catalogs = new Map<number, Promise<TableSummary>>();

  constructor(uri: string) {
    this.#uri = uri;
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
        case "datasets": {
          const where = required(query, "where");
          const catalog = await this.#catalog(table);
          const smallest = catalog.datasets[0]?.variables.find((v) => v.dims.length === 1 && v.dims[0] === v.name)?.name;
          return json(200, { ids: await matchingDatasets(table, where, smallest) });
        }
        case "coords": {
          const names = required(query, "names").split(",").filter((n) => n !== "");
          return arrow(await readCoordinates(table, query.get("dataset"), names));
        }
        case "window": {
          const isel = parseIsel(query.get("isel") ?? "");
          const id = query.get("dataset");
          const variable = required(query, "variable");
          const dataset = (await this.#catalog(table)).datasets.find((d) => d.id === id);
          return arrow(await readWindow(table, dataset, { dataset: id, variable, isel }));
        }
        default:
          return error(404, "NotFound", `no API route "${route}" (routes: table, datasets, coords, window)`);
      }
    } catch (err) {
      if (isUserError(err)) return error(400, (err as { code: string }).code, oneLine((err as Error).message));
      process.stderr.write(`lance-nd view: unexpected error on /api/${route}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      return error(500, "Internal", "the server failed to answer (see its terminal)");
    }
  }

  #table(version: number | undefined): Promise<NdTable> {
    let table = this.#tables.get(version);
    if (table === undefined) {
      table = openTable(this.#uri, version);
      this.#tables.set(version, table);
      // A failed open (e.g. a version that does not exist) is not kept.
      table.catch(() => this.#tables.delete(version));
    }
    return table;
  }

  async #catalog(table: NdTable): Promise<TableSummary> {
    const version = await table.version();
    let catalog = this.#catalogs.get(version);
    if (catalog === undefined) {
      if (this.#catalogs.size >= CACHED_CATALOGS) this.#catalogs.delete(this.#catalogs.keys().next().value!);
      catalog = readCatalog(table, this.#uri);
      this.#catalogs.set(version, catalog);
      catalog.catch(() => this.#catalogs.delete(version));
    }
    return catalog;
  }
}

/** A JSON answer (bigints as decimal strings, non-finite numbers as strings, as `--json` prints them). */
export function json(status: number, value: unknown): Answer {
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
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new CliError("InvalidArgument", `version=${text}: expected an integer >= 1`);
  return Number(text);
}

function parseIsel(text: string): Map<string, number> {
  if (text === "") return new Map();
  try {
    return parseIntAssignments(text, 0);
  } catch (cause) {
    if (cause instanceof InvalidArgumentError) throw new CliError("InvalidArgument", `isel=${text}: ${cause.message}`, { cause });
    throw cause;
  }
}
