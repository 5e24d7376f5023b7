/**
 * English strings of approvals: the card in the feed, the waiting badge and progress, and
 * Settings › Permissions.
 *
 * @module
 */
export const approvalsEn = {
  "approval.card": "Approval needed for {tool}",
  "approval.title": "Waiting for your approval",
  "approval.titleBudget": "Budget reached",
  "approval.budget.continue": "Continue",
  "approval.budget.stop": "Stop the run",
  "approval.keysBudget": "Keys: Enter on the card continues",
  "approval.titleResolved": "Approval",
  "approval.target": "Target",
  "approval.risk": "Risk",
  "approval.why": "Why it asks",
  "approval.risk.read": "reads files",
  "approval.risk.write": "changes files",
  "approval.risk.process": "runs a command",
  "approval.risk.session": "works with other threads",
  "approval.risk.memory": "changes long-term memory",
  "approval.reason.permission_ask": "Your permission settings ask before a call like this runs.",
  "approval.reason.high_risk_command":
    "This command is on the high-risk list (it can delete data, change the system or run code from the internet), so it asks every time.",
  "approval.reason.budget_reached":
    "The run used up a budget you set (tokens, cost, model calls or running time); continuing adds as much again.",
  "approval.reason.loop_detected":
    "The model keeps making the same call with the same result; it may be stuck in a loop.",
  "approval.reason.user_question": "The agent asked you a question and waits for your answer.",
  "approval.command": "Command",
  "approval.cwd": "In folder",
  "approval.background": "Runs in the background",
  "approval.diff.write": "New content of the file",
  "approval.diff.edit": "Text replaced (−) and its replacement (+)",
  "approval.diff.edit_all": "Every occurrence replaced (−) and its replacement (+)",
  "approval.diff.table": "Proposed change",
  "approval.diff.more": "{count} more lines not shown",
  "approval.diff.empty": "The file would be empty.",
  "approval.decision.allow_once": "Allow once",
  "approval.decision.allow_thread": "Allow for this thread",
  "approval.decision.allow_always": "Always allow",
  "approval.decision.deny": "Deny",
  "approval.rule": "“Allow for this thread” and “Always allow” allow from now on:",
  "approval.message": "Message to the agent (optional, sent with Deny)",
  "approval.keys":
    "Keys: Enter on the card allows once · Esc moves to the message · Enter in the message denies · Shift+Enter adds a line",
  "approval.sending": "Sending your answer…",
  "approval.resolved.allow_once": "Allowed once",
  "approval.resolved.allow_thread": "Allowed for this thread",
  "approval.resolved.allow_always": "Always allowed (a rule was added)",
  "approval.resolved.deny": "Denied",
  "approval.resolved.denyMessage": "Denied: “{message}”",
  "approval.resolved.cancelled": "Cancelled: the run ended before an answer",
  "progress.waiting": "Waiting for your approval",
  "progress.waitingClient": "Waiting for the app to run its tool",
  "sidebar.waiting": "Waiting for your approval",
  "sidebar.waitingBadge": "approval",
  "status.waiting": "waiting",
  "settings.section.permissions": "Permissions",
  "permissions.intro":
    "What the agent may do without asking. Changes apply to the next run; a run already going keeps the rules it started with.",
  "permissions.loading": "Loading permissions…",
  "permissions.preset": "Default for new runs",
  "permissions.preset.read_only": "Read only",
  "permissions.preset.read_only.hint":
    "Reads files inside the workspace; writes, commands and changes to other threads are refused.",
  "permissions.preset.ask": "Ask",
  "permissions.preset.ask.hint":
    "Reads and writes inside the workspace; commands and anything outside the workspace ask you first.",
  "permissions.preset.workspace_write": "Workspace write",
  "permissions.preset.workspace_write.hint":
    "Reads and writes inside the workspace without asking; commands and anything outside it are refused.",
  "permissions.preset.full_access": "Full access",
  "permissions.preset.full_access.hint":
    "Everything runs without asking, inside and outside the workspace; high-risk commands still ask unless set below.",
  "permissions.highRisk": "High-risk commands",
  "permissions.highRisk.hint":
    "Recursive deletes of / or home, mkfs, dd to a device, curl | sh, git push --force, sudo and the like.",
  "permissions.highRisk.ask": "Always ask",
  "permissions.highRisk.allow": "Let the rules decide",
  "permissions.rules": "Rules",
  "permissions.rules.hint":
    "Checked after the preset, in order; the last rule that matches a call decides.",
  "permissions.rules.empty": "No rules: the preset alone decides.",
  "permissions.rules.table": "Permission rules",
  "permissions.rule.tool": "Tool",
  "permissions.rule.pattern": "Pattern",
  "permissions.rule.decision": "Decision",
  "permissions.rule.anyTarget": "(any)",
  "permissions.rule.remove": "Remove",
  "permissions.rule.removeLabel": "Remove rule {index}: {tool} {pattern} → {decision}",
  "permissions.decision.allow": "allow",
  "permissions.decision.ask": "ask",
  "permissions.decision.deny": "deny",
  "permissions.add": "Add a rule",
  "permissions.add.submit": "Add rule",
  "permissions.add.patternHint":
    "A path glob for file tools (src/**/*.ts), a command prefix for commands (git status); leave empty for any.",
  "permissions.saving": "Saving…",
  "permissions.rule.mcpServer": "All tools of server {server}",
  "permissions.rule.mcpTool": "{server} · {tool}",
  "permissions.add.mcpNoPattern": "Rules for MCP tools take no pattern.",
};
