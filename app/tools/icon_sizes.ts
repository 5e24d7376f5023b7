/**
 * The icon sizes the manifest lists (and make_icons.ts renders): the sizes browsers and
 * launchers ask for, from the tab (32) to the splash screen (512).
 *
 * @module
 */

/** Square sizes of the regular ("any") icon, in px. */
export const ICON_SIZES = [32, 48, 72, 96, 128, 144, 192, 256, 384, 512] as const;
/** Square sizes of the full-bleed maskable icon, in px. */
export const MASKABLE_SIZES = [192, 512] as const;
