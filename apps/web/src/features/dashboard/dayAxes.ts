/** The dashboard's eight days leave room for closer ticks than analytics. */
export const DASHBOARD_AXES = { minTickGap: 6 } as const;
