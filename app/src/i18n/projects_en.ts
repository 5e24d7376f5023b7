/** English strings of the sidebar's projects and paging. */
export const projectsEn = {
  "projects.label": "Projects",
  "projects.threads": "Threads",
  "projects.new": "New project thread",
  "projects.newIn": "New thread in {name}",
  "projects.toggle": "Show or hide the threads of {name}",
  "projects.dialogTitle": "New thread in a project folder",
  "projects.path": "Folder (absolute path on this machine)",
  "projects.pathHint": "The runtime works in this folder; threads in the same folder are grouped.",
  "projects.name": "Project name (optional)",
  "projects.create": "Create",
  "projects.cancel": "Cancel",
  "projects.pathRequired": "Enter the folder's absolute path.",
  "projects.card": "New thread in the project {name}",
  "threads.more": "Load more threads",
} as const;
