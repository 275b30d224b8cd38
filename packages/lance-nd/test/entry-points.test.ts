import * as path from "node:path";
import { Float64 } from "apache-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import {
  NdWriter,
  append,
  branch,
  branches,
  checkout,
  cleanupOldVersions,
  columnDefaults,
  compact,
  deleteRows,
  indexGlobalAttr,
  keyIndexes,
  open,
  restore,
  scan,
  setColumnDefaults,
  tag,
  tags,
  untag,
  variables,
  versions,
  widen,
  write,
  type NdTable,
} from "../src/index.js";
import { tempDir } from "./helpers/make-table.js";
import { failure, sstRows } from "./helpers/write-rows.js";

const dir = tempDir("entry-points");
let table: NdTable;

beforeAll(async () => {
  table = await write(path.join(dir, "t.lance"), sstRows(1));
});

describe("public entry points: a wrong argument is InvalidInput, never a TypeError", () => {
  const notATable = [42, "t.lance", null, {}] as never[];
  const cases: [string, RegExp, () => Promise<unknown>][] = [
    ["open(42)", /table uri must be a non-empty string/, () => open(42 as never)],
    ['open("")', /table uri must be a non-empty string/, () => open("")],
    [
      "open with a number storage option",
      /storageOptions\.timeout/,
      () => open(table.uri, { storageOptions: { timeout: 5 as never } }),
    ],
    ["open with an unknown option", /unknown option "nope"/, () => open(table.uri, { nope: 1 } as never)],
    ["write(42)", /table uri must be a non-empty string/, () => write(42 as never, sstRows(1))],
    ["NdWriter.create(null)", /table uri must be a non-empty string/, () => NdWriter.create(null as never)],
    ...notATable.flatMap((bad): [string, RegExp, () => Promise<unknown>][] => [
      [`append(${String(bad)})`, /append: expected an NdTable/, () => append(bad, sstRows(1))],
      [`NdWriter.append(${String(bad)})`, /append: expected an NdTable/, () => NdWriter.append(bad)],
      [`scan(${String(bad)})`, /scan: expected an NdTable/, async () => scan(bad)],
      [`deleteRows(${String(bad)})`, /deleteRows: expected an NdTable/, () => deleteRows(bad, "true")],
      [`checkout(${String(bad)})`, /checkout: expected an NdTable/, () => checkout(bad, 1)],
      [`restore(${String(bad)})`, /restore: expected an NdTable/, () => restore(bad, 1)],
      [`widen(${String(bad)})`, /widen: expected an NdTable/, () => widen(bad, "sst", new Float64())],
      [`setColumnDefaults(${String(bad)})`, /setColumnDefaults: expected an NdTable/, () => setColumnDefaults(bad, {})],
      [`columnDefaults(${String(bad)})`, /columnDefaults: expected an NdTable/, () => columnDefaults(bad)],
      [`compact(${String(bad)})`, /compact: expected an NdTable/, () => compact(bad)],
      [`indexGlobalAttr(${String(bad)})`, /indexGlobalAttr: expected an NdTable/, () => indexGlobalAttr(bad, "id")],
      [`keyIndexes(${String(bad)})`, /keyIndexes: expected an NdTable/, () => keyIndexes(bad)],
      [
        `cleanupOldVersions(${String(bad)})`,
        /cleanupOldVersions: expected an NdTable/,
        () => cleanupOldVersions(bad, { olderThan: new Date() } as never),
      ],
      [`versions(${String(bad)})`, /versions: expected an NdTable/, () => versions(bad)],
      [`tags(${String(bad)})`, /tags: expected an NdTable/, () => tags(bad)],
      [`tag(${String(bad)})`, /tag: expected an NdTable/, () => tag(bad, "v1")],
      [`untag(${String(bad)})`, /untag: expected an NdTable/, () => untag(bad, "v1")],
      [`branches(${String(bad)})`, /branches: expected an NdTable/, () => branches(bad)],
      [`branch(${String(bad)})`, /branch: expected an NdTable/, () => branch(bad, "trial")],
      [`variables(${String(bad)})`, /variables: expected an NdTable/, () => variables(bad)],
    ]),
    [
      "indexGlobalAttr with a number key",
      /indexGlobalAttr: key must be a non-empty string/,
      () => indexGlobalAttr(table, 42 as never),
    ],
    [
      "deleteRows with a number predicate",
      /a filter must be a Lance SQL string or an Expr/,
      () => deleteRows(table, 42 as never),
    ],
    ["widen with a number name", /variable/, () => widen(table, 42 as never, new Float64())],
    [
      "widen to a type that is not an Arrow type",
      /type must be an Arrow DataType/,
      () => widen(table, "sst", "Float64" as never),
    ],
  ];

  it.each(cases)("%s", async (_, message, call) => {
    const err = await failure(call());
    expect(err.code, err.message).toBe("InvalidInput");
    expect(err.message).toMatch(message);
  });
});
