import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => vi.restoreAllMocks());

describe("examples", () => {
  it("quick-start runs and prints the grid, names and attributes", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    await import("../examples/quick-start.js");
    const out = lines.join("\n");
    expect(out).toContain("rows: 1");
    expect(out).toContain("grid: time=2, lat=3, lon=4");
    expect(out).toContain("arrays: sst, lat, lon");
    expect(out).toContain("__global_attrs__");
  });

  it("the README shows the quick-start example as it is", () => {
    const read = (p: string) => readFileSync(new URL(p, import.meta.url), "utf8");
    const example = read("../examples/quick-start.ts");
    const code = example.slice(example.indexOf("import {")).trim();
    expect(read("../README.md")).toContain(code);
  });
});
