/**
 * The dependency rules of the lint step (README, "Development"): within a
 * package, no import runs from a lower folder to a higher one (each
 * package's folder order is in its README, "Source layout"), and no circle
 * runs through files of different folders. Type-only imports are left out:
 * TypeScript erases them, so they order nothing at run time.
 */

/** Each package's folders (and top-level files), lowest first; a file may import from its own level and the levels below. */
const ORDER = {
  "lance-nd": [
    ["errors.ts", "pure-errors.ts", "option-errors.ts", "tracing.ts", "open-options.ts", "table-check.ts"],
    ["lance/"],
    ["read/"],
    ["widen/"],
    ["versions/"],
    ["table.ts"],
    ["write/"],
    ["import-claims/"],
    ["dataset/"],
    ["layout/"],
    ["check/"],
    ["export/"],
    ["zarr-store/"],
    ["index.ts", "internal.ts"],
  ],
  cli: [
    ["errors.ts", "io.ts", "report.ts", "demo-data.ts", "malloc-arenas.ts"],
    ["args/"],
    ["output/"],
    ["datasets/"],
    ["plot/"],
    ["http/"],
    ["view/"],
    ["serve/"],
    ["commands/"],
    ["program.ts", "run.ts", "main.ts", "cli.ts"],
  ],
};

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const entryPattern = (pkg, entries) =>
  `^packages/${pkg}/src/(${entries.map((e) => (e.endsWith("/") ? `${literal(e)}` : `${literal(e)}$`)).join("|")})`;

const upward = Object.entries(ORDER).flatMap(([pkg, levels]) =>
  levels.slice(0, -1).map((level, i) => ({
    name: `${pkg}-folder-order`,
    comment: `${pkg}: ${level.join(", ")} may not import from a higher level (${pkg} README, "Source layout")`,
    severity: "error",
    from: { path: entryPattern(pkg, level) },
    to: { path: entryPattern(pkg, levels.slice(i + 1).flat()), dependencyTypesNot: ["type-only"] },
  })),
);

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "no-circle-across-folders",
      comment: "a circle of imports through files of different folders",
      severity: "error",
      from: { path: "^packages/[^/]+/src/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(node_modules|/dist/|/test/)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@lance-nd/source", "import", "types", "default"],
      extensions: [".ts", ".js"],
    },
  },
};
