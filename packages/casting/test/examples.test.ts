import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => vi.restoreAllMocks());

describe("examples", () => {
  it("quick-start runs and prints numpy's answers", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    await import("../examples/quick-start.js");
    expect(lines).toEqual([
      "Int32 -> Float64 safe: true",
      "Float64 -> Float32 safe: false",
      "Float64 -> Float32 same_kind: true",
      "promote Int32, Float32: Float64",
      "as Float64: 1,-2,300",
      "value 300 at index 2 does not fit Int8",
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const read = (p: string) => readFileSync(new URL(p, import.meta.url), "utf8");
    const example = read("../examples/quick-start.ts");
    expect(read("../README.md")).toContain(example.slice(example.indexOf("import {")).trim());
  });
});
