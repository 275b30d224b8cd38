// A second process for test/versions/version-control-integration.test.ts: reads main
// of the table again and again (rows, schema, the sst values of each row)
// until the file `<stop>` exists ("ready" after the first reading), and prints each distinct reading once, as
// JSON lines, and how many readings it made.
// Run: node --conditions=@lance-nd/source --import tsx test/helpers/main-reader-child.ts <uri> <stop>
import * as fs from "node:fs";
import { mainReading } from "./main-reading.js";

const [uri, stop] = process.argv.slice(2);
if (uri === undefined || stop === undefined) throw new Error("usage: main-reader-child.ts <uri> <stop>");
const seen = new Set<string>();
let readings = 0;
do {
  seen.add(await mainReading(uri));
  if (readings++ === 0) process.stdout.write("ready\n");
} while (!fs.existsSync(stop) || readings < 3);
for (const reading of seen) process.stdout.write(`${reading}\n`);
process.stdout.write(`readings ${readings}\n`);
