import assert from "node:assert/strict";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { RunOutcome } from "./RunOutcome.tsx";

Deno.test("run outcome: completed shows nothing; failed/cancelled explain and show the code", () => {
  inEnglish(() => {
    assert.equal(RunOutcome({ run: { status: "completed", reasonCode: null } }), null);
    const failed = RunOutcome({ run: { status: "failed", reasonCode: "provider_rate_limit" } })!;
    assert.equal((failed.props as { role: string }).role, "alert");
    assert.match(text(failed), /The run failed.*rate-limiting.*provider_rate_limit/);
    const cancelled = RunOutcome({ run: { status: "cancelled", reasonCode: "cancelled" } })!;
    assert.equal((cancelled.props as { role: string }).role, "status");
  });
  inLocale("zh-CN", () => {
    const zh = RunOutcome({ run: { status: "cancelled", reasonCode: "cancelled" } });
    assert.match(text(zh), /运行已停止.*cancelled/);
    const unknown = RunOutcome({ run: { status: "failed", reasonCode: null } })!;
    assert.match(text(unknown), /没有记录原因/);
  });
});

Deno.test("run outcome: a failed run shows the provider's stored message next to the reason", () => {
  inEnglish(() => {
    const failed = RunOutcome({
      run: {
        status: "failed",
        reasonCode: "provider_authentication",
        errorMessage: "The provider answered HTTP 401: Incorrect API key provided: sk-wro***.",
      },
    })!;
    assert.match(
      text(failed),
      /rejected the credentials.*Details:.*Incorrect API key provided.*provider_authentication/,
    );
    const cut = RunOutcome({ run: { status: "failed", reasonCode: "model_output_limit" } })!;
    assert.match(text(cut), /output limit.*model_output_limit/);
    assert.doesNotMatch(text(cut), /Details:/, "no message, no details line");
  });
  inLocale("zh-CN", () => {
    const zh = RunOutcome({
      run: {
        status: "failed",
        reasonCode: "provider_authentication",
        errorMessage: "Incorrect API key",
      },
    });
    assert.match(text(zh), /详情：.*Incorrect API key/);
  });
});
