/**
 * @daedalus/tools — the tool contract and the built-in file, search and process
 * tools. Tools get a ToolContext from the runtime and never touch storage.
 *
 * Imports only `@daedalus/protocol`. Nothing is exported yet: the tools land with
 * their own issue.
 *
 * @module
 */
export {};
