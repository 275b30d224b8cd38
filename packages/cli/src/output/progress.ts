/** A progress bar on standard error when it is a terminal; silent otherwise. */
import cliProgress from "cli-progress";
import type { Io } from "../io.js";
import { formatBytes } from "./disk-size.js";

/** Progress of a run over input bytes. */
export interface Progress {
  /** `bytes` of the input are done, `rows` rows written so far. */
  update(bytes: number, rows: number): void;
  /** Removes the bar (before the summary is printed). */
  stop(): void;
}

const SILENT: Progress = { update() {}, stop() {} };

/**
 * A bar over `totalBytes` showing bytes, rows and the rate, drawn on stderr
 * only when stderr is a terminal.
 */
export function progressBar(io: Io, label: string, totalBytes: number): Progress {
  if (io.stderr.isTTY !== true) return SILENT;
  const started = performance.now();
  const bar = new cliProgress.SingleBar({
    stream: io.stderr as NodeJS.WritableStream,
    format: `${label} [{bar}] {percentage}% | {done} of {total_text} | {rows} rows | {rate}/s | {duration_formatted} | ETA {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
  });
  bar.start(totalBytes, 0, {
    done: formatBytes(0),
    total_text: formatBytes(totalBytes),
    rows: 0,
    rate: formatBytes(0),
  });
  return {
    update(bytes, rows) {
      const seconds = Math.max((performance.now() - started) / 1000, 1e-3);
      bar.update(bytes, { done: formatBytes(bytes), rows, rate: formatBytes(Math.round(bytes / seconds)) });
    },
    stop() {
      bar.stop();
    },
  };
}
