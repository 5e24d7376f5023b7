/**
 * The gateway's Dify-compatible endpoints as one Hono sub-app, mounted by the runtime at
 * {@linkcode DIFY_PREFIX}: the CORS preflight, the per-key CORS grant, the app-key
 * middleware, then the Dify routes.
 *
 * @module
 */
import { Hono } from "hono";
import type { StateStore } from "@daedalus/storage";
import type { Dispatcher } from "../server/dispatcher.ts";
import { type GatewayEnv, gatewayKeyAuth } from "./key_auth.ts";
import type { GatewayKeyStore } from "./key_store.ts";
import type { KeyRateLimiter } from "./rate_limiter.ts";
import type { ConversationOwners } from "./conversation_owners.ts";
import { difyRoutes } from "./dify_routes.ts";
import { difyReadRoutes } from "./dify_read_routes.ts";
import { difyFileRoutes } from "./dify_files.ts";
import { agUiRefusal, agUiRoutes } from "./ag_ui_routes.ts";
import type { LiveEvents } from "./run_canonical_stream.ts";
import { gatewayCors, gatewayPreflight } from "./cors.ts";
import { redactErrorBodies } from "./error_redaction.ts";

/** Where the Dify-compatible API is served unless config.yaml `gateway.dify_prefix` says otherwise. */
export const DIFY_PREFIX = "/dify/v1";

/** Where the AG-UI endpoint is served. */
export const AG_UI_PATH = "/ag-ui";

/** What {@linkcode difyGatewayApp} needs. */
export interface GatewayAppDeps {
  /** Runs the RPC methods. */
  dispatcher: Dispatcher;
  /** The journal so far. */
  store: StateStore;
  /** Live events. */
  live: LiveEvents;
  /** The app keys. */
  keys: GatewayKeyStore;
  /** The per-key rate limit. */
  limiter: KeyRateLimiter;
  /** Who owns each gateway conversation. */
  owners: ConversationOwners;
  /** Where uploads are stored (`<home>/attachments`). */
  attachmentsDir: string;
  /** Masks the runtime's protected values (keys, secrets) in error texts; default none. */
  redact?: (text: string) => string;
  /** Told each accepted key (to protect it). */
  onKeyAccepted?: (key: string) => void;
}

/**
 * The Dify-compatible sub-app (mount it at {@linkcode DIFY_PREFIX}).
 *
 * @param deps the runtime's parts
 * @returns the sub-app
 */
export function difyGatewayApp(deps: GatewayAppDeps): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  if (deps.redact) app.use("*", redactErrorBodies(deps.redact));
  // Before the key check: a browser's preflight carries no key.
  app.options("*", gatewayPreflight(deps.keys));
  app.use("*", gatewayCors());
  app.use(
    "*",
    gatewayKeyAuth({ keys: deps.keys, limiter: deps.limiter, onKeyAccepted: deps.onKeyAccepted }),
  );
  app.route(
    "/",
    difyRoutes({
      dispatcher: deps.dispatcher,
      store: deps.store,
      live: deps.live,
      owners: deps.owners,
      redact: deps.redact,
    }),
  );
  app.route("/", difyReadRoutes({ dispatcher: deps.dispatcher, owners: deps.owners }));
  app.route("/", difyFileRoutes({ attachmentsDir: deps.attachmentsDir, owners: deps.owners }));
  return app;
}

/**
 * The AG-UI sub-app (mount it at {@linkcode AG_UI_PATH}).
 *
 * @param deps the runtime's parts
 * @returns the sub-app
 */
export function agUiGatewayApp(deps: GatewayAppDeps): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  if (deps.redact) app.use("*", redactErrorBodies(deps.redact));
  // Before the key check: a browser's preflight carries no key.
  app.options("*", gatewayPreflight(deps.keys));
  app.use("*", gatewayCors());
  app.use(
    "*",
    gatewayKeyAuth({
      keys: deps.keys,
      limiter: deps.limiter,
      onKeyAccepted: deps.onKeyAccepted,
      refuse: agUiRefusal,
    }),
  );
  app.route(
    "/",
    agUiRoutes({
      dispatcher: deps.dispatcher,
      store: deps.store,
      live: deps.live,
      owners: deps.owners,
    }),
  );
  return app;
}
