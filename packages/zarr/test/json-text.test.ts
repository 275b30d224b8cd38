import { describe, expect, it } from "vitest";
import { parseZarrJson } from "../src/json-text.js";

describe("parseZarrJson", () => {
  it("reads the bare NaN / Infinity / -Infinity that Python's json writes, not inside strings", () => {
    expect(
      parseZarrJson('{"a": NaN, "b": [Infinity, -Infinity, 1], "c": "NaN and Infinity", "d": "say \\"NaN\\""}'),
    ).toEqual({
      a: Number.NaN,
      b: [Infinity, -Infinity, 1],
      c: "NaN and Infinity",
      d: 'say "NaN"',
    });
  });

  it("other invalid JSON still throws", () => {
    expect(() => parseZarrJson('{"a": nan}')).toThrow(SyntaxError);
    expect(() => parseZarrJson("{")).toThrow(SyntaxError);
  });
});
