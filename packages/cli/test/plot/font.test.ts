import { describe, expect, it } from "vitest";
import { GLYPH_HEIGHT, GLYPH_WIDTH, drawText, glyph, textWidth } from "../../src/plot/font.js";

describe("bitmap font", () => {
  it("has the characters of numbers and units, each 5 x 7 with ink", () => {
    for (const c of "0123456789.-+eE ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz/()_:%°") {
      const bits = glyph(c);
      expect(bits.length, c).toBe(GLYPH_WIDTH * GLYPH_HEIGHT);
      if (c !== " ")
        expect(
          bits.some((b) => b === 1),
          c,
        ).toBe(true);
    }
  });

  it("distinct characters have distinct glyphs; unknown ones draw as ?", () => {
    const seen = new Set<string>();
    for (const c of "0123456789.-+e") seen.add(glyph(c).join(""));
    expect(seen.size).toBe(14);
    expect(glyph("€")).toEqual(glyph("?"));
  });

  it("text is as wide as its glyphs plus 1-pixel gaps, times the scale", () => {
    expect(textWidth("", 2)).toBe(0);
    expect(textWidth("12", 1)).toBe(11);
    expect(textWidth("12", 2)).toBe(22);
  });

  it("draws ink inside the text box only, clipped at the image edge", () => {
    const width = 20;
    const rgba = new Uint8Array(width * 10 * 4);
    drawText(rgba, width, "11111", 2, 1, 1, [255, 0, 0]);
    let inked = 0;
    for (let y = 0; y < 10; y++) {
      for (let x = 0; x < width; x++) {
        if (rgba[4 * (y * width + x)] !== 255) continue;
        inked++;
        expect(y >= 1 && y < 1 + GLYPH_HEIGHT && x >= 2).toBe(true);
      }
    }
    expect(inked).toBeGreaterThan(0);
  });
});
