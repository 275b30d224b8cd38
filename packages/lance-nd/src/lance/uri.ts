import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { LanceNdError } from "../errors.js";

/** A table uri split into what `@lancedb/lancedb` needs: `connect(dbUri)` then `openTable(tableName)`. */
export interface TableLocation {
  /** The table uri as the user gave it. */
  uri: string;
  /** The database (folder) uri: an absolute local path, or `scheme://bucket/prefix`. */
  dbUri: string;
  /** The table name: the last path segment without `.lance`. */
  tableName: string;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;

/**
 * Splits a table uri into database uri and table name.
 *
 * The uri names the table itself: `data/arrays.lance`, `/abs/t.lance`,
 * `file:///abs/t.lance`, `s3://bucket/prefix/t.lance` (also `gs://`, `az://`,
 * `abfss://`, …) or `memory://t`. The table lives in the folder
 * `<dbUri>/<tableName>.lance`, so `data/arrays` and `data/arrays.lance` name
 * the same table. Local paths become absolute.
 *
 * @throws LanceNdError `InvalidInput` for a uri that is not a non-empty string, a uri without a
 * table name, or a name with other characters than letters, digits, `_`,
 * `-` and `.` (lancedb rejects them).
 * @example
 * parseTableUri("s3://bucket/data/sst.lance"); // { dbUri: "s3://bucket/data", tableName: "sst", … }
 */
export function parseTableUri(uri: string): TableLocation {
  if (typeof uri !== "string" || uri.trim() === "") {
    throw new LanceNdError(
      "InvalidInput",
      `invalid table uri ${JSON.stringify(uri) ?? String(uri)}: table uri must be a non-empty string`,
    );
  }
  const scheme = SCHEME.exec(uri)?.[1]?.toLowerCase();
  if (scheme === undefined || scheme === "file") {
    const local = scheme === "file" ? fileURLToPath(uri) : uri;
    if (local.trim() === "") throw invalid(uri, "table uri must be a non-empty string");
    const absolute = path.resolve(local);
    return { uri, dbUri: path.dirname(absolute), tableName: tableNameOf(uri, path.basename(absolute)) };
  }
  const rest = uri.slice(scheme.length + 3).replace(/\/+$/, "");
  const slash = rest.lastIndexOf("/");
  if (scheme === "memory") {
    return {
      uri,
      dbUri: `memory://${slash < 0 ? "" : rest.slice(0, slash)}`,
      tableName: tableNameOf(uri, rest.slice(slash + 1)),
    };
  }
  if (slash < 0)
    throw invalid(uri, "an object store uri needs a bucket and a table name, e.g. s3://bucket/table.lance");
  return { uri, dbUri: `${scheme}://${rest.slice(0, slash)}`, tableName: tableNameOf(uri, rest.slice(slash + 1)) };
}

function tableNameOf(uri: string, segment: string): string {
  const name = segment.endsWith(".lance") ? segment.slice(0, -".lance".length) : segment;
  if (name === "") throw invalid(uri, "the uri has no table name");
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw invalid(uri, `table name "${name}" may only hold letters, digits, "_", "-" and "."`);
  }
  return name;
}

function invalid(uri: string, why: string): LanceNdError {
  return new LanceNdError("InvalidInput", `invalid table uri: ${why}`, { uri });
}
