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

Deno.test("run outcome: a failed run shows the line of its failure class", () => {
  const cases = [
    ["provider_network", "retryable", /try again.*passing problem/, /暂时性问题/],
    ["loop_detected", "needs_user", /Needs you:/, /需要你处理/],
    ["provider_authentication", "unrecoverable", /will not work by retrying/, /重试也不会成功/],
  ] as const;
  for (const [reasonCode, failureClass, english, chinese] of cases) {
    const run = { status: "failed", reasonCode, failureClass } as const;
    inEnglish(() => {
      const shown = text(RunOutcome({ run }));
      assert.match(shown, english, `${failureClass} line in English: ${shown}`);
      // The class line sits between the reason and the raw code.
      assert.match(shown, new RegExp(`${english.source}.*${reasonCode}`), shown);
    });
    inLocale("zh-CN", () => {
      const shown = text(RunOutcome({ run }));
      assert.match(shown, chinese, `${failureClass} line in zh-CN: ${shown}`);
    });
  }
});

Deno.test("run outcome: no class line when there is no failure to classify", () => {
  inEnglish(() => {
    const lines = /try again —|Needs you:|will not work by retrying/;
    const noClass = text(RunOutcome({ run: { status: "failed", reasonCode: "agent_error" } }));
    assert.doesNotMatch(noClass, lines, "a Run from a runtime without the field");
    const nullClass = text(
      RunOutcome({ run: { status: "failed", reasonCode: "agent_error", failureClass: null } }),
    );
    assert.doesNotMatch(nullClass, lines, "failureClass null");
    const cancelled = text(
      RunOutcome({
        run: { status: "cancelled", reasonCode: "cancelled", failureClass: "retryable" },
      }),
    );
    assert.doesNotMatch(cancelled, lines, "a cancelled Run is not a failure");
    const unknown = text(
      RunOutcome({
        run: {
          status: "failed",
          reasonCode: "agent_error",
          failureClass: "from_a_newer_runtime" as "retryable",
        },
      }),
    );
    assert.doesNotMatch(unknown, /outcome\.class/, "an unknown class shows no raw key");
  });
});

Deno.test("run outcome: an open provider breaker points to Settings › Health", () => {
  inEnglish(() => {
    const open = text(
      RunOutcome({ run: { status: "failed", reasonCode: "provider_circuit_open" } }),
    );
    assert.match(open, /See Settings › Health/);
    const other = text(RunOutcome({ run: { status: "failed", reasonCode: "provider_server" } }));
    assert.doesNotMatch(other, /Settings › Health/, "only a breaker failure points there");
  });
  inLocale("zh-CN", () => {
    const zh = text(RunOutcome({ run: { status: "failed", reasonCode: "provider_circuit_open" } }));
    assert.match(zh, /查看设置 › 运行状况/);
  });
});
