/** lance-nd's OpenTelemetry spans (README.md, "Spans"). */
import { context, SpanStatusCode, trace, type Span } from "@opentelemetry/api";

/** The span names of lance-nd (README, Spans): one per write, commit, delete, compaction, widen, restore and key index. */
export type SpanName =
  | "lance_nd.write"
  | "lance_nd.commit"
  | "lance_nd.delete"
  | "lance_nd.compact"
  | "lance_nd.widen"
  | "lance_nd.restore"
  | "lance_nd.index";

const tracer = () => trace.getTracer("lance-nd");

/**
 * Runs `work` inside an OpenTelemetry span named `name` with the attribute
 * `lance_nd.table.uri`; an error is recorded on the span and rethrown.
 * Without an installed OpenTelemetry SDK the spans cost next to nothing.
 */
export async function inSpan<T>(
  name: SpanName,
  uri: string,
  work: (span: Span) => Promise<T>,
  attributes: Record<string, string | number | boolean> = {},
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes: { "lance_nd.table.uri": uri, ...attributes } }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      recordError(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The `lance_nd.write` span of a writer's life: started with the writer,
 * parent of a `lance_nd.commit` span per add, ended by `finish` or `abort`.
 */
export class WriteSpan {
  readonly #uri: string;
  readonly #span: Span;

  /** Starts the span of a write to `uri` in `mode`. */
  constructor(uri: string, mode: string) {
    this.#uri = uri;
    this.#span = tracer().startSpan("lance_nd.write", {
      attributes: { "lance_nd.table.uri": uri, "lance_nd.mode": mode },
    });
  }

  /** Runs one commit of `rows` rows in a `lance_nd.commit` child span. */
  async commit<T>(rows: number, work: () => Promise<T>): Promise<T> {
    return context.with(trace.setSpan(context.active(), this.#span), () =>
      inSpan("lance_nd.commit", this.#uri, () => work(), { "lance_nd.rows": rows }),
    );
  }

  /** Ends the span with the writer's totals, recording `err` when the write failed. */
  end(rows: number, versions: number, err?: unknown): void {
    this.#span.setAttribute("lance_nd.rows", rows);
    this.#span.setAttribute("lance_nd.versions", versions);
    if (err !== undefined) recordError(this.#span, err);
    this.#span.end();
  }
}

function recordError(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}
