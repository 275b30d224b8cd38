/** `lance-nd view`: a local web page to look at a table (see the README's `view` section). */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { Io } from "../io.js";
import { printJson, println, warn } from "../io.js";
import { type StorageOptionFlags, storageOptionFlag } from "../args/storage-options.js";
import { BRANCH_HELP } from "../args/open-table.js";
import { parsePort } from "../args/port.js";
import { failing } from "../report.js";
import { closedBySignal } from "../http/listen.js";
import { startViewServer } from "./server.js";

interface ViewOptions extends StorageOptionFlags {
  port: number;
  host: string;
  open?: boolean;
  json?: boolean;
  branch?: string;
}

/** The page's script sits in `view/` next to the bundled main.js (tsup.config.ts). */
const ASSETS_DIR = fileURLToPath(new URL("./view/", import.meta.url));

/** Registers `view` on `program`. */
export function registerView(program: Command, io: Io): void {
  program
    .command("view")
    .description(
      "look at a table in the browser: its datasets, variables, and any 2-D slice as a heatmap (a local, read-only server)",
    )
    .argument("<table>", "the table")
    .option("--port <n>", "the port (0: a free one)", parsePort, 8321)
    .option(
      "--host <address>",
      "the address to listen on (a wildcard such as 0.0.0.0 lets other machines in, with the token)",
      "127.0.0.1",
    )
    .option("--branch <name>", `${BRANCH_HELP}; the page shows its versions`)
    .addOption(storageOptionFlag())
    .option("--open", "open the page in the default browser")
    .option("--json", "print the address as JSON ({ url, port, token })")
    .addHelpText(
      "after",
      "\nExample:\n  lance-nd view lance-nd-demo/ocean.lance --port 0     # then open the address it prints; Ctrl+C stops it",
    )
    .action((uri: string, options: ViewOptions) => failing(`cannot view ${uri}`, () => view(io, uri, options)));
}

async function view(io: Io, uri: string, options: ViewOptions): Promise<void> {
  const server = await startViewServer({
    uri,
    host: options.host,
    port: options.port,
    assetsDir: ASSETS_DIR,
    ...(options.branch === undefined ? {} : { branch: options.branch }),
    ...(options.storageOption === undefined ? {} : { storageOption: options.storageOption }),
  });
  const stopped = closedBySignal(server);
  if (options.json) printJson(io.stdout, { url: server.url, port: server.port, token: server.token }, false);
  else
    println(
      io.stdout,
      `lance-nd view: ${uri}${options.branch === undefined ? "" : ` (branch ${options.branch})`} at ${server.url}  (Ctrl+C stops it)`,
    );
  if (options.open) openBrowser(io, server.url);
  await stopped;
}

function openBrowser(io: Io, url: string): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  const child = spawn(command, args as string[], { detached: true, stdio: "ignore" });
  child.on("error", (err) => warn(io, `cannot open a browser (${err.message}); open ${url}`));
  child.unref();
}
