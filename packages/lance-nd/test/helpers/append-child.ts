// A second process for test/write/concurrency.test.ts: appends `n` rows, one
// `append` call (one Lance version) each, with ids "<tag>-<i>".
// Run: node --conditions=@lance-nd/source --import tsx test/helpers/append-child.ts <uri> <n> <tag>
import { open } from "../../src/table.js";
import { append } from "../../src/write/write.js";
import { sstRow } from "./write-rows.js";

const [uri, count, tag] = process.argv.slice(2);
if (uri === undefined || count === undefined || tag === undefined)
  throw new Error("usage: append-child.ts <uri> <n> <tag>");
const table = await open(uri);
for (let i = 0; i < Number(count); i++) await append(table, [sstRow(i, { id: `${tag}-${i}` })]);
