import { assert, assertEquals, assertRejects, assertThrows } from "./_test_assert.ts";
import {
  channelCredentials,
  type ChannelsConfig,
  parseChannelsConfig,
  readChannelsConfig,
  writeChannelsConfig,
} from "./config.ts";
import { ChannelsConfigError } from "./errors.ts";
import { CHANNELS_CONFIG_MAX_BYTES } from "./limits.ts";

const TOKEN = "123456789:AAH_fake-token-for-tests-0123456789";
const VALID: ChannelsConfig = {
  version: 1,
  telegram: {
    enabled: true,
    token: TOKEN,
    apiBaseUrl: "http://127.0.0.1:9999",
    defaultProviderId: "deepseek",
    defaultModelId: "deepseek-chat",
  },
};

Deno.test("channels.yaml: a missing file is no channel; write then read round-trips, 0600", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/channels.yaml`;
    assertEquals(await readChannelsConfig(path), { version: 1 });
    await writeChannelsConfig(path, VALID);
    assertEquals(await readChannelsConfig(path), VALID);
    if (Deno.build.os !== "windows") {
      assertEquals(
        (await Deno.stat(path)).mode! & 0o777,
        0o600,
        "channels.yaml must be owner-only",
      );
    }
    const leftovers = [...Deno.readDirSync(dir)].map((entry) => entry.name);
    assertEquals(leftovers, ["channels.yaml"], "no temp file may stay behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const INVALID: [string, string][] = [
  ["version: 2\n", "version"],
  [
    "version: 1\ntelegram: {enabled: true, token: nope, defaultProviderId: p, defaultModelId: m}\n",
    "telegram.token",
  ],
  [
    `version: 1\ntelegram: {enabled: yes please, token: "${TOKEN}", defaultProviderId: p, defaultModelId: m}\n`,
    "telegram.enabled",
  ],
  [
    `version: 1\ntelegram: {enabled: true, token: "${TOKEN}", proxy: "socks5://x", defaultProviderId: p, defaultModelId: m}\n`,
    "telegram.proxy",
  ],
  [
    `version: 1\ntelegram: {enabled: true, token: "${TOKEN}", apiBaseUrl: "ftp://x", defaultProviderId: p, defaultModelId: m}\n`,
    "telegram.apiBaseUrl",
  ],
  [
    `version: 1\ntelegram: {enabled: true, token: "${TOKEN}", defaultModelId: m}\n`,
    "telegram.defaultProviderId",
  ],
  [
    `version: 1\ntelegram: {enabled: true, token: "${TOKEN}", defaultProviderId: p, defaultModelId: m, extra: 1}\n`,
    "telegram",
  ],
  [
    `version: 1\ntelegram: {enabled: true, token: "${TOKEN}", defaultProviderId: p, defaultModelId: m, defaultAgentId: "Not An Id"}\n`,
    "telegram.defaultAgentId",
  ],
  ["version: 1\nwhatsapp: {}\n", "(root)"],
  ["version: [1\n", "YAML"],
];

for (const [text, where] of INVALID) {
  Deno.test(`channels.yaml: refuses ${JSON.stringify(text.slice(0, 60))} naming ${where}`, () => {
    const error = assertThrows(
      () => parseChannelsConfig(text, "/h/channels.yaml"),
      ChannelsConfigError,
    );
    assertEquals(error.code, "channels_config_invalid");
    assert(error.message.includes(where), `message should name ${where}: ${error.message}`);
    assert(!error.message.includes(TOKEN), "the token must never appear in an error");
  });
}

Deno.test("channels.yaml: defaultAgentId is optional and round-trips", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/channels.yaml`;
    const bound: ChannelsConfig = {
      version: 1,
      telegram: { ...VALID.telegram!, defaultAgentId: "plan" },
    };
    await writeChannelsConfig(path, bound);
    assertEquals(await readChannelsConfig(path), bound);
    assert((await Deno.readTextFile(path)).includes("defaultAgentId: plan"));
    await writeChannelsConfig(path, VALID);
    assertEquals((await readChannelsConfig(path)).telegram?.defaultAgentId, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("channels.yaml: an empty document is the default; an oversized one is refused", () => {
  assertEquals(parseChannelsConfig("# nothing\n", "c"), { version: 1 });
  const error = assertThrows(
    () => parseChannelsConfig("#".repeat(CHANNELS_CONFIG_MAX_BYTES + 1), "c"),
    ChannelsConfigError,
  );
  assertEquals(error.code, "channels_config_too_large");
});

Deno.test("channels.yaml: writing an invalid config is refused and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bad = { version: 1, telegram: { ...VALID.telegram!, token: "x" } } as ChannelsConfig;
    const error = await assertRejects(
      () => writeChannelsConfig(`${dir}/channels.yaml`, bad),
      ChannelsConfigError,
    );
    assertEquals(error.code, "channels_config_invalid");
    assertEquals([...Deno.readDirSync(dir)].length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("channels.yaml: credentials are the token and the proxy's user and password", () => {
  assertEquals(channelCredentials({ version: 1 }), []);
  const SECRET = TOKEN.split(":")[1];
  assertEquals(channelCredentials(VALID), [SECRET]);
  const proxied = {
    ...VALID,
    telegram: { ...VALID.telegram!, proxy: "http://bob:s3cr%40t@proxy:3128" },
  };
  assertEquals(channelCredentials(proxied), [
    SECRET,
    "s3cr@t",
    "http://bob:s3cr%40t@proxy:3128",
    "bob",
  ]);
});
