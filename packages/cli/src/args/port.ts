/** `--port` of the local servers (`view`, `serve`). */
import { InvalidArgumentError } from "commander";

/** A `--port` value: an integer from 0 to 65535; commander's `InvalidArgumentError` otherwise. */
export function parsePort(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) > 65535)
    throw new InvalidArgumentError("expected a port number (0 to 65535)");
  return Number(text);
}
