/** The encoding defaults of new columns, stored in the table schema metadata. */
import { columnDefaultsMetadata, parseColumnOptions, type ColumnOptions } from "@lance-nd/format";
import { addSchemaMetadata } from "../lance/table-write.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { checkTable, checkWritable } from "../table-check.js";

/**
 * The encoding options that each new column of `table` gets (the latest
 * generation of the column defaults; FORMAT.md of @lance-nd/format).
 *
 * @example
 * await columnDefaults(table); // { compression: { codec: "zstd", level: 3 } }
 */
export async function columnDefaults(table: NdTable): Promise<ColumnOptions> {
  checkTable(table, "columnDefaults");
  return (await table.refresh()).columnDefaults;
}

/**
 * Makes `options` the encoding defaults of the columns that later writes
 * add (the whole defaults: an option left out is no longer a default).
 * Existing columns keep their encoding. Lance cannot change a schema
 * metadata key, so a change adds a new generation of keys in one commit.
 * Returns the table version (unchanged when the defaults are already these).
 *
 * @throws LanceNdError `InvalidInput` for bad options or a read-only view.
 * @example
 * await setColumnDefaults(table, { compression: "lz4", bss: "auto" });
 */
export async function setColumnDefaults(table: NdTable, options: ColumnOptions): Promise<number> {
  checkWritable(table, "setColumnDefaults");
  const parsed = withPureErrors({ uri: table.uri }, () => parseColumnOptions(options, "columnDefaults"));
  await table.refresh();
  const added = withPureErrors({ uri: table.uri }, () => columnDefaultsMetadata(parsed, table.tableSchema.metadata));
  const version = await addSchemaMetadata(table.lance, Object.fromEntries(added));
  await table.refresh();
  return version;
}
