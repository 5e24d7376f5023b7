/**
 * The description of each public schema, registered beside its definition with
 * `.register(docs, { description })`. `deno task protocol:generate` makes it the doc
 * comment of the schema's type and typed export in `types.gen.ts`. A registry of its own
 * (not zod's global one) keeps descriptions out of the manifest's JSON Schemas.
 *
 * @module
 */
import { z } from "zod";

/** Descriptions of the public schemas. */
export const docs = z.registry<{ description: string }>();
