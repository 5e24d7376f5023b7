import { defineConfig } from "vite";
import preact from "@preact/preset-vite";
import { VitePWA } from "vite-plugin-pwa";

const packages = new URL("../packages/", import.meta.url);

export default defineConfig({
  resolve: {
    // The workspace members are not in node_modules: point vite at their sources.
    alias: {
      "@daedalus/client": new URL("client/mod.ts", packages).pathname,
      "@daedalus/protocol": new URL("protocol/mod.ts", packages).pathname,
    },
  },
  server: { fs: { allow: [".."] } },
  build: { target: "es2022", sourcemap: false },
  plugins: [
    preact(),
    VitePWA({
      strategies: "generateSW",
      registerType: "prompt",
      injectRegister: false,
      includeAssets: ["icon-192.png", "icon-512.png", "icon-maskable-512.png"],
      manifest: {
        name: "Daedalus",
        short_name: "Daedalus",
        description: "A local AI agent runtime",
        id: "/",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#0f172a",
        theme_color: "#1e293b",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
          {
            src: "/icon-maskable-512.png",
            sizes: "512x512",
            type: "image/png",
            purpose: "maskable",
          },
        ],
      },
      workbox: {
        globPatterns: ["**/*.{js,css,html,png,svg,webmanifest}"],
        // The first worker claims the page at once; an update waits until the user
        // accepts the prompt (workbox-window's messageSkipWaiting), never mid-conversation.
        clientsClaim: true,
        skipWaiting: false,
        navigateFallback: "/index.html",
        // The runtime's own endpoints are never the shell: a navigation to an attachment
        // or an auth route must reach the runtime (and its refusal), not the cached app.
        navigateFallbackDenylist: [/^\/(rpc|ws|auth|health|upload|attachments|api)(\/|$)/],
      },
    }),
  ],
});
