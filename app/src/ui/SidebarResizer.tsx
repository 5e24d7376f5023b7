import {
  SIDEBAR_MAX_WIDTH,
  SIDEBAR_MIN_WIDTH,
  sidebarLayout,
  updateSidebarLayout,
} from "../state/sidebar_layout.ts";
import { t } from "../i18n/i18n.ts";

const KEY_STEP = 16;

/**
 * The sidebar's edge: drag it, or focus it and use the arrow keys, Home and End, to
 * resize the sidebar within 220–520 px. A focusable ARIA window splitter.
 */
export function SidebarResizer() {
  const { width, collapsed } = sidebarLayout.value;
  if (collapsed) return null;
  const onPointerDown = (event: PointerEvent) => {
    event.preventDefault();
    const startX = event.clientX;
    const startWidth = width;
    const move = (moved: PointerEvent) =>
      updateSidebarLayout({ width: startWidth + moved.clientX - startX });
    const up = () => {
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", up);
    };
    addEventListener("pointermove", move);
    addEventListener("pointerup", up);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const next: Record<string, number> = {
      ArrowLeft: width - KEY_STEP,
      ArrowRight: width + KEY_STEP,
      Home: SIDEBAR_MIN_WIDTH,
      End: SIDEBAR_MAX_WIDTH,
    };
    if (event.key in next) {
      event.preventDefault();
      updateSidebarLayout({ width: next[event.key] });
    }
  };
  return (
    <div
      class="sidebar-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label={t("sidebar.resize")}
      aria-valuemin={SIDEBAR_MIN_WIDTH}
      aria-valuemax={SIDEBAR_MAX_WIDTH}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
