/**
 * Reading only the head of a file the runtime does not control (instruction files,
 * SKILL.md): a file larger than the limit costs no more than the limit.
 *
 * @module
 */

/**
 * Reads at most `limit` bytes from the start of a file.
 *
 * @param path the file
 * @param limit the most bytes to read (read one more than a cap to tell "over the cap")
 * @returns the bytes read; shorter than `limit` when the file is
 */
export async function readAtMost(path: string, limit: number): Promise<Uint8Array> {
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(limit);
  let length = 0;
  while (length < limit) {
    const count = await file.read(buffer.subarray(length));
    if (count === null) break;
    length += count;
  }
  return buffer.subarray(0, length);
}
