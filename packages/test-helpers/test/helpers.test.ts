import { describe, expect, it } from "vitest";
import { failure, pythonMissing, pythonSkipReason, runPython, skipReason } from "../src/index.js";

describe("failure", () => {
  it("is the error of a rejected promise, a throwing call or a rejecting call; undefined when it succeeds", async () => {
    const boom = new Error("boom");
    expect(await failure(Promise.reject(boom))).toBe(boom);
    expect(
      await failure(() => {
        throw boom;
      }),
    ).toBe(boom);
    expect(await failure(async () => Promise.reject(boom))).toBe(boom);
    expect(await failure(Promise.resolve(1))).toBeUndefined();
    expect(await failure(() => 1)).toBeUndefined();
  });
});

describe("skipReason", () => {
  it("outside CI a missing oracle is the reason to skip; under CI=true there is none, so the tests run and fail", () => {
    const ci = process.env.CI;
    try {
      process.env.CI = "false";
      expect(skipReason("oracle skipped: ncdump not found")).toBe("oracle skipped: ncdump not found");
      expect(skipReason(undefined)).toBeUndefined();
      process.env.CI = "true";
      expect(skipReason("oracle skipped: ncdump not found")).toBeUndefined();
    } finally {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
    }
  });
});

describe("pythonSkipReason", () => {
  it("under CI=true oracles left out by LANCE_ND_ORACLES=none skip, as the quick command needs; missing ones fail", () => {
    const saved = { CI: process.env.CI, LANCE_ND_ORACLES: process.env.LANCE_ND_ORACLES };
    try {
      process.env.CI = "true";
      process.env.LANCE_ND_ORACLES = "none";
      expect(pythonSkipReason("numpy oracle", ["numpy"], "apt-get install python3-numpy")).toBe(
        "numpy oracle skipped: the Python oracles are left out (LANCE_ND_ORACLES=none)",
      );
      delete process.env.LANCE_ND_ORACLES;
      expect(pythonSkipReason("an oracle", ["no_such_module_here"], "apt-get install nothing")).toBeUndefined();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe.skipIf(pythonSkipReason("the Python oracle runner", [], "apt-get install python3") !== undefined)(
  "the Python oracle runner",
  () => {
    it("names the modules /usr/bin/python3 cannot import, and only those", () => {
      expect(pythonMissing(["json", "no_such_module_here", "os"])).toBe("/usr/bin/python3 lacks no_such_module_here");
      expect(pythonMissing(["json", "os"])).toBeUndefined();
    });

    it("returns a script's stdout, fed its stdin; a failing script throws with its stderr", async () => {
      expect(runPython(["-c", "import sys; print(sys.stdin.read().upper())"], { input: "abc" })).toBe("ABC\n");
      const err = await failure(() => runPython(["-c", "import sys; sys.exit('no such case')"]));
      expect(String(err)).toContain("no such case");
    });
  },
);
