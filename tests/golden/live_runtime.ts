/**
 * Runs every golden case against a live runtime (real server on 127.0.0.1:0, a
 * scripted model, an echo tool) and returns what crossed the wire.
 */
import type { GoldenCase } from "@daedalus/protocol";
import { createScriptedProvider, defineTool, startRuntime } from "@daedalus/runtime";
import { writeConfig } from "@daedalus/storage";
import { z } from "zod";
import { goldenScript, LIVE_CASES, SMALL_WINDOW } from "./cases.ts";
import { WireSession } from "./wire_session.ts";

const echo = defineTool({
  id: "echo",
  description: "Echoes its text back",
  params: z.object({ text: z.string() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: params.text }),
});

/**
 * Records every case against a fresh runtime.
 *
 * @returns the recorded cases, in LIVE_CASES order
 */
export async function recordLiveCases(): Promise<GoldenCase[]> {
  const home = await Deno.makeTempDir({ prefix: "daedalus-golden-" });
  // The scripted provider is listed in config.yaml (its calls still go to the script) so
  // that `model.set_fallback` can name a fallback for its model.
  await writeConfig(`${home}/config.yaml`, {
    version: 1,
    providers: {
      scripted: {
        type: "openai_compatible",
        base_url: "http://127.0.0.1:9/v1",
        models: { "scripted-model": {}, "scripted-small": {} },
      },
    },
  });
  const runtime = await startRuntime({
    home,
    workspacesRoot: `${home}/workspaces`,
    port: 0,
    providers: [
      createScriptedProvider({
        script: goldenScript,
        models: ["scripted-model", "scripted-small"],
      }),
    ],
    contextWindow: (_provider, model) => model === "scripted-small" ? SMALL_WINDOW : undefined,
    tools: [echo],
    threadTitles: false,
    memoryRefinement: false, // a background rename would make the recorded order depend on timing
  });
  const recorded: GoldenCase[] = [];
  try {
    for (const liveCase of LIVE_CASES) {
      const session = await WireSession.open(runtime.url, runtime.token);
      try {
        await liveCase.run(session);
      } finally {
        session.close();
      }
      recorded.push(session.record(liveCase.name, liveCase.description));
    }
  } finally {
    await runtime.shutdown();
    await Deno.remove(home, { recursive: true });
  }
  return recorded;
}

/**
 * The structure of a case that must not change: who spoke, and what kind of message.
 * Consecutive process.recorded events count once: how many output snapshots a
 * command produces depends on timing (at most 4 a second).
 */
export function caseShape(goldenCase: GoldenCase): string[] {
  return goldenCase.steps.map((step) => {
    const message = step.message as Record<string, unknown>;
    if (step.from === "client") return `client ${message.method}`;
    if (message.method === "event") {
      return `event ${(message.params as Record<string, unknown>).type}`;
    }
    const error = message.error as { code?: number; data?: { reasonCode?: string } } | undefined;
    return error ? `error ${error.code} ${error.data?.reasonCode}` : "result";
  }).filter((shape, index, all) =>
    !(shape === "event process.recorded" && all[index - 1] === shape)
  );
}
