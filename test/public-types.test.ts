import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitDeclarations, publicPackages } from "./helpers/emit-declarations.js";
import { entryDeclarations } from "./helpers/public-declarations.js";

// The types each published package shows its users, one file a package under
// test/public-types/: a change there is an API change, to be seen in review
// (and in CHANGELOG.md). After an intended change: `npx vitest run
// test/public-types.test.ts -u`.
const root = join(import.meta.dirname, "..");
const packages = publicPackages(root);
const declarations = emitDeclarations(
  root,
  packages.flatMap((p) => p.entries.map((e) => e.source)),
);

describe("the declarations of the published packages", () => {
  it.each(packages.map((p) => [p.name, p] as const))("%s", async (_, pkg) => {
    const sections = pkg.entries.map(
      (entry) => `# ${entry.specifier}\n\n\`\`\`ts\n${entryDeclarations(entry, declarations)}\`\`\`\n`,
    );
    await expect(sections.join("\n")).toMatchFileSnapshot(join(root, "test", "public-types", `${pkg.dir}.md`));
  });
});
