import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import * as internal from "../src/internal.js";

describe("public exports", () => {
  it("are exactly this list (a change here is an API change, see the README)", () => {
    expect(Object.keys(api).sort()).toEqual([
      "Column",
      "DEFAULT_MAX_CHUNK_ROWS",
      "Dataset",
      "Expr",
      "LanceNdError",
      "NdScan",
      "NdTable",
      "NdWriter",
      "RollbackIncompleteError",
      "SOURCE_FILE_ATTR",
      "ZarrStore",
      "append",
      "branch",
      "branches",
      "check",
      "checkout",
      "cleanupOldVersions",
      "col",
      "columnDefaults",
      "compact",
      "concatRows",
      "dataset",
      "datasetSource",
      "deleteRows",
      "dropLayout",
      "indexGlobalAttr",
      "isLanceNdError",
      "keyIndexes",
      "layouts",
      "open",
      "planConcat",
      "rechunk",
      "replaceRows",
      "restore",
      "scan",
      "setColumnDefaults",
      "stat",
      "tag",
      "tags",
      "untag",
      "variables",
      "versions",
      "widen",
      "write",
      "zarrStore",
    ]);
  });

  it("NdTable and NdScan have private constructors: tables come from open, write or checkout, scans from scan", () => {
    // Type checked (the package's typecheck covers test/): a public constructor would make these lines compile.
    const construct = () => [
      // @ts-expect-error the constructor of NdTable is private
      new api.NdTable(undefined as never, undefined as never, undefined as never),
      // @ts-expect-error the constructor of NdScan is private
      new api.NdScan(undefined as never, undefined as never),
    ];
    expect(typeof construct).toBe("function");
  });

  it("lance-nd/internal (the reliability suite's and profiler's Lance layer) shares no name with the public API", () => {
    expect(Object.keys(internal).filter((name) => name in api)).toEqual([]);
  });
});
