import { loggedLines, quickStartAndReadme } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";

describe("examples", () => {
  it("quick-start runs and prints numpy's answers", async () => {
    const lines = await loggedLines(() => import("../examples/quick-start.js"), String);
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
    const { readme, example } = quickStartAndReadme(import.meta.url, "import {");
    expect(readme).toContain(example);
  });
});
