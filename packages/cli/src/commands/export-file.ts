/**
 * The write pipeline of `lance-nd export` to netCDF (CLI README, "Export"):
 * the file is written to a temporary path beside the target, opened again
 * (its header parsed) to check that it reads, and only then renamed over
 * the target. A failed write, or a file that does not open, leaves the
 * target as it was and removes the temporary file.
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { openNetcdf } from "@lance-nd/netcdf";
import { CliError } from "../errors.js";
import { isUserError } from "../report.js";

/**
 * Runs `write(temporary)` for a file at `out`, checks that the file written
 * opens as netCDF, and renames it to `out`. `WriteFailed` naming `out` when
 * the temporary file cannot be made beside it, when the written file does
 * not open, or when the rename fails; `write`'s own errors pass through.
 */
export async function writeNetcdfBeside(out: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const target = resolve(out);
  const temporary = join(
    dirname(target),
    `.${basename(target)}.writing-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  await claim(temporary, out);
  try {
    await write(temporary).catch((err: unknown) => {
      throw namingTarget(err, temporary, out);
    });
    await checkOpens(temporary, out);
    await rename(temporary, target).catch((cause: NodeJS.ErrnoException) => {
      throw new CliError(
        "WriteFailed",
        `${out}: cannot move the written file into place (${cause.code ?? cause.message})`,
        {
          path: out,
          cause,
        },
      );
    });
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** A lance-nd error whose message names `temporary` as one naming `out` instead (the path the user gave); others unchanged. */
function namingTarget(err: unknown, temporary: string, out: string): unknown {
  if (!isUserError(err) || !(err as Error).message.includes(temporary)) return err;
  return new CliError("WriteFailed", (err as Error).message.replaceAll(temporary, out), { path: out, cause: err });
}

/** Creates the empty temporary file (so a folder the system refuses fails here, with its code). */
async function claim(temporary: string, out: string): Promise<void> {
  try {
    await (await open(temporary, "wx")).close();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new CliError("WriteFailed", `${out}: cannot create a file in ${dirname(resolve(out))} (${code})`, {
      path: out,
      cause,
    });
  }
}

/** `WriteFailed` when the file at `temporary` does not open (its header does not parse) as netCDF. */
async function checkOpens(temporary: string, out: string): Promise<void> {
  try {
    await (await openNetcdf(temporary)).close();
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.replaceAll(temporary, out) : String(cause);
    throw new CliError("WriteFailed", `${out}: the file written does not open, so it was not kept (${why})`, {
      path: out,
      cause,
    });
  }
}
