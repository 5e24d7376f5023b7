/**
 * English strings of the composer's attachments and reasoning-effort menu.
 *
 * @module
 */
export const attachmentsEn = {
  "attachments.attach": "Attach files",
  "attachments.list": "Attachments",
  "attachments.remove": "Remove {name}",
  "attachments.uploading": "Uploading…",
  "attachments.ready": "Ready",
  "attachments.failed": "Upload failed",
  "attachments.tooLarge": "{name} is larger than 8 MB and was not attached.",
  "attachments.tooMany": "At most 8 files can go with one message; the rest were not attached.",
  "attachments.refusedTooLarge": "Larger than 8 MB",
  "attachments.refusedType": "Only PNG, JPEG, GIF and WebP images and UTF-8 text can be attached",
  "attachments.refusedEmpty": "The file is empty",
  "attachments.drop": "Drop files to attach them",
  "attachments.kind.image": "image",
  "attachments.kind.text": "text",
  "effort.label": "Reasoning effort",
  "effort.prefix": "Effort: ",
  "effort.auto": "Auto",
  "effort.none": "None",
  "effort.minimal": "Minimal",
  "effort.low": "Low",
  "effort.medium": "Medium",
  "effort.high": "High",
  "effort.xhigh": "Extra high",
  "effort.max": "Max",
  "effort.ultra": "Ultra",
} as const;
