/**
 * The schemas of the reason-code vocabularies listed in `reason_codes.ts`.
 *
 * @module
 */
import { z } from "zod";
import {
  ERROR_REASON_CODES,
  FILE_UNAVAILABLE_REASONS,
  MEMORY_REASON_CODES,
  PROCESS_ERROR_CODES,
  PROVIDER_FAILURE_CATEGORIES,
  RUN_REASON_CODES,
} from "../reason_codes.ts";
import { RUN_FAILURE_CLASSES } from "../failure_classes.ts";
import { docs } from "./docs.ts";

/** The codes without repeats, typed as the non-empty tuple `z.enum` wants. */
function distinct<T extends string>(codes: readonly T[]): [T, ...T[]] {
  return [...new Set(codes)] as [T, ...T[]];
}

export const ProviderFailureCategory = z.enum(PROVIDER_FAILURE_CATEGORIES).register(docs, {
  description: "A provider failure category, one of `PROVIDER_FAILURE_CATEGORIES`.",
});

export const RunReasonCode = z.enum(distinct(RUN_REASON_CODES)).register(docs, {
  description: "Why a Run settled the way it did, one of `RUN_REASON_CODES`; null on a " +
    "completed Run.",
});

export const RunFailureClass = z.enum(RUN_FAILURE_CLASSES).register(docs, {
  description: "What a failed Run asks of the user, one of `RUN_FAILURE_CLASSES`, derived " +
    "from its reason code by `runFailureClass`; null on a completed or cancelled Run.",
});

export const MemoryReasonCode = z.enum(MEMORY_REASON_CODES).register(docs, {
  description: "A memory reason code, one of `MEMORY_REASON_CODES`.",
});

export const FileUnavailableReason = z.enum(FILE_UNAVAILABLE_REASONS).register(docs, {
  description: "Why a file preview or change is unavailable, one of `FILE_UNAVAILABLE_REASONS`.",
});

export const ProcessErrorCode = z.enum(PROCESS_ERROR_CODES).register(docs, {
  description: "A process error code, one of `PROCESS_ERROR_CODES`.",
});

export const ErrorReasonCode = z.enum(distinct(ERROR_REASON_CODES)).register(docs, {
  description: "The reason code of a JSON-RPC error, one of `ERROR_REASON_CODES`.",
});
