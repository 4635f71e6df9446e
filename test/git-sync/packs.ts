// Packs made by hand, for what no Git server sends: objects with the headers a test wants (true or not) over real zlib
// data, and upload-pack's answer around a pack (NAK, the pack in side-band 1 pkt-lines, a flush), framed as Git does.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

export const BLOB = 3;
export const OFS_DELTA = 6;

export interface CraftedObject {
  type: number;
  /** The inflated size its header announces. */
  size: number;
  /** Its zlib data. */
  data: Buffer;
  /** An ofs-delta's base: the index of an earlier object of the pack, or how far back it starts in bytes. */
  base?: { index: number } | { distance: number };
}

/** A blob whose header tells the truth. */
export const blob = (content: Buffer | string): CraftedObject => {
  const bytes = Buffer.from(content);
  return { type: BLOB, size: bytes.length, data: zlib.deflateSync(bytes) };
};

const sizeVarint = (value: number): number[] => {
  const bytes: number[] = [];
  let rest = value;
  do {
    bytes.push((rest & 0x7f) | (rest >= 0x80 ? 0x80 : 0));
    rest = Math.floor(rest / 0x80);
  } while (rest);
  return bytes;
};

/** A delta's data: the size of its base and of what it makes, then its instructions (here, one insert). */
export const deltaData = (baseSize: number, resultSize: number, insert: Buffer): Buffer =>
  Buffer.from([...sizeVarint(baseSize), ...sizeVarint(resultSize), insert.length, ...insert]);

function objectHeader({ type, size }: CraftedObject, distance?: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f) | (size >= 16 ? 0x80 : 0)];
  const rest = sizeVarint(Math.floor(size / 16));
  if (size >= 16) bytes.push(...rest);
  if (distance !== undefined) {
    const offset = [distance & 0x7f];
    // Git's spelling: each byte before the last is one less than its share.
    for (let left = Math.floor(distance / 128); left; left = Math.floor((left - 1) / 128)) offset.unshift(0x80 | ((left - 1) & 0x7f));
    bytes.push(...offset);
  }
  return Buffer.from(bytes);
}

/** A version 2 pack of these objects, its checksum at the end. */
export function packOf(objects: CraftedObject[], count = objects.length): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  const parts: Buffer[] = [header];
  const offsets: number[] = [];
  let offset = header.length;
  for (const object of objects) {
    offsets.push(offset);
    const head = objectHeader(object, object.base && ('index' in object.base ? offset - offsets[object.base.index] : object.base.distance));
    parts.push(head, object.data);
    offset += head.length + object.data.length;
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

const pktLine = (data: Buffer) => Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, '0')), data]);

/** Upload-pack's answer carrying `pack`: NAK, the pack in side-band 1 lines of at most `piece` bytes, a flush. */
export function uploadPackAnswer(pack: Buffer, piece = 65515): Buffer {
  const lines = [pktLine(Buffer.from('NAK\n'))];
  for (let at = 0; at < pack.length; at += piece) lines.push(pktLine(Buffer.concat([Buffer.from([1]), pack.subarray(at, at + piece)])));
  return Buffer.concat([...lines, Buffer.from('0000')]);
}
