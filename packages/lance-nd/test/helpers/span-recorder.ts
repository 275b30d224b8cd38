// A minimal OpenTelemetry tracer that records spans in memory (the SDK
// packages are not dependencies): install it once per test file.
import { AsyncLocalStorage } from "node:async_hooks";
import {
  ROOT_CONTEXT,
  context,
  trace,
  type Context,
  type ContextManager,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
} from "@opentelemetry/api";

/** One recorded span. */
export interface RecordedSpan {
  name: string;
  attributes: Record<string, unknown>;
  parent: RecordedSpan | undefined;
  ended: boolean;
  failed: boolean;
}

let next = 1;

class RecordingSpan implements Span {
  readonly record: RecordedSpan;
  readonly #context: SpanContext;
  constructor(record: RecordedSpan) {
    this.record = record;
    const id = (next++).toString(16).padStart(16, "0");
    this.#context = { traceId: "1".repeat(32), spanId: id, traceFlags: 1 };
  }
  spanContext(): SpanContext {
    return this.#context;
  }
  setAttribute(key: string, value: unknown): this {
    this.record.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Record<string, unknown>): this {
    Object.assign(this.record.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: { code: number }): this {
    if (status.code === 2) this.record.failed = true;
    return this;
  }
  updateName(name: string): this {
    this.record.name = name;
    return this;
  }
  end(): void {
    this.record.ended = true;
  }
  isRecording(): boolean {
    return true;
  }
  recordException(): void {}
}

/**
 * Installs a recording tracer and an AsyncLocalStorage context manager in
 * place of any installed before (a test file of the same process, as
 * vitest runs them without isolation); returns the list the spans go to.
 */
export function recordSpans(): RecordedSpan[] {
  const spans: RecordedSpan[] = [];
  const storage = new AsyncLocalStorage<Context>();
  const manager: ContextManager = {
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.call(thisArg, ...args)),
    bind: (_ctx, target) => target,
    enable() {
      return this;
    },
    disable() {
      return this;
    },
  };
  context.disable();
  context.setGlobalContextManager(manager);
  const tracer: Tracer = {
    startSpan(name: string, options: SpanOptions = {}, ctx: Context = context.active()): Span {
      const parent = trace.getSpan(ctx) as RecordingSpan | undefined;
      const record: RecordedSpan = {
        name,
        attributes: { ...options.attributes },
        parent: parent?.record,
        ended: false,
        failed: false,
      };
      spans.push(record);
      return new RecordingSpan(record);
    },
    startActiveSpan(name: string, ...args: unknown[]): never {
      const fn = args.at(-1) as (span: Span) => unknown;
      const options = (args.length > 1 ? args[0] : {}) as SpanOptions;
      const ctx = (args.length > 2 ? args[1] : context.active()) as Context;
      const span = this.startSpan(name, options, ctx);
      return context.with(trace.setSpan(ctx, span), () => fn(span)) as never;
    },
  };
  trace.disable();
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
  return spans;
}
