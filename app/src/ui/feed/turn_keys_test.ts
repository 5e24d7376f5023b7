import assert from "node:assert/strict";
import { isImeComposing, listKeyIndex, turnStep } from "./turn_keys.ts";

Deno.test("turn keys: an IME composition is recognised by isComposing or keyCode 229", () => {
  assert.equal(isImeComposing({ isComposing: true, keyCode: 38 }), true);
  assert.equal(isImeComposing({ isComposing: false, keyCode: 229 }), true);
  assert.equal(isImeComposing({ isComposing: false, keyCode: 38 }), false);
  assert.equal(isImeComposing({}), false);
});

Deno.test("turn keys: Alt+ArrowUp/Down step turns, except during composition", () => {
  assert.equal(turnStep({ key: "ArrowUp", altKey: true }), -1);
  assert.equal(turnStep({ key: "ArrowDown", altKey: true }), 1);
  assert.equal(turnStep({ key: "ArrowDown" }), null, "plain arrows scroll");
  assert.equal(turnStep({ key: "ArrowDown", altKey: true, shiftKey: true }), null);
  assert.equal(turnStep({ key: "ArrowUp", altKey: true, ctrlKey: true }), null);
  assert.equal(turnStep({ key: "ArrowUp", altKey: true, metaKey: true }), null);
  assert.equal(turnStep({ key: "ArrowUp", altKey: true, isComposing: true }), null);
  assert.equal(turnStep({ key: "ArrowDown", altKey: true, keyCode: 229 }), null);
  assert.equal(turnStep({ key: "Enter", altKey: true }), null);
});

Deno.test("turn keys: arrows, Home and End move within the list and stop at its ends", () => {
  assert.equal(listKeyIndex({ key: "ArrowDown" }, 0, 3), 1);
  assert.equal(listKeyIndex({ key: "ArrowDown" }, 2, 3), 2);
  assert.equal(listKeyIndex({ key: "ArrowUp" }, 0, 3), 0);
  assert.equal(listKeyIndex({ key: "ArrowUp" }, 2, 3), 1);
  assert.equal(listKeyIndex({ key: "Home" }, 2, 3), 0);
  assert.equal(listKeyIndex({ key: "End" }, 0, 3), 2);
  assert.equal(listKeyIndex({ key: "x" }, 0, 3), null);
  assert.equal(listKeyIndex({ key: "ArrowDown" }, 0, 0), null);
  assert.equal(listKeyIndex({ key: "ArrowDown", isComposing: true }, 0, 3), null);
  assert.equal(listKeyIndex({ key: "End", keyCode: 229 }, 0, 3), null);
  assert.equal(listKeyIndex({ key: "ArrowDown", altKey: true }, 0, 3), null);
});
