import { describe, expect, it } from "vitest";
import { FileCodedError, type FileErrorContext } from "../src/coded-error.js";
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
