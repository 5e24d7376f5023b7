import assert from "node:assert/strict";
import { takeLoginFragment } from "./session.ts";

Deno.test("a login URL's code is taken out of the fragment, other parameters stay", () => {
  assert.deepEqual(takeLoginFragment("#code=abc"), { code: "abc", hadToken: false, rest: "" });
  assert.deepEqual(takeLoginFragment("#view=x&code=abc"), {
    code: "abc",
    hadToken: false,
    rest: "#view=x",
  });
  assert.deepEqual(takeLoginFragment(""), { code: null, hadToken: false, rest: "" });
  assert.deepEqual(takeLoginFragment("#code="), { code: null, hadToken: false, rest: "" });
});

Deno.test("a legacy #token= is removed and reported, never returned", () => {
  const taken = takeLoginFragment(`#token=${"a".repeat(64)}&x=1`);
  assert.deepEqual(taken, { code: null, hadToken: true, rest: "#x=1" });
  assert.ok(!JSON.stringify(taken).includes("a".repeat(64)));
});
