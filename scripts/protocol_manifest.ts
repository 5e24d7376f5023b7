/**
 * Serializes the protocol manifest (`protocol/runtime-protocol.json`, built by
 * `buildProtocolManifest` of @daedalus/protocol) and finds the first difference between
 * two manifests.
 *
 * @module
 */
import { buildProtocolManifest } from "@daedalus/protocol";
import { builtinToolManifest } from "../packages/runtime/tools/manifest.ts";
/**
 * Serializes a manifest the way it is checked in: two-space JSON and a final newline.
 *
 * @param manifest the manifest
 * @returns the file text
 */
export function formatManifest(manifest: unknown): string {
  return JSON.stringify(manifest, null, 2) + "\n";
}

/**
 * Names the first place where two JSON values differ, as a JSON path.
 *
 * @param expected the generated value
 * @param actual the checked-in value
 * @param path the path so far
 * @returns a description such as `$.methods["thread.get"].params: missing`, or null if equal
 */
export function firstDifference(expected: unknown, actual: unknown, path = "$"): string | null {
  if (Object.is(expected, actual)) return null;
  if (typeof expected !== typeof actual || expected === null || actual === null) {
    return `${path}: expected ${preview(expected)}, found ${preview(actual)}`;
  }
  if (typeof expected !== "object") {
    return `${path}: expected ${preview(expected)}, found ${preview(actual)}`;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  if (Array.isArray(e) !== Array.isArray(a)) return `${path}: expected ${preview(e)}`;
  const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
  for (const key of keys) {
    const child = Array.isArray(e) ? `${path}[${key}]` : `${path}[${JSON.stringify(key)}]`;
    if (!(key in a)) return `${child}: missing from the checked-in file`;
    if (!(key in e)) return `${child}: not generated any more`;
    const difference = firstDifference(e[key], a[key], child);
    if (difference) return difference;
  }
  return null;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}

/**
 * What `protocol/runtime-protocol.json` holds: the protocol's own manifest plus each
 * built-in tool's parameter schema (owned by the runtime).
 *
 * @returns the manifest
 */
export function runtimeProtocolManifest(): Record<string, unknown> {
  return { ...buildProtocolManifest(), toolDefinitions: builtinToolManifest() };
}
