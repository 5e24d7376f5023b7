/**
 * The golden trace: recorded conversations between a client and the runtime
 * (`protocol/golden-trace.json`). Every message of every case is validated against
 * the schemas here; the runtime's and the client's tests replay the same file.
 *
 * @module
 */
import { isMethodName, parseParams, parseResult } from "./methods.ts";
import type { SchemaError } from "./schema.ts";
import {
  EventNotification,
  type GoldenCase,
  GoldenTrace,
  JsonRpcFailure,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccess,
} from "./types.gen.ts";

/** Thrown when a trace message does not match the protocol; the message names case, step and field. */
export class GoldenTraceError extends Error {
  /** Name of the failing case. */
  readonly caseName: string;
  /** Zero-based index of the failing step. */
  readonly step: number;

  /**
   * Names the failing case and step in the message.
   *
   * @param caseName the failing case
   * @param step the failing step's index
   * @param message what is wrong
   */
  constructor(caseName: string, step: number, message: string) {
    super(`golden trace case "${caseName}" step ${step}: ${message}`);
    this.name = "GoldenTraceError";
    this.caseName = caseName;
    this.step = step;
  }
}

/**
 * Validates a whole trace: its shape, then every message of every case.
 *
 * @param trace the parsed JSON of `golden-trace.json`
 * @returns the typed trace
 * @throws {GoldenTraceError} naming the case, step and field of the first mismatch
 */
export function validateGoldenTrace(trace: unknown): GoldenTrace {
  const parsed = GoldenTrace.safeParse(trace);
  if (!parsed.success) {
    throw new GoldenTraceError("(file)", 0, describe(parsed.error));
  }
  const names = new Set<string>();
  for (const goldenCase of parsed.data.cases) {
    if (names.has(goldenCase.name)) {
      throw new GoldenTraceError(goldenCase.name, 0, "duplicate case name");
    }
    names.add(goldenCase.name);
    validateGoldenCase(goldenCase);
  }
  return parsed.data;
}

/**
 * Validates the messages of one case in order: requests by their method's params,
 * responses by the result schema of the request they answer, events by the
 * envelope schema, with seq strictly increasing.
 *
 * @param goldenCase the case
 * @throws {GoldenTraceError} on the first mismatch
 */
export function validateGoldenCase(goldenCase: GoldenCase): void {
  const pending = new Map<string | number, string>();
  let lastSeq = 0;
  goldenCase.steps.forEach((step, index) => {
    const fail = (message: string) => new GoldenTraceError(goldenCase.name, index, message);
    if (step.from === "client") {
      const request = JsonRpcRequest.safeParse(step.message);
      const call = request.success
        ? request.data
        : JsonRpcNotification.safeParse(step.message).data;
      if (!call) throw fail(`not a JSON-RPC request: ${describe(request.error)}`);
      if (request.success) pending.set(request.data.id, call.method);
      if (step.invalid) return;
      if (!isMethodName(call.method)) throw fail(`unknown method ${call.method}`);
      try {
        parseParams(call.method, call.params);
      } catch (error) {
        throw fail(`params of ${call.method}: ${(error as Error).message}`);
      }
      return;
    }
    const message = step.message as Record<string, unknown> | null;
    if (message && message.method === "event") {
      const event = EventNotification.safeParse(message);
      if (!event.success) throw fail(`event: ${describe(event.error)}`);
      if (event.data.params.seq <= lastSeq) {
        throw fail(`event seq ${event.data.params.seq} does not follow ${lastSeq}`);
      }
      lastSeq = event.data.params.seq;
      return;
    }
    if (message && "error" in message) {
      const failure = JsonRpcFailure.safeParse(message);
      if (!failure.success) throw fail(`error response: ${describe(failure.error)}`);
      return;
    }
    const success = JsonRpcSuccess.safeParse(message);
    if (!success.success) throw fail(`response: ${describe(success.error)}`);
    const method = pending.get(success.data.id);
    if (!method) throw fail(`response to unknown request id ${success.data.id}`);
    if (!isMethodName(method)) throw fail(`response to unknown method ${method}`);
    try {
      parseResult(method, success.data.result);
    } catch (error) {
      throw fail(`result of ${method}: ${(error as Error).message}`);
    }
  });
}

function describe(error: SchemaError | undefined): string {
  const issue = error?.issues[0];
  if (!issue) return "invalid";
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}
