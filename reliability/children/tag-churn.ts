// A child of tag-listing.test.ts: tags the table's first version and removes
// the tag again, over and over (as imports create and delete their marks and
// locks), until SIGTERM. Prints "ready" after its first pair, and on SIGTERM
// the pairs it made.
import { open } from "lance-nd";

const { uri } = JSON.parse(process.argv[2]!) as { uri: string };
const table = await open(uri);
let pairs = 0;
let stopping = false;
process.on("SIGTERM", () => {
  stopping = true;
});
while (!stopping) {
  const name = `churn-${process.pid}-${pairs}`;
  await table.tag(name, 1);
  await table.untag(name);
  pairs++;
  if (pairs === 1) process.stdout.write("ready\n");
}
process.stdout.write(`pairs ${pairs}\n`);
