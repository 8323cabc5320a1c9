/** Layout constants of spec §9, shared by the layouts and the screens. */
export const DRAWER_WIDTH = 260;
export const LOGO_HEIGHT = 50;
/** The page container stops growing at this width from the md breakpoint up. */
export const CONTAINER_MAX_WIDTH = 1400;
export const BREADCRUMB_MAX_ITEMS = 8;
export const TOP_BAR_HEIGHT = 72;
