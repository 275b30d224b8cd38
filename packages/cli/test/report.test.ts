import { describe, expect, it } from "vitest";
import { LanceNdError } from "lance-nd";
import { failure } from "@lance-nd/test-helpers";
import { CliError } from "../src/errors.js";
import { errorReport, failing } from "../src/report.js";

describe("errorReport", () => {
  it("a failed command is one line: lance-nd: <what> (<why>), the cause's lines joined", async () => {
    const err = await failure(() =>
      failing("cannot scan t.lance", async () => {
        throw new LanceNdError("InvalidInput", "bad filter\n  near >>>", { uri: "t.lance" });
      }),
    );
    expect(errorReport(err, false)).toBe('lance-nd: cannot scan t.lance (table "t.lance": bad filter; near >>>)');
  });

  it("an error that is not a lance-nd error is marked unexpected and points to --debug", async () => {
    const err = await failure(() =>
      failing("cannot read t.lance", async () => {
        throw new TypeError("x is undefined");
      }),
    );
    expect(errorReport(err, false)).toBe(
      "lance-nd: cannot read t.lance (x is undefined) [unexpected error; run with --debug for the stack]",
    );
  });

  it("--debug adds the stacks down the cause chain", async () => {
    const cause = new Error("disk full");
    const err = await failure(() =>
      failing("cannot import into t.lance", async () => {
        throw new CliError("WriteFailed", "out.nc: cannot write", { cause });
      }),
    );
    const report = errorReport(err, true).split("\n");
    expect(report[0]).toBe("lance-nd: cannot import into t.lance (out.nc: cannot write)");
    expect(report.join("\n")).toMatch(/CliError: out\.nc: cannot write\n\s+at /);
    expect(report.join("\n")).toMatch(/caused by: Error: disk full\n\s+at /);
  });
});
