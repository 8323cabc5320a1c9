/**
 * A byte-pair-encoding token counter over a packed merge table. The library we take the table
 * from keeps it as a Map of 200 000 strings (40+ MB once loaded); packed, the same table is one
 * byte array, its offsets and a hash index: about 5 MB. Only counting is needed, never token ids.
 */

/** Token `rank`'s bytes are `bytes[offsets[rank]] … bytes[offsets[rank + 1] - 1]`. */
export interface PackedRanks {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** A merge table as the library ships it: each rank's token as text, or as bytes when not UTF-8. */
export type RankList = ReadonlyArray<string | readonly number[]>;

export function packRanks(ranks: RankList): PackedRanks {
  const pieces = ranks.map((token) =>
    typeof token === 'string' ? Buffer.from(token, 'utf8') : Uint8Array.from(token),
  );
  const offsets = new Uint32Array(pieces.length + 1);
  let length = 0;
  pieces.forEach((piece, rank) => {
    offsets[rank] = length;
    length += piece.length;
  });
  offsets[pieces.length] = length;
  const bytes = new Uint8Array(length);
  for (const [rank, piece] of pieces.entries()) bytes.set(piece, offsets[rank]);
  return { bytes, offsets };
}

/** File layout: token count (u32 LE), then count + 1 offsets (u32 LE), then the bytes. */
export function serialiseRanks({ bytes, offsets }: PackedRanks): Buffer {
  const out = Buffer.alloc(4 + offsets.byteLength + bytes.length);
  out.writeUInt32LE(offsets.length - 1, 0);
  for (let index = 0; index < offsets.length; index++) out.writeUInt32LE(offsets[index] ?? 0, 4 + index * 4);
  out.set(bytes, 4 + offsets.byteLength);
  return out;
}

export function deserialiseRanks(file: Uint8Array): PackedRanks {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const count = file.byteLength >= 4 ? view.getUint32(0, true) : 0;
  if (file.byteLength < 4 + (count + 1) * 4) throw new Error('the packed merge table is truncated');
  const offsets = new Uint32Array(count + 1);
  for (let index = 0; index <= count; index++) offsets[index] = view.getUint32(4 + index * 4, true);
  const start = 4 + (count + 1) * 4;
  if (file.byteLength !== start + (offsets[count] ?? 0)) throw new Error('the packed merge table is truncated');
  return { bytes: file.subarray(start), offsets };
}

const NO_RANK = 0x7fffffff;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ (bytes[index] as number), FNV_PRIME);
  return hash >>> 0;
}

export class BpeCounter {
  private readonly bytes: Uint8Array;
  private readonly offsets: Uint32Array;
  /** Open addressing: slot → rank + 1 (0 = empty), linear probing. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly encoder = new TextEncoder();
  // Scratch space reused across calls: a piece's UTF-8 bytes, part boundaries and pair ranks.
  private scratch = new Uint8Array(256);
  private bounds = new Int32Array(257);
  private pairRanks = new Int32Array(257);

  constructor(
    ranks: PackedRanks,
    /** The encoding's pre-tokenisation pattern; must have the `g` flag. */
    private readonly splitPattern: RegExp,
  ) {
    this.bytes = ranks.bytes;
    this.offsets = ranks.offsets;
    const count = ranks.offsets.length - 1;
    let size = 1;
    while (size < count * 2) size <<= 1;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let rank = 0; rank < count; rank++) {
      let slot = hashBytes(this.bytes, this.offsets[rank] as number, this.offsets[rank + 1] as number) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = rank + 1;
    }
  }

  /** Tokens in `text`, every character counted as ordinary text (special tokens are not parsed). */
  count(text: string): number {
    let total = 0;
    for (const match of text.matchAll(this.splitPattern)) total += this.pieceTokens(match[0]);
    return total;
  }

  /** The rank of `scratch[start, end)` as one token, or NO_RANK. */
  private rankOf(start: number, end: number): number {
    const { bytes, offsets, scratch } = this;
    const length = end - start;
    let slot = hashBytes(scratch, start, end) & this.mask;
    for (let entry = this.slots[slot] as number; entry !== 0; entry = this.slots[slot] as number) {
      const rank = entry - 1;
      const from = offsets[rank] as number;
      if ((offsets[rank + 1] as number) - from === length) {
        let same = true;
        for (let index = 0; index < length; index++) {
          if (bytes[from + index] !== scratch[start + index]) {
            same = false;
            break;
          }
        }
        if (same) return rank;
      }
      slot = (slot + 1) & this.mask;
    }
    return NO_RANK;
  }

  private pieceTokens(piece: string): number {
    if (this.scratch.length < piece.length * 3) this.scratch = new Uint8Array(piece.length * 3);
    const length = this.encoder.encodeInto(piece, this.scratch).written;
    if (length <= 1 || this.rankOf(0, length) !== NO_RANK) return length === 0 ? 0 : 1;
    if (this.bounds.length < length + 1) {
      this.bounds = new Int32Array(length + 1);
      this.pairRanks = new Int32Array(length + 1);
    }
    const { bounds, pairRanks } = this;
    // Parts start as single bytes; pairRanks[i] is the rank of part i merged with part i + 1.
    let boundaries = length + 1;
    for (let index = 0; index <= length; index++) bounds[index] = index;
    for (let index = 0; index + 2 <= length; index++) pairRanks[index] = this.rankOf(index, index + 2);
    pairRanks[length - 1] = NO_RANK;
    // Merge the lowest-ranked pair (the leftmost on a tie) until no pair is a token.
    while (boundaries > 2) {
      let best = NO_RANK;
      let at = -1;
      for (let index = 0; index < boundaries - 2; index++) {
        if ((pairRanks[index] as number) < best) {
          best = pairRanks[index] as number;
          at = index;
        }
      }
      if (at < 0) break;
      bounds.copyWithin(at + 1, at + 2, boundaries);
      pairRanks.copyWithin(at + 1, at + 2, boundaries);
      boundaries--;
      pairRanks[at] = at + 2 < boundaries ? this.rankOf(bounds[at] as number, bounds[at + 2] as number) : NO_RANK;
      if (at > 0) pairRanks[at - 1] = this.rankOf(bounds[at - 1] as number, bounds[at + 1] as number);
    }
    return boundaries - 1;
  }
}
