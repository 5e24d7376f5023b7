import assert from "node:assert/strict";
import {
  fixtureId,
  insertItem,
  insertRun,
  insertThread,
  insertTurn,
  openTempStateDatabase,
} from "./_fixtures.ts";
import { readReferencedAttachmentPaths } from "./attachment_refs.ts";

Deno.test("readReferencedAttachmentPaths lists the paths items record, nothing else", async () => {
  await using temp = await openTempStateDatabase();
  const { db } = temp;
  const thread = fixtureId("thread", 1);
  const turn = fixtureId("turn", 1);
  const run = fixtureId("run", 1);
  insertThread(db, { id: thread });
  insertTurn(db, { id: turn, threadId: thread, branchId: fixtureId("branch", 1), ordinal: 1 });
  insertRun(db, { id: run, turnId: turn });
  const attachment = (path: string) => ({
    kind: "image",
    path,
    mimeType: "image/png",
    size: 1,
    sha256: "0".repeat(64),
  });
  insertItem(db, {
    id: fixtureId("item", 1),
    turnId: turn,
    runId: run,
    ordinal: 1,
    role: "user",
    data: { attachments: [attachment("/h/attachments/a.png"), attachment("/h/attachments/b.png")] },
  });
  insertItem(db, {
    id: fixtureId("item", 2),
    turnId: turn,
    runId: run,
    ordinal: 2,
    role: "user",
    data: { attachments: [attachment("/h/attachments/a.png")] },
  });
  // Not attachments: other data, a malformed value.
  insertItem(db, { id: fixtureId("item", 3), turnId: turn, runId: run, ordinal: 3 });
  insertItem(db, {
    id: fixtureId("item", 4),
    turnId: turn,
    runId: run,
    ordinal: 4,
    data: { attachments: "not a list", path: "/h/attachments/c.png" },
  });
  assert.deepEqual(
    [...readReferencedAttachmentPaths(db)].sort(),
    ["/h/attachments/a.png", "/h/attachments/b.png"],
  );
});
