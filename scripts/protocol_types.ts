/**
 * Renders `packages/protocol/types.gen.ts` from the zod schemas of @daedalus/protocol:
 * for every public schema a plain TypeScript type and an export of the schema typed as
 * `Schema<ThatType>`, plus the payload type of each event and the params and result type
 * of each method. Types are printed from the JSON Schema zod derives, so they say what
 * the manifest says; the typed exports make `deno check` fail if they ever disagree with
 * `z.infer`.
 *
 * This is the protocol package's own build step, so it reads the package's internal
 * schemas (`_schemas/`) that no other code may import.
 *
 * @module
 */
import { z } from "zod";
import * as publicSchemas from "../packages/protocol/_schemas/public.ts";
import { docs } from "../packages/protocol/_schemas/docs.ts";
import { EVENT_PAYLOADS } from "../packages/protocol/_schemas/events.ts";
import { ALL_METHODS } from "../packages/protocol/_schemas/methods.ts";

/** Where the generated file lives, relative to the repository root. */
export const TYPES_PATH = "packages/protocol/types.gen.ts";

/** A JSON Schema object as zod emits it. */
export type JsonSchema = { [keyword: string]: unknown };

const LINE_WIDTH = 100;
const INDENT = "  ";

/** The map types that hold the unnamed schemas, by the prefix of their registry id. */
const MAPS = {
  event: "EventPayloadMap",
  params: "MethodParamsMap",
  result: "MethodResultMap",
} as const;
type MapPrefix = keyof typeof MAPS;

const MAP_DOCS: Record<MapPrefix, string> = {
  event: "The payload of each journal event type.",
  params: "The params of each method, as sent and as validated (they are the same).",
  result: "The result of each method.",
};

/** The schemas to print: the public ones by name, and each map's entries by key. */
interface Catalog {
  /** Every schema under its id: the public name, or `<map prefix>:<key>`. */
  registry: z.core.$ZodRegistry<{ id: string }>;
  /** The public schemas by name, in the order they are printed. */
  named: [string, z.ZodType][];
  /** The entries of each map type, by key. */
  entries: Record<MapPrefix, [string, z.ZodType][]>;
}

/**
 * Renders the whole generated file.
 *
 * @returns the text of `types.gen.ts`
 * @throws {Error} when a public schema has no description, two names share one schema
 *   object, a method's params differ between zod's input and output, or zod emits JSON
 *   Schema this printer does not know
 */
export function renderTypes(): string {
  const catalog = collectSchemas();
  const output = jsonSchemas(catalog.registry, "output");
  assertParamsSameBothWays(catalog, output, jsonSchemas(catalog.registry, "input"));
  const named = catalog.named.map(([name, schema]) => renderNamed(name, schema, output));
  const maps = (Object.keys(MAPS) as MapPrefix[]).map((prefix) =>
    renderMap(prefix, catalog, output)
  );
  return [HEADER, ...named, ...maps].join("\n");
}

function collectSchemas(): Catalog {
  const registry = z.registry<{ id: string }>();
  const named = Object.entries(publicSchemas) as [string, z.ZodType][];
  for (const [name, schema] of named) {
    const other = registry.get(schema)?.id;
    if (other) throw new Error(`${name} and ${other} are one schema object; give each its own`);
    registry.add(schema, { id: name });
  }
  const entries: Record<MapPrefix, [string, z.ZodType][]> = {
    event: Object.entries(EVENT_PAYLOADS),
    params: Object.entries(ALL_METHODS).map(([name, spec]) => [name, spec.params]),
    result: Object.entries(ALL_METHODS).map(([name, spec]) => [name, spec.result]),
  };
  for (const prefix of Object.keys(MAPS) as MapPrefix[]) {
    for (const [key, schema] of entries[prefix]) {
      // A result that is a public schema, or shared by several methods, keeps its first id.
      if (!registry.has(schema)) registry.add(schema, { id: `${prefix}:${key}` });
    }
  }
  return { registry, named, entries };
}

/** A public schema's type and its export typed by it, both with its description. */
function renderNamed(name: string, schema: z.ZodType, output: Record<string, JsonSchema>): string {
  const description = docs.get(schema)?.description;
  if (!description) {
    throw new Error(`${name} has no description: add .register(docs, { description })`);
  }
  const head = `export type ${name} = `;
  const type = printType(definition(output, name), "", head.length, 1);
  return docComment(description, "") + joinHead(head, type) + ";\n" +
    docComment(description, "") + typedExport(name);
}

/** One map type: each key's type, by the public name when the schema has one. */
function renderMap(
  prefix: MapPrefix,
  catalog: Catalog,
  output: Record<string, JsonSchema>,
): string {
  const lines = catalog.entries[prefix].map(([key, schema]) => {
    const id = catalog.registry.get(schema)?.id ?? "";
    const head = `${INDENT}${propertyKey(key)}: `;
    const type = id in publicSchemas
      ? id
      : printType(definition(output, id), INDENT, head.length, 1);
    return `${joinHead(head, type)};\n`;
  });
  return docComment(MAP_DOCS[prefix], "") +
    `export type ${MAPS[prefix]} = {\n${lines.join("")}};\n`;
}

const HEADER =
  `// Generated by \`deno task protocol:generate\` (scripts/protocol_types.ts) from the zod
// schemas in _schemas/. Do not edit: change the schemas and regenerate.
/**
 * The type and the typed schema of every public message, and the payload, params and
 * result types of every event and method — generated from the zod schemas, which stay
 * their single definition.
 *
 * @module
 */
import type { Schema } from "./schema.ts";
import * as schemas from "./_schemas/public.ts";
`;

function jsonSchemas(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: "input" | "output",
): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => id }) as unknown as {
    schemas: Record<string, JsonSchema>;
  };
  return schemas;
}

function definition(schemas: Record<string, JsonSchema>, id: string): JsonSchema {
  const found = schemas[id];
  if (!found) throw new Error(`zod emitted no JSON Schema for ${id}`);
  const { $schema: _schema, $id: _id, ...rest } = found;
  return rest;
}

/** One params type serves `ParamsOf` and `ValidParamsOf`, which holds while zod agrees. */
function assertParamsSameBothWays(
  catalog: Catalog,
  output: Record<string, JsonSchema>,
  input: Record<string, JsonSchema>,
): void {
  for (const [name, schema] of catalog.entries.params) {
    const id = catalog.registry.get(schema)?.id ?? "";
    if (JSON.stringify(output[id]) !== JSON.stringify(input[id])) {
      throw new Error(
        `params of ${name} differ between z.input and z.output (a default or transform?); ` +
          "teach scripts/protocol_types.ts to emit a separate input type",
      );
    }
  }
}

/** The TypeScript name a `$ref` stands for. */
function refName(ref: string): string {
  const colon = ref.indexOf(":");
  if (colon < 0) return ref;
  const prefix = ref.slice(0, colon) as MapPrefix;
  if (!(prefix in MAPS)) throw new Error(`unknown reference ${ref}`);
  return `${MAPS[prefix]}[${JSON.stringify(ref.slice(colon + 1))}]`;
}

/**
 * Prints one JSON Schema as a TypeScript type, formatted as `deno fmt` leaves it.
 *
 * @param schema the JSON Schema
 * @param indent the indentation of the line the type starts on
 * @param column how many characters precede the type on that line
 * @param tail how many characters follow it (`;`)
 * @returns the type text
 */
export function printType(
  schema: JsonSchema,
  indent: string,
  column: number,
  tail: number,
): string {
  assertUnderstood(schema);
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  const members = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(members)) {
    return printUnion(members as JsonSchema[], indent, column, tail);
  }
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    return printUnion(schema.enum.map((value) => ({ const: value })), indent, column, tail);
  }
  if (Array.isArray(schema.type)) {
    const each = schema.type.map((type) => ({ ...schema, type }));
    return printUnion(each, indent, column, tail);
  }
  switch (schema.type) {
    case "object":
      return printObject(schema, indent);
    case "array":
      return printArray(schema, indent, column, tail);
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case undefined:
      if (Object.keys(schema).every((keyword) => ANNOTATIONS.has(keyword))) return "unknown";
  }
  throw new Error(`cannot print JSON Schema ${JSON.stringify(schema).slice(0, 200)}`);
}

/** Keywords that only constrain values or annotate them: the type stays the same. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "propertyNames",
]);

/** Keywords this printer turns into types; any other keyword stops the generator. */
const UNDERSTOOD = new Set([
  ...ANNOTATIONS,
  "$ref",
  "anyOf",
  "oneOf",
  "const",
  "enum",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
]);

function assertUnderstood(schema: JsonSchema): void {
  const unknown = Object.keys(schema).find((keyword) => !UNDERSTOOD.has(keyword));
  if (unknown) {
    throw new Error(`cannot print JSON Schema with "${unknown}": ${JSON.stringify(schema)}`);
  }
}

function printUnion(
  members: JsonSchema[],
  indent: string,
  column: number,
  tail: number,
): string {
  const inner = indent + INDENT;
  const flat = members.map((member) => printType(member, indent, 0, 0));
  const oneLine = flat.join(" | ");
  if (!oneLine.includes("\n") && column + oneLine.length + tail <= LINE_WIDTH) return oneLine;
  const lines = members.map((member) => `\n${inner}| ${printType(member, inner, 0, 0)}`);
  return lines.join("");
}

function printArray(schema: JsonSchema, indent: string, column: number, tail: number): string {
  if (typeof schema.items !== "object" || schema.items === null) {
    throw new Error(`cannot print array schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
  const items = schema.items as JsonSchema;
  const union = Array.isArray(items.anyOf ?? items.oneOf ?? items.enum ?? items.type);
  const item = printType(items, indent, column + (union ? 1 : 0), tail + (union ? 3 : 2));
  return union ? `(${item})[]` : `${item}[]`;
}

function printObject(schema: JsonSchema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(schema.required as string[] | undefined);
  const extra = schema.additionalProperties;
  const keys = schema.propertyNames as JsonSchema | undefined;
  if (keys && (keys.type !== "string" || "enum" in keys || "const" in keys)) {
    throw new Error(`cannot print record keys ${JSON.stringify(keys)}: only string keys`);
  }
  const inner = indent + INDENT;
  const index = extra === false
    ? null
    : extra === undefined || extra === true || Object.keys(extra as object).length === 0
    ? "unknown"
    : printType(extra as JsonSchema, inner, 0, 0);
  if (Object.keys(properties).length === 0) {
    return index === null ? "Record<string, never>" : `{ [key: string]: ${index} }`;
  }
  const lines = Object.entries(properties).map(([key, value]) => {
    const head = `${inner}${propertyKey(key)}${required.has(key) ? "" : "?"}: `;
    return `${joinHead(head, printType(value, inner, head.length, 1))};\n`;
  });
  if (index !== null) lines.push(`${inner}[key: string]: ${index};\n`);
  return `{\n${lines.join("")}${indent}}`;
}

/** The schema under its public name, typed by the generated type of that name. */
function typedExport(name: string): string {
  const head = `export const ${name}: Schema<${name}> =`;
  const value = `schemas.${name};`;
  const oneLine = `${head} ${value}`;
  return (oneLine.length <= LINE_WIDTH ? oneLine : `${head}\n${INDENT}${value}`) + "\n";
}

/** `head` then `type`; a type that starts on its own line gets no space before it. */
function joinHead(head: string, type: string): string {
  return type.startsWith("\n") ? head.trimEnd() + type : head + type;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/** A JSDoc comment, on one line when it fits, wrapped at the line width otherwise. */
function docComment(text: string, indent: string): string {
  const single = `${indent}/** ${text} */`;
  if (single.length <= LINE_WIDTH) return single + "\n";
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && `${indent} * ${line} ${word}`.length > LINE_WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join("")}${indent} */\n`;
}

/**
 * Names the first difference between the generated and the checked-in file: the line,
 * and the declaration it belongs to.
 *
 * @param expected the generated text
 * @param actual the checked-in text
 * @returns a description such as `line 120, in Thread: expected "…", found "…"`, or
 *   null when the texts are equal
 */
export function describeTypesDifference(expected: string, actual: string): string | null {
  if (expected === actual) return null;
  const want = expected.split("\n");
  const have = actual.split("\n");
  let line = 0;
  while (line < want.length && want[line] === have[line]) line++;
  let declaration = "";
  for (let i = line; i >= 0 && !declaration; i--) {
    const match = /^export (?:type|const) ([\w$]+)/.exec(want[i] ?? "");
    if (match) declaration = `, in ${match[1]}`;
  }
  const show = (lines: string[]) =>
    line >= lines.length - 1 && !lines[line]
      ? "end of file"
      : JSON.stringify((lines[line] ?? "").trim().slice(0, 80));
  return `line ${line + 1}${declaration}: expected ${show(want)}, found ${show(have)}`;
}
