/**
 * Imported first by the one-shot commands (`run`, `threads`, `show`): zod parses without
 * compiling a parser per object schema.
 *
 * zod compiles an object schema's parser with `new Function` the first time the schema
 * parses, which pays off over the thousands of messages a long-running `serve` parses but
 * not in a process that parses a few dozen and exits (measured on a one-tool-call `daedalus
 * run`: 37 ms less to the first model request, 32 ms less to exit). zod reads the setting
 * when a schema is constructed, so this must run before any schema module is evaluated,
 * which is why it is its own module loaded ahead of the command's.
 *
 * @module
 */
import { z } from "zod";

z.config({ jitless: true });
