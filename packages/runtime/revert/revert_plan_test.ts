import assert from "node:assert/strict";
import { type CurrentFile, type PlanCapture, planRevert } from "./revert_plan.ts";

const missing: PlanCapture = { exists: false, revision: null };
const text = (body: string): PlanCapture => ({
  exists: true,
  revision: `sha256:${body}`,
  text: body,
});
const now = (capture: PlanCapture): CurrentFile => ({
  exists: capture.exists,
  revision: capture.revision,
});

const cases: {
  name: string;
  before: PlanCapture;
  after: PlanCapture;
  current: CurrentFile;
  withheld?: boolean;
  outcome: string;
  reason?: string;
}[] = [
  {
    name: "modified",
    before: text("a"),
    after: text("b"),
    current: now(text("b")),
    outcome: "reverted",
  },
  {
    name: "created",
    before: missing,
    after: text("b"),
    current: now(text("b")),
    outcome: "reverted",
  },
  {
    name: "deleted",
    before: text("a"),
    after: missing,
    current: now(missing),
    outcome: "reverted",
  },
  {
    name: "changed since",
    before: text("a"),
    after: text("b"),
    current: now(text("c")),
    outcome: "conflict",
    reason: "changed_since",
  },
  {
    name: "created, then removed by someone",
    before: text("a"),
    after: text("b"),
    current: now(missing),
    outcome: "conflict",
    reason: "changed_since",
  },
  {
    name: "already restored",
    before: text("a"),
    after: text("b"),
    current: now(text("a")),
    outcome: "unchanged",
  },
  {
    name: "too large",
    before: { exists: true, revision: "sha256:big", encoding: "utf-8" },
    after: text("b"),
    current: now(text("b")),
    outcome: "not_revertible",
    reason: "capture_too_large",
  },
  {
    name: "binary",
    before: { exists: true, revision: "sha256:bin", encoding: "binary" },
    after: text("b"),
    current: now(text("b")),
    outcome: "not_revertible",
    reason: "binary_content",
  },
  {
    name: "withheld",
    before: text("secret"),
    after: text("b"),
    current: now(text("b")),
    withheld: true,
    outcome: "not_revertible",
    reason: "protected_content",
  },
];

for (const c of cases) {
  Deno.test(`planRevert: ${c.name} → ${c.outcome}`, () => {
    const [planned, ...rest] = planRevert(
      [{ path: "f.txt", before: c.before, after: c.after }],
      new Map([["f.txt", c.current]]),
      () => c.withheld ?? false,
    );
    assert.equal(rest.length, 0, "one change gives one planned file");
    assert.equal(planned.outcome, c.outcome, `outcome of ${c.name}`);
    assert.equal("reason" in planned ? planned.reason : undefined, c.reason, `reason of ${c.name}`);
    if (planned.outcome === "reverted") {
      assert.deepEqual(planned.target, c.before, "the target is the before-state");
    }
  });
}

Deno.test("planRevert: several changes of a path collapse to first before / last after", () => {
  const plan = planRevert(
    [
      { path: "a", before: missing, after: text("1") },
      { path: "b", before: text("x"), after: text("y") },
      { path: "a", before: text("1"), after: text("2") },
    ],
    new Map([["a", now(text("2"))], ["b", now(text("y"))]]),
  );
  assert.deepEqual(plan.map((file) => file.path), ["a", "b"], "newest change first");
  const [a] = plan;
  assert.equal(a.outcome, "reverted");
  if (a.outcome !== "reverted") return;
  assert.deepEqual(a.target, missing, "a file the turn created goes back to missing");
  assert.deepEqual(a.expected, text("2"), "it must still hold the last after-state");
});

Deno.test("planRevert: forced, a file changed since is reverted and says so", () => {
  const [forced] = planRevert(
    [{ path: "f", before: text("a"), after: text("b") }],
    new Map([["f", now(text("hand"))]]),
    () => false,
    true,
  );
  assert.equal(forced.outcome, "reverted", "force overrides the conflict");
  assert.equal("reason" in forced ? forced.reason : undefined, "changed_since");
  const [binary] = planRevert(
    [{
      path: "g",
      before: { exists: true, revision: "sha256:x", encoding: "binary" },
      after: text("b"),
    }],
    new Map([["g", now(text("hand"))]]),
    () => false,
    true,
  );
  assert.equal(binary.outcome, "not_revertible", "force cannot write a capture it does not have");
});

Deno.test("planRevert: no changes → nothing to do; a file not in `current` counts as missing", () => {
  assert.deepEqual(planRevert([], new Map()), []);
  const [created] = planRevert([{ path: "n", before: missing, after: text("z") }], new Map());
  assert.equal(created.outcome, "unchanged", "a created file already gone is restored");
});
