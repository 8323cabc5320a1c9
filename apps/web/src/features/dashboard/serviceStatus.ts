/**
 * What the dashboard's service status reads of an Uptime Kuma status page, as the server relays it
 * (`/api/user/dashboard/uptimekuma/status-page` and `…/heartbeat`).
 */
export interface UptimeStatusPage {
  publicGroupList?: Array<{ id: number; name: string; monitorList?: Array<{ id: number; name: string }> }>;
}

export interface UptimeHeartbeats {
  heartbeatList?: Record<string, Array<{ status: number; time?: string }>>;
  uptimeList?: Record<string, number>;
}

/** Uptime Kuma's heartbeat states. */
export type MonitorState = 'up' | 'down' | 'pending' | 'maintenance' | 'unknown';

export interface MonitorStatus {
  id: number;
  name: string;
  state: MonitorState;
  /** Uptime over the last 24 hours, in percent with two decimals; null when Uptime Kuma has none. */
  uptime24h: number | null;
}

export interface MonitorGroup {
  id: number;
  name: string;
  monitors: MonitorStatus[];
}

const STATES: Record<number, MonitorState> = { 0: 'down', 1: 'up', 2: 'pending', 3: 'maintenance' };

/** The groups of the page with each monitor's latest state and 24-hour uptime. */
export function monitorGroups(page: UptimeStatusPage, beats: UptimeHeartbeats): MonitorGroup[] {
  return (page.publicGroupList ?? []).map((group) => ({
    id: group.id,
    name: group.name,
    monitors: (group.monitorList ?? []).map((monitor) => {
      const latest = beats.heartbeatList?.[String(monitor.id)]?.at(-1);
      const uptime = beats.uptimeList?.[`${monitor.id}_24`];
      return {
        id: monitor.id,
        name: monitor.name,
        state: latest ? (STATES[latest.status] ?? 'unknown') : 'unknown',
        uptime24h: typeof uptime === 'number' ? Math.round(uptime * 10_000) / 100 : null,
      };
    }),
  }));
}
