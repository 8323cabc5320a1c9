/** The `url` query parameter of /jump when it is an absolute http(s) address; null otherwise. */
export function jumpTarget(search: string): string | null {
  const raw = new URLSearchParams(search).get('url');
  if (!raw) return null;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export const JUMP_DELAY_SECONDS = 3;
