/** `lance-nd serve`: the datasets of a table as Zarr groups over HTTP (see the README's `serve` section). */
import { InvalidArgumentError, Option } from "commander";
import type { Command } from "commander";
import { type StorageOptionFlags, storageOptionFlag } from "../args/storage-options.js";
import { BRANCH_HELP, parseVersionOrTag, VERSION_HELP } from "../args/open-table.js";
import { parsePort } from "../args/port.js";
import type { Io } from "../io.js";
import { printJson, println, warn } from "../io.js";
import { failing } from "../report.js";
import { closedBySignal } from "../http/listen.js";
import { startServeServer } from "./server.js";

interface ServeOptions extends StorageOptionFlags {
  port: number;
  host: string;
  version?: number | string;
  branch?: string;
  zarrVersion: "2" | "3";
  codec: "none" | "zlib";
  cors?: string;
  json?: boolean;
}

/** The addresses that only this machine reaches. */
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Registers `serve` on `program`. */
export function registerServe(program: Command, io: Io): void {
  program
    .command("serve")
    .description(
      "serve each dataset of a table as a Zarr group over HTTP (v2 with consolidated metadata, or v3) for xarray, zarr-python and zarrita (a local, read-only server)",
    )
    .argument("<table>", "the table")
    .option("--port <n>", "the port (0: a free one)", parsePort, 8322)
    .option(
      "--host <address>",
      "the address to listen on (another than 127.0.0.1 lets other machines in, with the token)",
      "127.0.0.1",
    )
    .option(
      "--version <n|tag>",
      `${VERSION_HELP}; default: the latest, pinned when the server starts`,
      parseVersionOrTag,
    )
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .addOption(new Option("--zarr-version <2|3>", "the Zarr format of the groups").choices(["2", "3"]).default("2"))
    .addOption(new Option("--codec <name>", "the chunks' compression").choices(["none", "zlib"]).default("none"))
    .option(
      "--cors <origin>",
      "let pages of this origin (e.g. http://localhost:5173) read the answers in a browser",
      parseOrigin,
    )
    .option("--json", "print the address as one line of JSON ({ url, port, token, version, zarrVersion, datasets })")
    .addHelpText(
      "after",
      [
        "",
        "URLs (<base> is the first line printed):",
        "  <base><id>/                 dataset <id> of the served version",
        "  <base>@v<N>/<id>/           the dataset at version N of the served branch",
        "  <base>@tag/<name>/<id>/     the dataset at the version a tag names",
        "  <base>@branch/<name>/<id>/  the dataset at the latest version of a branch (pinned until ?refresh)",
        "",
        "Example:",
        "  lance-nd serve lance-nd-demo/ocean.lance --port 0     # prints the URL; then xr.open_zarr(URL + dataset id); Ctrl+C stops it",
      ].join("\n"),
    )
    .action((uri: string, options: ServeOptions) => failing(`cannot serve ${uri}`, () => serve(io, uri, options)));
}

async function serve(io: Io, uri: string, options: ServeOptions): Promise<void> {
  const zarrVersion = options.zarrVersion === "3" ? 3 : 2;
  const server = await startServeServer({
    uri,
    host: options.host,
    port: options.port,
    store: { zarrVersion, codec: options.codec },
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(options.branch === undefined ? {} : { branch: options.branch }),
    ...(options.cors === undefined ? {} : { cors: options.cors }),
    ...(options.storageOption === undefined ? {} : { storageOption: options.storageOption }),
    io,
  });
  const stopped = closedBySignal(server);
  const { url, port, token, version, datasets } = server;
  if (options.json) printJson(io.stdout, { url, port, token, version, zarrVersion, datasets }, false);
  else println(io.stdout, url);
  if (!LOOPBACK.has(options.host))
    warn(io, `listening on ${options.host}: other machines can read the table (with the token in the URL)`);
  println(io.stderr, `lance-nd serve: ${uri} version ${version} as Zarr v${zarrVersion} (Ctrl+C stops it)`);
  for (const dataset of datasets) println(io.stderr, `  ${dataset.id}: ${dataset.url}`);
  await stopped;
}

/** A `--cors` value: an http(s) origin as browsers send it (scheme, host, port; no path or trailing slash). */
function parseOrigin(text: string): string {
  let origin: string | undefined;
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") origin = url.origin;
  } catch {
    // not a URL: refused below
  }
  if (origin !== text)
    throw new InvalidArgumentError("expected an origin such as http://localhost:5173 (scheme, host and port, no path)");
  return text;
}
