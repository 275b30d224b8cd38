import { describe, expect, it } from "vitest";
import { JsonFloat, parseZarrJson, stringifyZarrJson } from "../src/json-text.js";

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

  it("an integral float in attributes is a JsonFloat (1.0 is not 1); elsewhere numbers are numbers", () => {
    const text = '{"fill_value": 0.0, "attributes": {"a": 1.0, "b": [0.0, 2.5, 1e3], "c": 1, "d": -3.00}}';
    expect(parseZarrJson(text)).toEqual({
      fill_value: 0,
      attributes: { a: new JsonFloat(1), b: [new JsonFloat(0), 2.5, new JsonFloat(1000)], c: 1, d: new JsonFloat(-3) },
    });
    expect(parseZarrJson('{"a": 2.0, "b": 2}', true)).toEqual({ a: new JsonFloat(2), b: 2 });
    expect(parseZarrJson('{"tas/.zattrs": {"x": 1.0}, "tas/.zarray": {"fill_value": 1.0}}')).toEqual({
      "tas/.zattrs": { x: new JsonFloat(1) },
      "tas/.zarray": { fill_value: 1 },
    });
  });

  it("stringifyZarrJson writes a JsonFloat as Python's json writes a float", () => {
    const floats = [1, -3, 0, 2.5, 1e21, 1e-7].map((v) => new JsonFloat(v));
    expect(stringifyZarrJson({ floats, int: 1, text: "1.0" }, 0)).toBe(
      '{"floats":[1.0,-3.0,0.0,2.5,1e+21,1e-7],"int":1,"text":"1.0"}',
    );
  });
});
