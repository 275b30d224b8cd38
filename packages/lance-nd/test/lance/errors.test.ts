import { describe, expect, it } from "vitest";
import { cleanSdkMessage, fromSdkError, isLanceNdError, LanceNdError } from "../../src/errors.js";

// Flat messages thrown by @lancedb/lancedb 0.39.0, as measured (SDK-NOTES.md, section 8).
const RS =
  "/usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-12.0.0/src/io/commit/conflict_resolver.rs:301:29";
const samples = {
  notFound: `Table 'nope' was not found  Caused by: Dataset at path tmp/x/nope.lance was not found: Not found: tmp/x/nope.lance/_versions, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-table-12.0.0/src/io/commit.rs:670:26`,
  exists: "Table 'ver' already exists",
  retryable: `lance error: Retryable commit conflict for version 16: This Append transaction was preempted by concurrent transaction Merge at version 16. Please retry., ${RS}  Caused by: Retryable commit conflict for version 16: This Append transaction was preempted by concurrent transaction Merge at version 16. Please retry., ${RS}`,
  incompatible: `lance error: Incompatible transaction: This Merge transaction is incompatible with concurrent transaction Project at version 17., ${RS}  Caused by: x`,
  badSql:
    "Invalid input, Error parsing statement: SELECT 1 FROM t WHERE x ==== 1 (sql parser error: Expected: an expression, found: ==)",
  unknownColumn:
    "Failed to execute query stream: GenericFailure, Invalid input, Schema error: No field named y. Valid fields are `x`.",
  extraColumn: "Invalid input, field 'y' does not exist in table schema",
  cast: `lance error: LanceError(Arrow): Cast error: Cannot cast string 'abc' to value of Int32 type, ${RS}  Caused by: y`,
  badVersion: `lance error: Dataset at path tmp/x/ver.lance/_versions/999.manifest was not found: Not found: tmp/x/ver.lance/_versions/999.manifest, ${RS}`,
  checkedOut: "Invalid input, table cannot be modified when a specific version is checked out",
  folderGone: `lance error: Not found: tmp/x/t.lance/_versions, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-table-12.0.0/src/io/commit.rs:670:26  Caused by: Not found: tmp/x/t.lance/_versions`,
  notFoundInData: `Table 'ocean' was not found  Caused by: Dataset at path tmp/x/data/ocean.lance was not found: Not found: tmp/x/data/ocean.lance/_versions, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-table-12.0.0/src/io/commit.rs:670:26`,
  dataFileGone: `Failed to get next batch from stream: lance error: LanceError(IO): Generic N/A error: Wrapped error: Not found: /tmp/x/t.lance/data/0111101000011101010000114450bb4827986e4c83356bb07f.lance, ${RS}`,
  dateString:
    "Failed to execute query stream: GenericFailure, Invalid user input: Error resolving filter expression `__stats__:time`.`min` >= '2001-02-01': Invalid user input: Received literal Utf8(\"2001-02-01\") and could not convert to literal of type 'Timestamp(Nanosecond, Some(\"UTC\"))'",
  unmasked:
    'Arrow error: Invalid argument error: Found unmasked nulls for non-nullable StructArray field "dim_names"  Caused by: z',
};

function map(message: string, op = "append"): LanceNdError {
  return fromSdkError(new Error(message), { uri: "data/t.lance", op });
}

describe("fromSdkError", () => {
  it("a date string compared with a timestamp column: InvalidInput saying to write TIMESTAMP '...'", () => {
    const err = map(samples.dateString, "scan");
    expect(err.code).toBe("InvalidInput");
    expect(err.message).toMatch(/\(write the time as TIMESTAMP '2001-02-01'\)$/);
  });

  it.each([
    ["notFound", "open", "TableNotFound"],
    ["exists", "create", "TableExists"],
    ["retryable", "append", "CommitConflict"],
    ["incompatible", "addColumns", "CommitConflict"],
    ["badSql", "scan", "InvalidInput"],
    ["unknownColumn", "scan", "InvalidInput"],
    ["extraColumn", "append", "SchemaMismatch"],
    ["cast", "append", "SchemaMismatch"],
    ["badVersion", "checkout 999", "InvalidInput"],
    ["checkedOut", "append", "InvalidInput"],
    ["unmasked", "append", "SchemaMismatch"],
    ["folderGone", "schema", "TableNotFound"],
    ["notFoundInData", "open", "TableNotFound"],
    ["dataFileGone", "take", "InvalidTable"],
    ["folderGone", "compact", "TableNotFound"],
  ] as const)("%s during %s maps to %s", (sample, op, code) => {
    expect(map(samples[sample], op).code).toBe(code);
  });

  it("only a 'Retryable commit conflict' is retryable", () => {
    expect(map(samples.retryable).retryable).toBe(true);
    expect(map(samples.incompatible).retryable).toBe(false);
    expect(map(samples.cast).retryable).toBe(false);
  });

  it("messages keep the reason, the op and the uri, and drop Rust source paths and the Caused-by chain", () => {
    const err = map(samples.retryable);
    expect(err.message).toBe(
      'table "data/t.lance": append failed: Retryable commit conflict for version 16: This Append transaction was preempted by concurrent transaction Merge at version 16. Please retry.',
    );
    for (const sample of Object.values(samples)) expect(map(sample).message).not.toMatch(/\.rs:\d+|Caused by/);
  });

  it("the SDK error is the cause and the column is read from the message", () => {
    const sdkError = new Error(samples.unknownColumn);
    const err = fromSdkError(sdkError, { uri: "u", op: "scan" });
    expect(err.cause).toBe(sdkError);
    expect(err.column).toBe("y");
    expect(map(samples.extraColumn).column).toBe("y");
    expect(map(samples.unmasked).column).toBe("dim_names");
  });

  it("a LanceNdError passes through unchanged", () => {
    const err = new LanceNdError("InvalidInput", "x");
    expect(fromSdkError(err, { uri: "u", op: "scan" })).toBe(err);
  });
});

describe("isLanceNdError", () => {
  it("checks the class and, when given, the codes", () => {
    const err = new LanceNdError("TableExists", "x", { uri: "u" });
    expect(isLanceNdError(err)).toBe(true);
    expect(isLanceNdError(err, "TableExists", "TableNotFound")).toBe(true);
    expect(isLanceNdError(err, "TableNotFound")).toBe(false);
    expect(isLanceNdError(new Error("x"))).toBe(false);
  });

  it("retryable is false for every code but CommitConflict", () => {
    expect(new LanceNdError("WriterFailed", "x", { retryable: true }).retryable).toBe(false);
  });
});

describe("cleanSdkMessage", () => {
  it("strips Windows source paths too", () => {
    expect(cleanSdkMessage("lance error: boom, C:\\Users\\r\\.cargo\\registry\\src\\x\\y.rs:1:2")).toBe("boom");
  });
});
