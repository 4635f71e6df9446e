// What a Git server answers to a fetch (upload-pack's pkt-lines, the pack on side-band 1), checked as it arrives,
// before isomorphic-git reads it: isomorphic-git inflates each object of a pack whole, in memory, and compares its size
// with its header only afterwards, and a few KB of zlib inflate to gigabytes. Each object's header announces its
// inflated size, and a delta's data starts with the size of the object it makes: an object larger than the per-object
// cap, more objects than allowed, or objects that come to more than the per-operation cap are refused at the header
// that says so, before anything inflates them. Each object is still inflated here, to find where it ends and to hold it
// to its header, chunk by chunk, its output counted and dropped: one that inflates to more than it announced is
// refused as soon as it does. isomorphic-git only gets bytes that passed; on a refusal, the answer fails, and
// isomorphic-git stops without indexing what it received.
import { Inflate } from 'pako';

export interface PackLimits {
  /** Inflated size of one object (a delta's data, and the object it makes). */
  objectBytes: number;
  /** Inflated bytes of all the objects of one operation's packs: each object's, and those of the objects deltas make. */
  inflatedBytes: number;
  /** Objects of one operation's packs. */
  objects: number;
}

/** What the packs of one operation held, so far. */
export interface PackTally {
  packs: number;
  objects: number;
  /** The sizes the objects announced (a delta's data, and the object it makes), compared with `inflatedBytes`. */
  announcedBytes: number;
  /** Bytes inflated here to check the objects: at most what they announced, give or take one chunk. */
  inflatedBytes: number;
}

export const newTally = (): PackTally => ({ packs: 0, objects: 0, announcedBytes: 0, inflatedBytes: 0 });

/** An answer refused, by a limit or as no well-formed pack; the message says which, in words safe to show. */
export class PackRefused extends Error {}

const MB = 1024 * 1024;
const inMB = (bytes: number) => `${Number((bytes / MB).toFixed(1))} MB`;
/** Object types of a pack: 1 commit, 2 tree, 3 blob, 4 tag, 6 a delta on an earlier object, 7 a delta on an object id. */
const OFS_DELTA = 6;
const REF_DELTA = 7;
const TYPES = new Set([1, 2, 3, 4, OFS_DELTA, REF_DELTA]);
/** Output of one inflate step, the most that is ever inflated past an object's announced size. */
const CHUNK_BYTES = 64 * 1024;

const damaged = (why: string) => new PackRefused(`The Git server sent a damaged pack: ${why}.`);

/** A little-endian base-128 number of at most 10 bytes from `at`: its value and length; null when it goes on past `end`. */
function varint(bytes: Uint8Array, at: number, end: number): { value: number; length: number } | null {
  let value = 0;
  for (let i = 0; at + i < end; i++) {
    if (i === 10) throw damaged('a size is longer than 10 bytes');
    const byte = bytes[at + i];
    value += (byte & 0x7f) * 2 ** (7 * i);
    if (!(byte & 0x80)) return { value, length: i + 1 };
  }
  return null;
}

/** One object: what its header announced, and what has been inflated of it. */
interface PackObject {
  size: number;
  inflated: number;
  /** A delta's first bytes, until they hold the sizes of its base and of the object it makes. */
  deltaHead: number[] | null;
}

/** One pack, fed as it arrives: its header, each object's header and zlib data, its trailing checksum. */
class PackCheck {
  private state: 'header' | 'object' | 'data' | 'trailer' | 'done' = 'header';
  /** Bytes of a header (of the pack, an object, or the trailer) that has not all arrived yet. */
  private pending: Buffer = Buffer.alloc(0);
  /** Where `pending` starts in the pack, to check that a delta's base comes before it. */
  private offset = 0;
  private objectsLeft = 0;
  private object: PackObject | null = null;
  private inflator: Inflate | null = null;
  private stream: { avail_in: number } | null = null;

  constructor(
    private readonly limits: PackLimits,
    private readonly tally: PackTally,
  ) {}

  write(data: Uint8Array): void {
    const bytes = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    let at = 0;
    while (at < bytes.length) {
      const read = this.step(bytes, at);
      if (read === 0) break;
      at += read;
    }
    this.offset += at;
    this.pending = Buffer.from(bytes.subarray(at));
  }

  /** The pack has ended: it must be complete. */
  end(): void {
    if (this.state !== 'done') throw damaged('it ends before its last object does');
  }

  /** Reads what the state expects from `at`: how many bytes it took (0: it needs more than there is). */
  private step(bytes: Uint8Array, at: number): number {
    const available = bytes.length - at;
    switch (this.state) {
      case 'header': {
        if (available < 12) return 0;
        const view = Buffer.from(bytes.buffer, bytes.byteOffset + at, 12);
        if (view.toString('latin1', 0, 4) !== 'PACK') throw damaged('it does not start with PACK');
        if (view.readUInt32BE(4) !== 2) throw damaged(`its version is ${view.readUInt32BE(4)}, not 2`);
        this.objectsLeft = view.readUInt32BE(8);
        this.tally.packs++;
        this.tally.objects += this.objectsLeft;
        if (this.tally.objects > this.limits.objects) {
          throw new PackRefused(`The repository sends more than ${this.limits.objects} objects (GIT_MAX_OBJECTS).`);
        }
        this.state = this.objectsLeft ? 'object' : 'trailer';
        return 12;
      }
      case 'object':
        return this.objectHeader(bytes, at);
      case 'data':
        return this.inflate(bytes.subarray(at));
      case 'trailer':
        if (available < 20) return 0;
        this.state = 'done';
        return 20;
      case 'done':
        throw damaged('more data follows it');
    }
  }

  /** An object's header: its type and inflated size, and for a delta where its base is. */
  private objectHeader(bytes: Uint8Array, at: number): number {
    const first = bytes[at];
    const type = (first >> 4) & 7;
    if (!TYPES.has(type)) throw damaged(`an object has the unknown type ${type}`);
    let size = first & 0x0f;
    let length = 1;
    if (first & 0x80) {
      const rest = varint(bytes, at + 1, bytes.length);
      if (!rest) return 0;
      size += rest.value * 16;
      length += rest.length;
    }
    if (type === OFS_DELTA) {
      // Git's offset encoding: each further byte adds one before shifting, so that no offset has two spellings.
      let distance = -1;
      let byte: number;
      do {
        if (at + length >= bytes.length) return 0;
        if (distance > 2 ** 45) throw damaged('a delta’s base is out of range');
        byte = bytes[at + length++];
        distance = (distance + 1) * 128 + (byte & 0x7f);
      } while (byte & 0x80);
      if (distance < 1 || distance > this.offset + at) throw damaged('a delta’s base is not before it');
    } else if (type === REF_DELTA) {
      if (at + length + 20 > bytes.length) return 0;
      length += 20;
    }
    this.announce(size);
    this.object = { size, inflated: 0, deltaHead: type === OFS_DELTA || type === REF_DELTA ? [] : null };
    this.startInflating();
    this.state = 'data';
    return length;
  }

  /** An inflated size an object announces: refused above the cap for one object, or for all of them together. */
  private announce(size: number): void {
    if (size > this.limits.objectBytes) {
      throw new PackRefused(
        `The repository holds an object of ${inMB(size)}, more than the ${inMB(this.limits.objectBytes)} one object may have (GIT_MAX_OBJECT_MB).`,
      );
    }
    this.tally.announcedBytes += size;
    if (this.tally.announcedBytes > this.limits.inflatedBytes) {
      throw new PackRefused(
        `The repository’s objects come to more than the ${inMB(this.limits.inflatedBytes)} one operation may inflate (GIT_MAX_IMPORT_MB).`,
      );
    }
  }

  private startInflating(): void {
    // The zlib format only, as Git writes it (pako would also take gzip).
    const inflator = new Inflate({ windowBits: 15, chunkSize: CHUNK_BYTES });
    inflator.onStart = (stream) => {
      this.stream = stream;
    };
    inflator.onData = (chunk) => this.inflated(chunk);
    this.inflator = inflator;
  }

  /** Output of the object being inflated: counted against its header, then dropped (a delta's sizes read first). */
  private inflated(chunk: Uint8Array): void {
    const object = this.object!;
    object.inflated += chunk.byteLength;
    this.tally.inflatedBytes += chunk.byteLength;
    if (object.inflated > object.size) throw damaged(`an object inflates to more than the ${object.size} bytes its header announces`);
    const head = object.deltaHead;
    if (!head) return;
    for (let i = 0; i < chunk.byteLength && head.length < 20; i++) head.push(chunk[i]);
    const base = varint(Uint8Array.from(head), 0, head.length);
    const result = base && varint(Uint8Array.from(head), base.length, head.length);
    if (result) {
      object.deltaHead = null;
      this.announce(result.value);
    }
  }

  /** Inflates what there is of the object's data: how much of it the object took. */
  private inflate(data: Uint8Array): number {
    const inflator = this.inflator!;
    inflator.push(data, false);
    if (inflator.err) throw damaged(`an object’s data does not inflate (${inflator.msg})`);
    if (!inflator.ended) return data.byteLength;
    const object = this.object!;
    if (object.inflated !== object.size) {
      throw damaged(`an object inflates to ${object.inflated} bytes where its header announces ${object.size}`);
    }
    if (object.deltaHead) throw damaged('a delta is too short to say what it makes');
    const taken = data.byteLength - this.stream!.avail_in;
    this.inflator = null;
    this.stream = null;
    this.object = null;
    this.state = --this.objectsLeft ? 'object' : 'trailer';
    return taken;
  }
}

/**
 * Upload-pack's answer: pkt-lines (four hexadecimal digits of length, then the data), read as isomorphic-git reads
 * them, as they arrive, however they are cut. Lines of side-band 1 are the pack; 2, progress; 3, an error, after which
 * isomorphic-git keeps what it had: it is refused here.
 */
export class UploadPackCheck {
  /** The length digits of a pkt-line, while they have not all arrived. */
  private digits = '';
  /** Bytes of the current pkt-line still to come. */
  private left = 0;
  /** The current pkt-line's side-band, once its first byte has come. */
  private band: number | null = null;
  /** What the server says on side-band 3. */
  private error = '';
  private pack: PackCheck | null = null;

  constructor(
    private readonly limits: PackLimits,
    private readonly tally: PackTally,
  ) {}

  write(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.left === 0) {
        const take = Math.min(4 - this.digits.length, chunk.byteLength - at);
        this.digits += Buffer.from(chunk.buffer, chunk.byteOffset + at, take).toString('latin1');
        at += take;
        if (this.digits.length < 4) break;
        if (!/^[0-9a-fA-F]{4}$/.test(this.digits)) throw new PackRefused('The Git server’s answer is not made of pkt-lines.');
        const length = Number.parseInt(this.digits, 16);
        this.digits = '';
        if (length === 2 || length === 3) throw new PackRefused('The Git server’s answer is not made of pkt-lines.');
        // 0000 (flush) and 0001 (delimiter) carry nothing.
        this.left = Math.max(length - 4, 0);
        this.band = null;
        continue;
      }
      if (this.band === null) {
        this.band = chunk[at++];
        this.left--;
      } else {
        const piece = chunk.subarray(at, at + Math.min(this.left, chunk.byteLength - at));
        at += piece.byteLength;
        this.left -= piece.byteLength;
        if (this.band === 1) {
          this.pack ??= new PackCheck(this.limits, this.tally);
          this.pack.write(piece);
        } else if (this.band === 3 && this.error.length < 200) {
          this.error += Buffer.from(piece).toString('utf8');
        }
      }
      if (this.band === 3 && this.left === 0) {
        throw new PackRefused(`The Git server stopped with an error: ${this.error.slice(0, 200).trim()}`);
      }
    }
  }

  /** The answer has ended: a pack it started must be whole. */
  end(): void {
    if (this.digits || this.left) throw new PackRefused('The Git server’s answer ends in the middle of a pkt-line.');
    this.pack?.end();
  }
}
