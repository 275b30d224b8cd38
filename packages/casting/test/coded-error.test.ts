import { describe, expect, it } from "vitest";
import {
  FileCodedError,
  optionsMessage,
  parseOptions,
  type FileErrorContext,
  type OptionIssue,
  type OptionsSchema,
} from "../src/coded-error.js";
import { CodedError, codedErrorGuard, quotedPlace, type CodedErrorGuard } from "../src/index.js";

type ProbeCode = "Bad" | "Worse";

class ProbeError extends CodedError<ProbeCode> {
  override readonly name = "ProbeError";
  constructor(code: ProbeCode, message: string, variable?: string, cause?: unknown) {
    super(code, message, [quotedPlace("variable", variable), undefined, ""], cause);
  }
}

const isProbeError: CodedErrorGuard<ProbeError, ProbeCode> = codedErrorGuard("ProbeError");

class ProbeFileError extends FileCodedError<ProbeCode> {
  override readonly name = "ProbeFileError";
  constructor(code: ProbeCode, message: string, context: FileErrorContext = {}, place?: (string | undefined)[]) {
    super(code, message, context, place);
  }
}

describe("CodedError, the error skeleton every package extends", () => {
  it("starts the message with the place, keeps the bare message as detail, and the cause", () => {
    const cause = new Error("inner");
    const err = new ProbeError("Bad", "values do not fit", "sst", cause);
    expect(err.message).toBe('variable "sst": values do not fit');
    expect(err).toMatchObject({ name: "ProbeError", code: "Bad", detail: "values do not fit", cause });
    expect(new ProbeError("Bad", "no place").message).toBe("no place");
    expect("cause" in new ProbeError("Bad", "no cause")).toBe(false);
  });

  it("the guard matches the name and, if given, the codes", () => {
    const err = new ProbeError("Worse", "m");
    expect(isProbeError(err)).toBe(true);
    expect(isProbeError(err, "Bad", "Worse")).toBe(true);
    expect(isProbeError(err, "Bad")).toBe(false);
    expect(isProbeError(new Error("m"))).toBe(false);
    expect(isProbeError("ProbeError")).toBe(false);
  });

  it("the guard recognises an error of another copy of the package (same name and code, another class)", () => {
    const foreign = Object.assign(new Error("from a second copy"), { name: "ProbeError", code: "Bad" });
    expect(isProbeError(foreign, "Bad")).toBe(true);
    expect(isProbeError(Object.assign(new Error("m"), { name: "ProbeError" }))).toBe(false);
  });

  it("FileCodedError keeps the file and variable as fields and starts the message with the place it is given", () => {
    const cause = new Error("inner");
    const err = new ProbeFileError("Bad", "not netCDF", { path: "x.nc", variable: "sst", cause });
    expect(err).toMatchObject({ path: "x.nc", variable: "sst", detail: "not netCDF", cause, message: "not netCDF" });
    const placed = new ProbeFileError("Bad", "m", { path: "s.zarr", variable: "sst" }, ["s.zarr", 'array "sst"']);
    expect(placed.message).toBe('s.zarr, array "sst": m');
    expect(new ProbeFileError("Worse", "m")).toMatchObject({ path: undefined, variable: undefined });
    expect(codedErrorGuard<ProbeFileError, ProbeCode>("ProbeFileError")(placed, "Bad")).toBe(true);
  });
});

describe("parseOptions and optionsMessage, the one way options are checked", () => {
  // zod's issues as a strict schema of { mode?: "a" | "b", storage?: { timeout?: string } } reports them.
  const issues: OptionIssue[] = [
    { code: "invalid_value", path: ["mode"], message: 'expected "a" or "b"' },
    { code: "invalid_type", path: ["storage", "timeout"], message: "expected string" },
    { code: "unrecognized_keys", path: [], keys: ["nope"], message: 'Unrecognized key: "nope"' },
    { code: "unrecognized_keys", path: ["storage"], keys: ["x", "y"], message: "Unrecognized keys" },
  ];
  const input = { mode: "c", storage: { timeout: 5n, x: 1, y: 2 }, nope: 1 };

  it("names each option by its path, with its value and why; unknown options by name; the call first", () => {
    expect(optionsMessage("open", input, issues)).toBe(
      'invalid open options: mode = "c": expected "a" or "b"; storage.timeout = 5n: expected string; ' +
        'unknown option "nope"; unknown options "storage.x", "storage.y"',
    );
  });

  it("the options object itself is `options`; a path past a non-object has no value", () => {
    const wrong = [{ code: "invalid_type", path: [], message: "expected object" }];
    expect(optionsMessage("write", 5, wrong)).toBe("invalid write options: options = 5: expected object");
    const deep = [{ path: ["storage", "timeout"], message: "expected string" }];
    expect(optionsMessage("write", { storage: "s3" }, deep)).toBe(
      "invalid write options: storage.timeout = undefined: expected string",
    );
  });

  it("parseOptions returns the parsed options (undefined parsed as {}), or throws the package's error with zod's as cause", () => {
    const seen: unknown[] = [];
    const schema: OptionsSchema<{ mode: string }> = {
      safeParse: (value) => {
        seen.push(value);
        return value !== null && typeof value === "object" && !("mode" in value)
          ? { success: true, data: { mode: "a" } }
          : { success: false, error: { issues: issues.slice(0, 1) } };
      },
    };
    const refuse = (message: string, cause: unknown) => new ProbeFileError("Bad", message, { path: "x.nc", cause });
    expect(parseOptions(schema, undefined, "open", refuse)).toEqual({ mode: "a" });
    expect(seen).toEqual([{}]);
    const err = (() => {
      try {
        return parseOptions(schema, { mode: "c" }, "open", refuse);
      } catch (e) {
        return e;
      }
    })() as ProbeFileError;
    expect(err).toMatchObject({
      code: "Bad",
      path: "x.nc",
      message: 'invalid open options: mode = "c": expected "a" or "b"',
    });
    expect(err.cause).toEqual({ issues: issues.slice(0, 1) });
  });
});
