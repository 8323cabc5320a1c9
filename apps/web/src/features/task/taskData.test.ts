import { describe, expect, it } from 'vitest';
import { formatData, klingVideos, safeUrl, sunoClips, sunoLyrics } from './taskData.js';

describe('reading a task result', () => {
  it('reads Suno MUSIC clips with their audio, cover, title and duration', () => {
    const clips = sunoClips([
      {
        id: 'c1',
        title: 'Rain',
        status: 'complete',
        audio_url: 'https://cdn.example/c1.mp3',
        image_url: 'https://cdn.example/c1.jpg',
        video_url: '',
        metadata: { prompt: 'la la', tags: 'pop', duration: 61.6 },
      },
      { id: 'c2', title: '', audio_url: 'javascript:alert(1)', metadata: null },
      'not a clip',
    ]);
    expect(clips).toEqual([
      {
        id: 'c1',
        title: 'Rain',
        status: 'complete',
        audioUrl: 'https://cdn.example/c1.mp3',
        imageUrl: 'https://cdn.example/c1.jpg',
        videoUrl: '',
        tags: 'pop',
        duration: 62,
      },
      { id: 'c2', title: '', status: '', audioUrl: '', imageUrl: '', videoUrl: '', tags: '', duration: 0 },
    ]);
    expect(sunoClips({ text: 'lyrics' })).toEqual([]);
    expect(sunoClips(null)).toEqual([]);
  });

  it('reads LYRICS text and title, and nothing without text', () => {
    expect(sunoLyrics({ text: 'line one\nline two', title: 'Song', status: 'complete' })).toEqual({
      title: 'Song',
      text: 'line one\nline two',
    });
    expect(sunoLyrics({ text: '', title: 'x' })).toBeNull();
    expect(sunoLyrics([{ id: 'c1' }])).toBeNull();
  });

  it("reads Kling's videos from task_result and drops ones without a usable link", () => {
    const data = {
      task_id: 'k1',
      task_status: 'succeed',
      task_result: {
        videos: [
          { id: 'v1', url: 'https://cdn.example/v1.mp4', duration: '5' },
          { id: 'v2', url: 'data:video/mp4;base64,AAAA' },
        ],
      },
    };
    expect(klingVideos(data)).toEqual([{ id: 'v1', url: 'https://cdn.example/v1.mp4', duration: '5' }]);
    expect(klingVideos({ task_id: 'k1', task_status: 'processing' })).toEqual([]);
  });

  it('only lets http(s) links through', () => {
    expect(safeUrl(' http://a.example/x.png ')).toBe('http://a.example/x.png');
    expect(safeUrl('JAVASCRIPT:alert(1)')).toBe('');
    expect(safeUrl(42)).toBe('');
  });

  it('indents the response body as JSON, keeping text that is not JSON', () => {
    expect(formatData({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(formatData('{"b":2}')).toBe('{\n  "b": 2\n}');
    expect(formatData('plain words')).toBe('plain words');
    expect(formatData(null)).toBe('');
  });
});
