/**
 * English strings of Settings → Gateway (app keys for the Dify-compatible API and AG-UI)
 * and of a gateway thread's source badge in the sidebar and the thread header.
 *
 * @module
 */
export const gatewayEn = {
  "settings.section.gateway": "Gateway",
  "gateway.title": "Gateway",
  "gateway.intro":
    "App keys let a Dify front end, an AG-UI client or a script talk to this runtime at /dify/v1 and /ag-ui. Each key is bound to a model, a permission preset and optionally a workspace and a tool subset: the key decides what its runs may do, never the request. Threads made with a key show up in the sidebar with the key's name.",
  "gateway.refresh": "Refresh",
  "gateway.loading": "Reading the app keys…",
  "gateway.none": "No app keys yet. Create one below.",
  "gateway.listLabel": "App keys",
  "gateway.hint": "Key",
  "gateway.model": "Model",
  "gateway.permission": "Permission",
  "gateway.workspace": "Workspace",
  "gateway.workspaceManaged": "A new managed folder per thread",
  "gateway.tools": "Tools",
  "gateway.toolsAll": "All of the runtime's tools",
  "gateway.toolsNone": "None (answers without tools)",
  "gateway.origins": "Allowed origins",
  "gateway.originsNone": "None (browsers cannot call with it)",
  "gateway.created": "Created",
  "gateway.lastUsed": "Last used",
  "gateway.never": "Never",
  "gateway.revoked": "Revoked",
  "gateway.revokedOn": "Revoked {date}",
  "gateway.active": "Active",
  "gateway.revoke": "Revoke",
  "gateway.revokeLabel": "Revoke key {name}",
  "gateway.revokeConfirm":
    "Revoke “{name}”? Every app using it is refused from now on (401). Its threads stay, with its name.",
  "gateway.revokeYes": "Revoke key",
  "gateway.revokeNo": "Keep it",
  "gateway.examples": "Examples",
  "gateway.examplesLabel": "Examples for key {name}",
  "gateway.examplesNote":
    "The key itself is not kept by the runtime: these examples read it from the DAEDALUS_APP_KEY environment variable.",
  "gateway.snippet.difyCurl": "curl, Dify streaming",
  "gateway.snippet.agUiCurl": "curl, AG-UI",
  "gateway.snippet.difyClient": "dify-client (npm)",
  "gateway.snippet.httpAgent": "@ag-ui/client HttpAgent (npm)",
  "gateway.copySnippet": "Copy {name}",
  "gateway.form.title": "New app key",
  "gateway.form.name": "Name",
  "gateway.form.namePlaceholder": "Support desk (Dify)",
  "gateway.form.provider": "Provider",
  "gateway.form.model": "Model",
  "gateway.form.noModels": "No enabled models. Add one in Providers and models first.",
  "gateway.form.permission": "Permission preset",
  "gateway.form.workspace": "Project folder (optional)",
  "gateway.form.workspaceHint":
    "An absolute path. Empty: every thread gets its own managed folder.",
  "gateway.form.tools": "Tools (optional)",
  "gateway.form.toolsHint":
    "Its runs may call only the checked tools; none checked: they answer without tools.",
  "gateway.form.toolsOnly": "Only the tools chosen below",
  "gateway.form.toolsPick": "Tools its runs may call",
  "gateway.form.origins": "Allowed origins (optional)",
  "gateway.form.originsHint":
    "Browser origins that may call with this key (CORS), one per line, e.g. https://app.example.com. Empty: none.",
  "gateway.form.create": "Create key",
  "gateway.form.creating": "Creating…",
  "gateway.form.error.name": "Give the key a name (1–{max} characters).",
  "gateway.form.error.model": "Choose a model.",
  "gateway.form.error.workspace": "The project folder must be an absolute path.",
  "gateway.form.error.tools": "At most {max} tools, each 1–200 characters.",
  "gateway.form.error.origins":
    "Each origin must be a full URL such as https://app.example.com (at most {max}).",
  "gateway.createdKey.title": "Key “{name}” created",
  "gateway.createdKey.once":
    "Copy it now: you will not see it again. The runtime keeps only its hash.",
  "gateway.createdKey.label": "The new app key",
  "gateway.createdKey.copy": "Copy key",
  "gateway.createdKey.done": "I have copied it",
  "gateway.source.gateway": "via {name}",
  "gateway.source.gatewayLabel": "Made through the gateway with app key {name}",
};
