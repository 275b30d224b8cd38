/** `lance-nd rechunk`: another layout of a dataset, the same values in rows of a new chunk shape (lance-nd README "Layouts"). */
import { InvalidArgumentError, type Command } from "commander";
import { dropLayout, layouts, rechunk, type ChunkShape, type NdTable } from "lance-nd";
import { parseAssignments } from "../args/assignments.js";
import { storageOptionFlag } from "../args/storage-options.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { println } from "../io.js";
import { failing } from "../report.js";
import { BRANCH_HELP, openTable, type TableFlags } from "../args/open-table.js";

interface RechunkFlags extends TableFlags {
  id: string;
  chunk?: ChunkShape;
  name?: string;
  drop?: string;
  refresh?: boolean;
}

/**
 * `--chunk dim=size|all,...`: per dim a size >= 1 or `all` (the whole dim).
 *
 * @example parseChunkShape("time=all,lat=20") // { time: "all", lat: 20 }
 */
export function parseChunkShape(text: string): ChunkShape {
  const shape: Record<string, number | "all"> = {};
  for (const [dim, value] of parseAssignments(text)) {
    if (value === "all") shape[dim] = "all";
    else if (/^\d+$/.test(value) && Number(value) >= 1) shape[dim] = Number(value);
    else throw new InvalidArgumentError(`${dim}=${value}: expected an integer >= 1 or "all"`);
  }
  return shape;
}

export function registerRechunk(program: Command, io: Io): void {
  program
    .command("rechunk")
    .description(
      "write another layout of a dataset: the same values in rows of a new chunk shape, which reads take when it touches fewer bytes",
    )
    .argument("<table>", "the table")
    .requiredOption("--id <id>", "the dataset (its id global attribute)")
    .option("--chunk <dim=size|all,...>", "the new chunk shape; dims left out are whole", parseChunkShape)
    .option("--name <name>", "the layout's name (its rows get the id <id>@<name>); default: the chunk shape")
    .option("--refresh", "rewrite the layout (after the dataset changed: a stale layout is never read)")
    .option("--drop <name>", "remove layout <name> instead")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .addHelpText(
      "after",
      [
        "",
        "A layout is read only while it mirrors the dataset: after an import --mode append/replace, a --concat append,",
        "a delete or a restore of the dataset it is stale until rechunk --refresh rewrites it.",
        "",
        "Examples:",
        "  lance-nd rechunk data/waves.lance --id waves-1.nc --chunk time=all,lat=10,lon=10 --name series",
        "  lance-nd rechunk data/waves.lance --id waves-1.nc --name series --refresh",
        "  lance-nd rechunk data/waves.lance --id waves-1.nc --drop series",
      ].join("\n"),
    )
    .action((uri: string, flags: RechunkFlags) =>
      failing(`cannot rechunk ${uri}`, async () => {
        const table = await openTable(uri, flags, io);
        if (flags.drop !== undefined) {
          const rows = await dropLayout(table, flags.id, flags.drop);
          println(io.stdout, `dropped layout ${flags.drop} of ${flags.id}: ${rows} rows`);
          return;
        }
        const chunk = flags.chunk ?? (flags.refresh ? await shapeOf(table, flags) : undefined);
        if (chunk === undefined)
          throw new CliError("InvalidArgument", "rechunk needs --chunk (or --refresh, or --drop)");
        const result = await rechunk(table, {
          id: flags.id,
          chunk,
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.refresh ? { refresh: true } : {}),
        });
        println(
          io.stdout,
          `wrote layout ${result.name} of ${flags.id} (${result.chunk}): ${result.rows} rows mirroring version ${result.sourceVersion}, now version ${result.version}`,
        );
      }),
    );
}

/** The chunk shape layout `--name` of `--id` was written with, for a `--refresh` without `--chunk`. */
async function shapeOf(table: NdTable, flags: RechunkFlags): Promise<ChunkShape> {
  const name = flags.name;
  if (name === undefined) throw new CliError("InvalidArgument", "rechunk --refresh needs --name (or --chunk)");
  const found = (await layouts(table, flags.id)).find((layout) => layout.name === name);
  if (found === undefined) throw new CliError("InvalidArgument", `dataset ${flags.id} has no layout ${name}`);
  return parseChunkShape(found.chunk);
}
