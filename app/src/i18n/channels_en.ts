/**
 * English strings of Settings → Channels (the Telegram bot).
 *
 * @module
 */
export const channelsEn = {
  "settings.section.channels": "Channels",
  "channels.title": "Telegram",
  "channels.intro":
    "Talk to Daedalus from Telegram through your own bot. Create one with @BotFather, paste its token here, then send /start to the bot from your account: the first private chat that does becomes the owner, and the bot answers nobody else.",
  "channels.telegram": "Telegram bot",
  "channels.state.disabled": "Off",
  "channels.state.starting": "Connecting",
  "channels.state.running": "Running",
  "channels.state.failed": "Failed",
  "channels.state.stopped": "Stopped",
  "channels.test": "Test",
  "channels.testOk": "The token works (@{bot}). Send /start to the bot to connect your chat.",
  "channels.testSent": "The token works (@{bot}); a test message went to the owner.",
  "channels.owner": "Owner: {name}",
  "channels.noOwner": "No owner yet: send /start to the bot from your Telegram account.",
  "channels.reset": "Reset owner",
  "channels.pending": "{count} replies waiting for delivery",
  "channels.lastFailure": "Last undelivered reply: {code}",
  "channels.form": "Telegram bot settings",
  "channels.enabled": "Enabled",
  "channels.token": "Bot token",
  "channels.tokenHint": "From @BotFather; it stays in channels.yaml and is never shown again.",
  "channels.tokenKeep": "A token is saved. Leave this empty to keep it, or paste a new one.",
  "channels.model": "Model for Telegram conversations",
  "channels.noModels": "No enabled model",
  "channels.agent": "Agent profile for Telegram conversations",
  "channels.agentDefault": "The default profile",
  "channels.agentHint": "New conversations (after /start or /new) are bound to it.",
  "channels.modelMissing": "Choose a model first (Settings › Providers and models adds one).",
  "channels.advanced": "Bot API server and proxy",
  "channels.apiBaseUrl": "Bot API URL (empty: Telegram's own)",
  "channels.proxy": "HTTP proxy (empty: keep or none)",
  "channels.save": "Save",
  "channels.saving": "Saving…",
} as const;
