/** The dashboard's eight days leave room for closer ticks and a narrower value axis than analytics. */
export const DASHBOARD_AXES = { minTickGap: 6, width: 56 } as const;
