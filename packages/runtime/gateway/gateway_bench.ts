/**
 * The gateway's mapping cost per 2,000-delta answer (issue 18's bench unit): a Run's
 * journal events folded to canonical events, then serialized as Dify SSE frames or AG-UI
 * frames, against the baseline of serializing the same journal events as the WebSocket
 * `event` notifications the PWA receives. Pure CPU, no I/O.
 */
import type { JournalEvent } from "@daedalus/protocol";
import { canonicalFoldStart, canonicalStep } from "./journal_to_canonical.ts";
import { DifyEncoder } from "./dify_encoder.ts";
import { difyDataFrame } from "./dify_sse.ts";
import { AgUiEncoder } from "./ag_ui_encoder.ts";

const DELTAS = 2000;
const hex = (n: number) => n.toString(16).padStart(32, "0");
const RUN = `run_${hex(1)}`;
const ITEM = `item_${hex(2)}`;
const AT = "2026-12-02T03:00:00.000Z";
const scope = {
  threadId: `thread_${hex(3)}`,
  branchId: `branch_${hex(4)}`,
  turnId: `turn_${hex(5)}`,
};

const journal: JournalEvent[] = [];
for (let i = 1; i <= DELTAS; i++) {
  journal.push({
    seq: i,
    schemaVersion: 1,
    ...scope,
    runId: RUN,
    itemId: ITEM,
    timestamp: AT,
    type: "item.delta",
    payload: { delta: `token${i} `, turnId: scope.turnId, runId: RUN, itemId: ITEM },
  } as JournalEvent);
}
journal.push({
  seq: DELTAS + 1,
  schemaVersion: 1,
  ...scope,
  runId: RUN,
  itemId: null,
  timestamp: AT,
  type: "run.settled",
  payload: {
    status: "completed",
    reasonCode: null,
    failureClass: null,
    turnId: scope.turnId,
    runId: RUN,
  },
} as JournalEvent);

Deno.bench(
  "WebSocket event notifications (baseline)",
  { group: "2000 deltas", baseline: true },
  () => {
    let bytes = 0;
    for (const event of journal) {
      bytes += JSON.stringify({ jsonrpc: "2.0", method: "event", params: event }).length;
    }
    if (bytes === 0) throw new Error("nothing serialized");
  },
);

Deno.bench("journal → canonical → Dify SSE", { group: "2000 deltas" }, () => {
  let state = canonicalFoldStart(RUN);
  const encoder = new DifyEncoder({
    taskId: RUN,
    messageId: "m",
    conversationId: "c",
    createdAt: 1,
  }, 0);
  let bytes = 0;
  for (const event of journal) {
    const step = canonicalStep(state, event);
    state = step.state;
    for (const canonical of step.events) {
      for (const object of encoder.encode(canonical, 1)) bytes += difyDataFrame(object).length;
    }
  }
  if (bytes === 0) throw new Error("nothing serialized");
});

Deno.bench("journal → canonical → AG-UI SSE", { group: "2000 deltas" }, () => {
  let state = canonicalFoldStart(RUN);
  const encoder = new AgUiEncoder({ threadId: "t", runId: "r" });
  let bytes = 0;
  for (const object of encoder.start(1)) bytes += JSON.stringify(object).length;
  for (const event of journal) {
    const step = canonicalStep(state, event);
    state = step.state;
    for (const canonical of step.events) {
      for (const object of encoder.encode(canonical, 1)) {
        bytes += `data: ${JSON.stringify(object)}\n\n`.length;
      }
    }
  }
  if (bytes === 0) throw new Error("nothing serialized");
});
