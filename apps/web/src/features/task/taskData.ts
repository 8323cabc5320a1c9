import { isRecord } from '@one-hub/contracts';

/** One Suno song of a MUSIC task, as far as the console shows it. */
export interface SunoClip {
  id: string;
  title: string;
  status: string;
  audioUrl: string;
  imageUrl: string;
  videoUrl: string;
  tags: string;
  /** Seconds; 0 when not known yet. */
  duration: number;
}

export interface SunoLyrics {
  title: string;
  text: string;
}

export interface KlingVideo {
  id: string;
  url: string;
  /** Seconds as Kling reports them (a string such as "5"); '' when absent. */
  duration: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Only http(s) links are rendered as media or links: a stored `javascript:` URL must never become an href. */
export function safeUrl(value: unknown): string {
  const url = text(value).trim();
  return /^https?:\/\//i.test(url) ? url : '';
}

/** The clips of a Suno MUSIC task's `data` (an array of Suno's clip objects); [] for anything else. */
export function sunoClips(data: unknown): SunoClip[] {
  if (!Array.isArray(data)) return [];
  return data.filter(isRecord).map((clip) => {
    const metadata = isRecord(clip.metadata) ? clip.metadata : {};
    const duration = Number(metadata.duration);
    return {
      id: text(clip.id),
      title: text(clip.title),
      status: text(clip.status),
      audioUrl: safeUrl(clip.audio_url),
      imageUrl: safeUrl(clip.image_url),
      videoUrl: safeUrl(clip.video_url),
      tags: text(metadata.tags),
      duration: Number.isFinite(duration) && duration > 0 ? Math.round(duration) : 0,
    };
  });
}

/** The lyrics of a Suno LYRICS task's `data` (`{text, title, status}`); null when there is no text. */
export function sunoLyrics(data: unknown): SunoLyrics | null {
  if (!isRecord(data)) return null;
  const lyrics = text(data.text);
  return lyrics ? { title: text(data.title), text: lyrics } : null;
}

/** The videos of a Kling task's `data` (Kling's task object, `task_result.videos`). */
export function klingVideos(data: unknown): KlingVideo[] {
  if (!isRecord(data) || !isRecord(data.task_result) || !Array.isArray(data.task_result.videos)) return [];
  return data.task_result.videos
    .filter(isRecord)
    .map((video) => ({ id: text(video.id), url: safeUrl(video.url), duration: text(video.duration) }))
    .filter((video) => video.url !== '');
}

/** `data` as indented JSON for the response-body dialog; '' when there is none. */
export function formatData(data: unknown): string {
  if (data === null || data === undefined || data === '') return '';
  if (typeof data === 'string') {
    try {
      return JSON.stringify(JSON.parse(data), null, 2);
    } catch {
      return data;
    }
  }
  return JSON.stringify(data, null, 2);
}
