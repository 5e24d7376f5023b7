/**
 * Renders the PWA icons into `app/public/` from their SVG sources (`app/public/icon.svg`,
 * also served as the browser tab's icon, and `app/tools/icon-maskable.svg`, full-bleed
 * with its mark inside the 80 % safe zone). Headless Chromium rasterizes them, so every
 * size is drawn from the vector rather than scaled from one bitmap. Run after changing a
 * source, and commit the PNGs:
 * `deno run -A app/tools/make_icons.ts` (needs /usr/bin/chromium).
 *
 * @module
 */
import { chromium } from "playwright-core";
import { ICON_SIZES, MASKABLE_SIZES } from "./icon_sizes.ts";

const publicDir = new URL("../public/", import.meta.url);
const sources = {
  any: await Deno.readTextFile(new URL("icon.svg", publicDir)),
  maskable: await Deno.readTextFile(new URL("icon-maskable.svg", import.meta.url)),
};

const renders: { svg: string; size: number; file: string }[] = [
  ...ICON_SIZES.map((size) => ({ svg: sources.any, size, file: `icon-${size}.png` })),
  ...MASKABLE_SIZES.map((size) => ({
    svg: sources.maskable,
    size,
    file: `icon-maskable-${size}.png`,
  })),
  // iOS rounds the corners itself and shows transparency as black: the full-bleed one.
  { svg: sources.maskable, size: 180, file: "apple-touch-icon.png" },
];

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
try {
  const page = await browser.newPage();
  for (const { svg, size, file } of renders) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
    await page.setContent(`<body style="margin:0">${sized}</body>`);
    await page.screenshot({ path: new URL(file, publicDir).pathname, omitBackground: true });
    console.log(`${file}`);
  }
} finally {
  await browser.close();
}
