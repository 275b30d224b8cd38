import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { isLanceNdError } from "../../src/errors.js";
import { parseTableUri } from "../../src/lance/uri.js";

describe("parseTableUri", () => {
  it("a relative path becomes an absolute folder and the name without .lance", () => {
    expect(parseTableUri("data/arrays.lance")).toEqual({
      uri: "data/arrays.lance",
      dbUri: path.resolve("data"),
      tableName: "arrays",
    });
  });

  it("a path without .lance names the same table", () => {
    expect(parseTableUri("/abs/dir/arrays/")).toMatchObject({ dbUri: "/abs/dir", tableName: "arrays" });
  });

  it("file:// uris become local paths", () => {
    expect(parseTableUri("file:///abs/dir/t.lance")).toMatchObject({ dbUri: "/abs/dir", tableName: "t" });
  });

  it.each([
    ["s3://bucket/p/q/t.lance", "s3://bucket/p/q", "t"],
    ["s3://bucket/t.lance", "s3://bucket", "t"],
    ["gs://bucket/p/t.lance", "gs://bucket/p", "t"],
    ["az://container/p/t.lance/", "az://container/p", "t"],
  ])("object store uri %s -> connect(%s) + %s", (uri, dbUri, tableName) => {
    expect(parseTableUri(uri)).toMatchObject({ dbUri, tableName });
  });

  it("memory:// uris keep their scheme", () => {
    expect(parseTableUri("memory://t.lance")).toMatchObject({ dbUri: "memory://", tableName: "t" });
    expect(parseTableUri("memory://db/t")).toMatchObject({ dbUri: "memory://db", tableName: "t" });
  });

  it.each(["", "s3://bucket", "data/.lance", "data/my table.lance", "data/a:b.lance"])(
    "uri %j without a valid table name is InvalidInput",
    (uri) => {
      let caught: unknown;
      try {
        parseTableUri(uri);
      } catch (err) {
        caught = err;
      }
      expect(isLanceNdError(caught, "InvalidInput")).toBe(true);
    },
  );
});
