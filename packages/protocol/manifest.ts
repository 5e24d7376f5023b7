/**
 * The machine-readable protocol manifest (`protocol/runtime-protocol.json`): every
 * method with the JSON Schema of its params and result, every event type with its
 * payload schema, tool ids, error codes and reason codes, derived from the zod schemas.
 *
 * @module
 */
import { z } from "zod";
import { EVENT_SCHEMA_VERSION, PROTOCOL_VERSION, SERVER_NAME } from "./version.ts";
import { TOOL_IDS } from "./enums.ts";
import { RPC_ERROR_CODES } from "./errors.ts";
import {
  ERROR_REASON_CODES,
  FILE_UNAVAILABLE_REASONS,
  MEMORY_REASON_CODES,
  PROCESS_ERROR_CODES,
  PROVIDER_FAILURE_CATEGORIES,
  RUN_REASON_CODES,
} from "./reason_codes.ts";
import { ALL_METHODS } from "./_schemas/methods.ts";
import { EVENT_PAYLOADS } from "./_schemas/events.ts";
import { CANONICAL_EVENT_SCHEMAS } from "./_schemas/canonical/event.ts";
import {
  Branch,
  EventEnvelope,
  Item,
  Model,
  Provider,
  RunSummary,
  RunWithItems,
  Thread,
  Turn,
  Workspace,
} from "./_schemas/public.ts";

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | {
  [key: string]: JsonValue;
};

/** The protocol manifest; every JSON Schema in it is draft 2020-12. */
export interface ProtocolManifest {
  /** {@linkcode PROTOCOL_VERSION}. */
  protocolVersion: number;
  /** {@linkcode EVENT_SCHEMA_VERSION}. */
  eventSchemaVersion: number;
  /** {@linkcode SERVER_NAME}. */
  serverName: string;
  /** Where the server listens for calls and pushes events. */
  transport: {
    http: string;
    websocket: string;
    initializeMethod: string;
    eventNotification: string;
  };
  /** Each method's description, params schema (as sent) and result schema. */
  methods: { [name: string]: { description: string; params: JsonValue; result: JsonValue } };
  /** Each event type's payload schema. */
  events: { [type: string]: JsonValue };
  /**
   * Each canonical event type's schema: what the gateway's Dify and AG-UI endpoints
   * serialize (seed 002 §3.1).
   */
  canonicalEvents: { [type: string]: JsonValue };
  /** Shapes that many results share, referred to as `#/definitions/<Name>`. */
  definitions: { [name: string]: JsonValue };
  /** {@linkcode TOOL_IDS}. */
  tools: string[];
  /** {@linkcode RPC_ERROR_CODES}. */
  errors: { [name: string]: number };
  /** The reason-code vocabularies, without repeats. */
  reasonCodes: {
    error: string[];
    run: string[];
    memory: string[];
    providerFailureCategories: string[];
    fileUnavailable: string[];
    process: string[];
  };
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonValue {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest as JsonValue;
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
function outputDefinitions(): Record<string, JsonValue> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SHARED_SCHEMAS)) registry.add(schema, { id });
  for (const [name, spec] of Object.entries(ALL_METHODS)) {
    registry.add(spec.result, { id: `result:${name}` });
  }
  for (const [type, schema] of Object.entries(EVENT_PAYLOADS)) {
    registry.add(schema, { id: `event:${type}` });
  }
  for (const [type, schema] of Object.entries(CANONICAL_EVENT_SCHEMAS)) {
    registry.add(schema, { id: `canonical:${type}` });
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    unrepresentable: "any",
    uri: (id) => `#/definitions/${id}`,
  }) as unknown as { schemas: Record<string, Record<string, JsonValue>> };
  const out: Record<string, JsonValue> = {};
  for (const [id, { $schema: _schema, $id: _id, ...rest }] of Object.entries(schemas)) {
    out[id] = rest;
  }
  return out;
}

/**
 * Builds the protocol manifest from the schemas. Pure: the same schemas always give the
 * same manifest, which is what `protocol/runtime-protocol.json` holds.
 *
 * @returns the manifest as plain JSON
 * @example
 * ```ts
 * import { buildProtocolManifest } from "@daedalus/protocol";
 *
 * const manifest = buildProtocolManifest();
 * console.log(Object.keys(manifest.methods).length); // 33
 * ```
 */
export function buildProtocolManifest(): ProtocolManifest {
  const outputs = outputDefinitions();
  const methods: ProtocolManifest["methods"] = {};
  for (const [name, spec] of Object.entries(ALL_METHODS)) {
    methods[name] = {
      description: spec.description,
      params: jsonSchema(spec.params, "input"),
      result: outputs[`result:${name}`] ?? null,
    };
  }
  const events: Record<string, JsonValue> = {};
  for (const type of Object.keys(EVENT_PAYLOADS)) events[type] = outputs[`event:${type}`] ?? null;
  const canonicalEvents: Record<string, JsonValue> = {};
  for (const type of Object.keys(CANONICAL_EVENT_SCHEMAS)) {
    canonicalEvents[type] = outputs[`canonical:${type}`] ?? null;
  }
  const definitions: Record<string, JsonValue> = {};
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
    canonicalEvents,
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
