// A child of import-claim-s3.test.ts: an import on an object store table
// that claims its id (writer lock and mark), appends two rows of it, prints
// "ready" and waits for the parent's SIGKILL, leaving its claim behind.
import { append, open } from "lance-nd";
import { claimImport } from "lance-nd/internal";
import { rowFor } from "../helpers/rows.js";

const { uri, storageOptions, id } = JSON.parse(process.argv[2]!) as {
  uri: string;
  storageOptions: Record<string, string>;
  id: string;
};
await claimImport(uri, { storageOptions, mode: "append", branch: null, ids: [id], wait: { timeoutMs: 0 } });
const rows = [rowFor(id), rowFor(id)];
await append(await open(uri, { storageOptions }), rows);
process.stdout.write("ready\n");
setInterval(() => undefined, 1000);
