/** Byte sizes as `info`, the progress bars and the import's refusals print them. */
import { describe, expect, it } from "vitest";
import { formatBytes, threeDigits } from "../../src/output/disk-size.js";

describe("formatBytes", () => {
  it("prints bytes under 1 KiB whole, larger sizes in binary units with three significant digits", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.50 KiB");
    expect(formatBytes(69 * 2 ** 20)).toBe("69.0 MiB");
    expect(formatBytes(512 * 2 ** 30)).toBe("512 GiB");
  });

  it("prints 999.5 to 1023.9 of a unit as a whole number, never in exponent form", () => {
    for (const value of [999.5, 1000, 1010.4, 1023, 1023.9]) {
      const text = formatBytes(value * 2 ** 20);
      expect(text, `${value} MiB`).toMatch(/^\d+ MiB$/);
      expect(Number(text.split(" ")[0])).toBe(Math.round(value));
    }
    expect(formatBytes(1000 * 2 ** 40)).toBe("1000 TiB");
    expect(threeDigits(2048)).toBe("2048");
  });
});
