import { SpanStatusCode, trace, type Span } from "@opentelemetry/api";

/** The span names of lance-nd (README, Spans): one per write, commit, delete, compaction, widen and restore. */
export type SpanName =
  | "lance_nd.write"
  | "lance_nd.commit"
  | "lance_nd.delete"
  | "lance_nd.compact"
  | "lance_nd.widen"
  | "lance_nd.restore";

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
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}
