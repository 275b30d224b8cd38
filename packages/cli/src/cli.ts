/**
 * The `lance-nd` executable (dist/cli.js). lancedb sets up its Rust logger
 * from LANCEDB_LOG when it loads, and its default level prints warnings
 * meant for developers (e.g. "No existing dataset ... it will be created"),
 * so the level is set before the program (dist/main.js) is imported.
 * LANCEDB_LOG=debug still works for a user who wants the logs. An import
 * runs itself again once with MALLOC_ARENA_MAX set, as a child that dies
 * with this process (malloc-arenas.ts).
 */
import { dieWithParent, runWithArenaLimit, wantsArenaLimit } from "./malloc-arenas.js";

process.env.LANCEDB_LOG ??= "error";
if (wantsArenaLimit(process.argv.slice(2))) runWithArenaLimit();
else {
  dieWithParent();
  await import("./main.js");
}
