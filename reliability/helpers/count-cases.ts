// vitest setup file of the reliability run: counts each test case run, for
// the summary's first line (a failed case fails the run anyway).
import { afterEach } from "vitest";
import { count } from "./counters.js";

afterEach(() => count("cases"));
