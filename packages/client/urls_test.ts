import assert from "node:assert/strict";
import { httpRpcUrl, runtimeBaseUrl, webSocketUrl } from "./urls.ts";

Deno.test("the ws URL is derived from the base URL: ws for http, wss for https", () => {
  assert.equal(webSocketUrl("http://127.0.0.1:7420"), "ws://127.0.0.1:7420/ws");
  assert.equal(webSocketUrl("https://daedalus.local/"), "wss://daedalus.local/ws");
  assert.equal(webSocketUrl("http://127.0.0.1:7420/base"), "ws://127.0.0.1:7420/base/ws");
  assert.equal(webSocketUrl("ws://127.0.0.1:7420"), "ws://127.0.0.1:7420/ws");
});

Deno.test("the login URL's #token fragment and query never reach the endpoints", () => {
  assert.equal(webSocketUrl("http://127.0.0.1:7420/?x=1#token=secret"), "ws://127.0.0.1:7420/ws");
  assert.equal(httpRpcUrl("http://127.0.0.1:7420/#token=secret"), "http://127.0.0.1:7420/rpc");
});

Deno.test("a base URL that is not http(s) or ws(s) is refused", () => {
  assert.throws(() => runtimeBaseUrl("file:///tmp/x"), TypeError);
  assert.throws(() => runtimeBaseUrl("not a url"), TypeError);
});
