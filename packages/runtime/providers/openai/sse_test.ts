import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import { SseParser } from "./sse.ts";

function parseAll(pieces: string[], parser = new SseParser()): string[] {
  const events = pieces.flatMap((piece) => parser.push(piece));
  parser.end();
  return events;
}

Deno.test("LF, CRLF and CR all end lines", () => {
  assert.deepEqual(parseAll(["data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n"]), [
    "a",
    "b",
    "c",
    "d",
  ]);
});

Deno.test("any split of the input gives the same events, CR LF split included", () => {
  const stream = ": ping\r\n\r\ndata: one\r\ndata: two\r\n\r\nevent: x\rid: 7\rdata:three\r\r" +
    "data: four\n\n";
  const expected = ["one\ntwo", "three", "four"];
  for (let cut = 0; cut <= stream.length; cut++) {
    assert.deepEqual(
      parseAll([stream.slice(0, cut), stream.slice(cut)]),
      expected,
      `split at ${cut}`,
    );
  }
  assert.deepEqual(parseAll([...stream]), expected, "one character at a time");
});

Deno.test("comments and other fields are skipped; one leading space of a value is removed", () => {
  assert.deepEqual(
    parseAll([":keep-alive\n\nevent: message\nid: 3\nretry: 100\ndata:  two spaces\n\n"]),
    [" two spaces"],
  );
});

Deno.test("an event without data dispatches nothing; an empty data line is an empty event", () => {
  assert.deepEqual(parseAll(["event: ping\n\n", "data\n\n", "data:\n\n"]), ["", ""]);
});

Deno.test("an event cut off by the end of the stream is discarded", () => {
  assert.deepEqual(parseAll(["data: whole\n\ndata: partial\n"]), ["whole"]);
});

Deno.test("an event over the limit is a protocol error, whether terminated or not", () => {
  const parser = new SseParser(20);
  assert.deepEqual(parser.push("data: 12345678901234\n\n"), ["12345678901234"]);
  assert.throws(
    () => parser.push("data: 123456789012345\n\n"),
    (error: unknown) => error instanceof ProviderError && error.category === "protocol",
  );
  const unterminated = new SseParser(20);
  unterminated.push("data: 1234567890");
  assert.throws(
    () => unterminated.push("12345"),
    (error: unknown) => error instanceof ProviderError && error.category === "protocol",
  );
  const manyLines = new SseParser(20);
  assert.throws(
    () => manyLines.push("data: 1234\ndata: 5678\ndata: 9012\n"),
    (error: unknown) => error instanceof ProviderError && error.category === "protocol",
  );
});
