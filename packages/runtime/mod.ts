/**
 * @daedalus/runtime — providers, scheduler, agent loop, services and the HTTP /
 * WebSocket server, plus `main.ts`, the `daedalus` command.
 *
 * Imports `@daedalus/protocol`, `@daedalus/storage` and `@daedalus/tools`.
 *
 * @module
 */
export { RUNTIME_VERSION } from "./version.ts";
