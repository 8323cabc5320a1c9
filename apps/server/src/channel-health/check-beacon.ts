import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Cache } from '../platform/cache/index.js';

/**
 * The image beacon of a channel check: the image probe sends an image URL on this server, and
 * whoever fetches it (the model provider itself, or a relay in front of it) is recorded. A
 * beacon lives 10 minutes and answers only while it lives; any other id is a 404.
 */
export interface BeaconVisit {
  user_agent: string;
  ip: string;
  remark: string;
}

export interface ImageBeacon {
  /** The URL to send, and a way to read who fetched it so far. */
  open(): Promise<{ url: string; visits(): Promise<BeaconVisit[]> }>;
}

const BEACON_TTL_SECONDS = 600;
const ID_PATTERN = /^[0-9a-f]{32}$/;
const keyOf = (id: string) => `check_img:${id}`;
/** A beacon keeps its first visits; a crawler fetching it in a loop must not grow the entry. */
const MAX_VISITS = 20;

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}

/** A 64×64 orange square: small, and something a vision model can describe ("an orange square"). */
function beaconImage(): Buffer {
  const size = 64;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set([0xf5, 0x8a, 0x1f], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function parseVisits(text: string | undefined): BeaconVisit[] | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as BeaconVisit[]) : [];
  } catch {
    return [];
  }
}

/** GET /api/image/:id (public) and the beacon the image probe opens; `origin` is ServerAddress. */
export function installImageBeacon(app: FastifyInstance, cache: Cache, origin: () => string): ImageBeacon {
  const image = beaconImage();

  app.get<{ Params: { id: string } }>('/api/image/:id', async (request, reply) => {
    const id = request.params.id.replace(/\.png$/, '');
    const visits = ID_PATTERN.test(id) ? parseVisits(await cache.get(keyOf(id))) : undefined;
    if (!visits) return reply.code(404).send({ success: false, message: 'image not found' });
    if (visits.length < MAX_VISITS) {
      const userAgent = String(request.headers['user-agent'] ?? '').slice(0, 300);
      visits.push({ user_agent: userAgent, ip: request.ip, remark: '' });
      await cache.set(keyOf(id), JSON.stringify(visits), BEACON_TTL_SECONDS);
    }
    return reply.header('content-type', 'image/png').header('cache-control', 'no-store').send(image);
  });

  return {
    async open() {
      const id = randomBytes(16).toString('hex');
      await cache.set(keyOf(id), '[]', BEACON_TTL_SECONDS);
      return {
        url: `${origin().replace(/\/+$/, '')}/api/image/${id}.png`,
        visits: async () => parseVisits(await cache.get(keyOf(id))) ?? [],
      };
    },
  };
}
