/**
 * Test fixture: `config_writer.ts <config path> <first generation>` rewrites the config
 * with {@linkcode bigConfig} generations forever, printing "writing" after its first
 * write, until it is killed.
 *
 * File writes are slowed down to 4 KiB chunks with a pause between them, like a slow
 * disk, so that a kill at a random moment often lands in the middle of writing a file.
 *
 * @module
 */
import { writeConfig } from "../config_file.ts";
import { bigConfig } from "./big_config.ts";

const CHUNK_BYTES = 4096;
const PAUSE_MS = 1;

const [path, first] = Deno.args;
if (path === undefined || first === undefined) {
  throw new TypeError("usage: config_writer.ts <config path> <first generation>");
}

const write = Deno.FsFile.prototype.write;
Deno.FsFile.prototype.write = async function slowWrite(data: Uint8Array): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  return await write.call(this, data.subarray(0, CHUNK_BYTES));
};

let generation = Number(first);
await writeConfig(path, bigConfig(generation));
console.log("writing");
while (true) {
  generation += 1;
  await writeConfig(path, bigConfig(generation));
}
