/** A `ZarrError` of @lance-nd/zarr as the command line's `CliError` (one line, the original as `cause`). */
import { isZarrError } from "@lance-nd/zarr";
import type { ZarrErrorCode } from "@lance-nd/zarr";
import { CliError } from "../errors.js";
import { cfHint } from "./import-plan.js";
import type { CliErrorCode } from "../errors.js";

const CLI_CODES: Record<ZarrErrorCode, CliErrorCode> = {
  NotFound: "FileNotFound",
  InvalidStore: "InvalidFile",
  UnsupportedType: "InvalidFile",
  UnsupportedAttribute: "InvalidFile",
  ReadFailed: "InvalidFile",
  CfFailed: "InvalidFile",
  VariableNotFound: "InvalidArgument",
  DimNotFound: "InvalidArgument",
  InvalidArgument: "InvalidArgument",
  WriteFailed: "WriteFailed",
};

/** Runs `fn`; a `ZarrError` it throws becomes the `CliError` of its code, with the same message. */
export async function zarrCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asCliError(err);
  }
}

/** `err` as a `CliError` when it is a `ZarrError`, else unchanged (a CF refusal names the `--cf` mode that avoids it, as for netCDF). */
export function asCliError(err: unknown): unknown {
  if (!isZarrError(err)) return err;
  const hint = cfHint(err.cause);
  return new CliError(CLI_CODES[err.code], hint === undefined ? err.message : `${err.message} (${hint})`, {
    cause: err,
    ...(err.path === undefined ? {} : { path: err.path }),
  });
}
