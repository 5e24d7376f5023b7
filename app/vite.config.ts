import { defineConfig } from "vite";
import preact from "@preact/preset-vite";
import { VitePWA } from "vite-plugin-pwa";
import { ICON_SIZES, MASKABLE_SIZES } from "./tools/icon_sizes.ts";

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
      includeAssets: ["icon.svg", "apple-touch-icon.png"],
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
          ...ICON_SIZES.map((size) => ({
            src: `/icon-${size}.png`,
            sizes: `${size}x${size}`,
            type: "image/png",
          })),
          { src: "/icon.svg", sizes: "any", type: "image/svg+xml" },
          ...MASKABLE_SIZES.map((size) => ({
            src: `/icon-maskable-${size}.png`,
            sizes: `${size}x${size}`,
            type: "image/png",
            purpose: "maskable",
          })),
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
