import type { feedEn } from "./feed_en.ts";

/** 对话消息流与轮次导航的简体中文文案，键与 `feedEn` 相同。 */
export const feedZhCN: Record<keyof typeof feedEn, string> = {
  "feed.label": "消息",
  "feed.loadOlder": "加载更早的轮次",
  "feed.loadingOlder": "正在加载更早的轮次…",
  "feed.jumpLatest": "跳到最新",
  "feed.jumpLatestCount": "跳到最新（{count} 条新消息）",
  "turnNav.label": "轮次导航",
  "turnNav.toggle": "轮次（{count}）",
  "turnNav.list": "本对话的轮次",
  "turnNav.keys":
    "方向键、Home 和 End 选择轮次，Enter 跳转。在对话中任意位置按 Alt+↑ / Alt+↓ 可移到上一轮 / 下一轮。",
  "turnNav.noText": "（无消息）",
  "turnNav.hide": "收起轮次列表",
  "turnNav.show": "展开轮次列表",
  "drawer.open": "打开菜单",
  "drawer.close": "关闭菜单",
};
