/** A progress bar on standard error when it is a terminal; silent otherwise. */
import cliProgress from "cli-progress";
import type { Io } from "../io.js";
import { formatBytes } from "./disk-size.js";

/** Progress of a run over input bytes. */
export interface Progress {
  /** `bytes` of the input are done, `rows` rows written so far, `fetched` bytes received from the network. */
  update(bytes: number, rows: number, fetched?: number): void;
  /** Removes the bar (before the summary is printed). */
  stop(): void;
}

/** What a bar shows besides the input bytes and the rate. */
export interface ProgressParts {
  /** Rows written (default true). */
  rows?: boolean;
  /** Bytes received from the network (default false): an input at a URL. */
  fetched?: boolean;
}

const SILENT: Progress = { update() {}, stop() {} };

/**
 * A bar over `totalBytes` showing bytes, rows (unless `parts.rows` is
 * false), the bytes fetched (with `parts.fetched`) and the rate, drawn on
 * stderr only when stderr is a terminal.
 */
export function progressBar(io: Io, label: string, totalBytes: number, parts: ProgressParts = {}): Progress {
  if (io.stderr.isTTY !== true) return SILENT;
  const started = performance.now();
  const shown = [
    "{done} of {total_text}",
    ...(parts.rows === false ? [] : ["{rows} rows"]),
    ...(parts.fetched === true ? ["{fetched} fetched"] : []),
  ];
  const bar = new cliProgress.SingleBar({
    stream: io.stderr as NodeJS.WritableStream,
    format: `${label} [{bar}] {percentage}% | ${shown.join(" | ")} | {rate}/s | {duration_formatted} | ETA {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
  });
  bar.start(totalBytes, 0, {
    done: formatBytes(0),
    total_text: formatBytes(totalBytes),
    rows: 0,
    fetched: formatBytes(0),
    rate: formatBytes(0),
  });
  return {
    update(bytes, rows, fetched = 0) {
      const seconds = Math.max((performance.now() - started) / 1000, 1e-3);
      bar.update(bytes, {
        done: formatBytes(bytes),
        rows,
        fetched: formatBytes(fetched),
        rate: formatBytes(Math.round(bytes / seconds)),
      });
    },
    stop() {
      bar.stop();
    },
  };
}
