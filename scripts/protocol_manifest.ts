/**
 * Builds the machine-readable protocol manifest (`protocol/runtime-protocol.json`)
 * from the zod schemas of @daedalus/protocol, and finds the first difference
 * between two manifests.
 *
 * @module
 */
import { z } from "zod";
import {
  ALL_METHODS,
  Branch,
  ERROR_REASON_CODES,
  EVENT_PAYLOADS,
  EVENT_SCHEMA_VERSION,
  EVENT_TYPES,
  EventEnvelope,
  FILE_UNAVAILABLE_REASONS,
  Item,
  MEMORY_REASON_CODES,
  Model,
  PROCESS_ERROR_CODES,
  PROTOCOL_VERSION,
  Provider,
  PROVIDER_FAILURE_CATEGORIES,
  RPC_ERROR_CODES,
  RUN_REASON_CODES,
  RunSummary,
  RunWithItems,
  SERVER_NAME,
  Thread,
  TOOL_IDS,
  Turn,
  Workspace,
} from "@daedalus/protocol";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest as Json;
}

/** Shapes that many results share; the manifest defines each once and refers to it. */
const SHARED_SCHEMAS: Record<string, z.ZodType> = {
  Workspace,
  Thread,
  Branch,
  Item,
  RunSummary,
  RunWithItems,
  Turn,
  Provider,
  Model,
  EventEnvelope,
};

/**
 * The output-side schemas (shared shapes, method results, event payloads) through
 * one registry, so shared shapes become `#/definitions/<Name>` references.
 */
function outputDefinitions(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SHARED_SCHEMAS)) registry.add(schema, { id });
  for (const [name, spec] of Object.entries(ALL_METHODS)) {
    registry.add(spec.result, { id: `result:${name}` });
  }
  for (const type of EVENT_TYPES) registry.add(EVENT_PAYLOADS[type], { id: `event:${type}` });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    unrepresentable: "any",
    uri: (id) => `#/definitions/${id}`,
  }) as unknown as { schemas: Record<string, Record<string, Json>> };
  const out: Record<string, Json> = {};
  for (const [id, { $schema: _schema, $id: _id, ...rest }] of Object.entries(schemas)) {
    out[id] = rest;
  }
  return out;
}

/**
 * The manifest: protocol version, every method with the JSON Schema of its params
 * and result, every event type with its payload schema, tool ids, error codes and
 * reason codes.
 *
 * @returns the manifest as plain JSON
 */
export function buildManifest(): Json {
  const outputs = outputDefinitions();
  const methods: Record<string, Json> = {};
  for (const [name, spec] of Object.entries(ALL_METHODS)) {
    methods[name] = {
      description: spec.description,
      params: jsonSchema(spec.params, "input"),
      result: outputs[`result:${name}`] ?? null,
    };
  }
  const events: Record<string, Json> = {};
  for (const type of EVENT_TYPES) events[type] = outputs[`event:${type}`] ?? null;
  const definitions: Record<string, Json> = {};
  for (const id of Object.keys(SHARED_SCHEMAS)) definitions[id] = outputs[id] ?? null;
  return {
    protocolVersion: PROTOCOL_VERSION,
    eventSchemaVersion: EVENT_SCHEMA_VERSION,
    serverName: SERVER_NAME,
    transport: {
      http: "POST /rpc",
      websocket: "GET /ws",
      initializeMethod: "initialize",
      eventNotification: "event",
    },
    methods,
    events,
    definitions,
    tools: [...TOOL_IDS],
    errors: { ...RPC_ERROR_CODES },
    reasonCodes: {
      error: [...new Set(ERROR_REASON_CODES)],
      run: [...new Set(RUN_REASON_CODES)],
      memory: [...MEMORY_REASON_CODES],
      providerFailureCategories: [...PROVIDER_FAILURE_CATEGORIES],
      fileUnavailable: [...FILE_UNAVAILABLE_REASONS],
      process: [...PROCESS_ERROR_CODES],
    },
  };
}

/**
 * Serializes a manifest the way it is checked in: two-space JSON and a final newline.
 *
 * @param manifest the manifest
 * @returns the file text
 */
export function formatManifest(manifest: Json): string {
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
