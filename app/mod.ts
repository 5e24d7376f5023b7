/**
 * @daedalus/app — the installable Preact PWA served by the runtime. It talks to
 * the runtime only through `@daedalus/client`.
 *
 * Nothing is exported yet: the app lands with its own issue.
 *
 * @module
 */
export {};
