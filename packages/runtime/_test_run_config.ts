/**
 * A valid RunConfig for tests that start turns on the store directly (not through
 * `turn.start`): the bundled identity, no tools, no skills, parts with their true hashes.
 *
 * @module
 */
import type { RunConfig } from "@daedalus/protocol";
import { contentHash } from "@daedalus/storage";
import { bundledIdentity } from "./context/identity.ts";

/**
 * A RunConfig for a provider and model.
 *
 * @param model the provider and model of the Run
 * @param overrides settings to replace (not the parts)
 * @returns the config
 */
export function testRunConfig(
  model: { providerId: string; modelId: string },
  overrides: Partial<Omit<RunConfig, "parts" | "tools" | "identity" | "skills">> = {},
): RunConfig {
  const bundled = bundledIdentity();
  const identity = { ...bundled, hash: contentHash(bundled.text) };
  return {
    providerId: model.providerId,
    modelId: model.modelId,
    contextWindow: 65_536,
    supportsTools: true,
    executionPolicy: "full_access",
    reasoningEffort: null,
    ...overrides,
    parts: {
      toolSchemas: contentHash("[]"),
      identity: contentHash(JSON.stringify(identity)),
      skills: contentHash("[]"),
    },
    tools: [],
    identity,
    skills: [],
  };
}
