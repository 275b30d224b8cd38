/**
 * Runs a command bound by file modes, for tests of what a user sees when a
 * folder cannot be listed or a file cannot be read. Root ignores file modes
 * through two capabilities, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so as
 * root the command runs through util-linux's `setpriv` without them (and
 * without CAP_FOWNER): still uid 0, so it reaches every folder root owns
 * (a clone under `/root` or under a 0700 `mktemp -d` folder), but a folder
 * of mode 0311 cannot be listed and a file of mode 0000 cannot be read,
 * exactly as for any other user. As any other user the command runs as it
 * is. Switching to another uid (e.g. nobody, 65534) instead would fail
 * wherever that user cannot reach the repository.
 */
import { spawnSync } from "node:child_process";
import { skipReason } from "./missing-oracle.js";

const SETPRIV = "setpriv";
const DROPPED = "-dac_override,-dac_read_search,-fowner";

/** True when this process ignores file modes (it runs as root). */
function ignoresFileModes(): boolean {
  return process.getuid?.() === 0;
}

/**
 * The argv that runs `command` (program first) bound by file modes: as root
 * `setpriv --bounding-set=-dac_override,-dac_read_search,-fowner --inh-caps=-all -- ...command`,
 * otherwise `command` itself. The capabilities stay dropped in every process
 * the command starts.
 */
export function boundByFileModes(command: readonly string[]): string[] {
  if (!ignoresFileModes()) return [...command];
  return [SETPRIV, `--bounding-set=${DROPPED}`, "--inh-caps=-all", "--", ...command];
}

/**
 * Why a command bound by file modes cannot read `path` here (a file of the
 * repository, e.g. the test's own `import.meta.filename`), as one line, or
 * undefined when it can: as root, `setpriv` missing, or `path` out of reach
 * without root's capabilities (a repository in a 0700 folder that another
 * user owns). Follows the missing-oracle rule:
 * outside CI the reason to skip, under `CI=true` undefined, so the test runs
 * and fails.
 */
export function fileModesSkipReason(path: string): string | undefined {
  if (!ignoresFileModes()) return undefined;
  const probe = boundByFileModes([
    process.execPath,
    "-e",
    "require('node:fs').accessSync(process.argv[1], require('node:fs').constants.R_OK)",
    path,
  ]);
  const run = spawnSync(probe[0]!, probe.slice(1), { encoding: "utf8" });
  if (run.error !== undefined)
    return skipReason(`file-mode test skipped: root needs setpriv (util-linux) to drop CAP_DAC_OVERRIDE`);
  if (run.status !== 0)
    return skipReason(
      `file-mode test skipped: root without CAP_DAC_OVERRIDE cannot read ${path} (a folder above it is another user's)`,
    );
  return undefined;
}
