// Images in a PDF: PNG and JPEG bytes opened by pdfkit, once checked that they are safe to give it.
import { inflateSync } from 'node:zlib';

/** An image larger than this many pixels is shown as its alt text: decoding it would take too much memory. */
export const MAX_IMAGE_PIXELS = 40_000_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * False for a PNG whose pixel data does not inflate, or inflates past what its size allows (other formats pass).
 * pdfkit decodes a PNG with transparency or interlacing in a callback that throws on a bad stream, where nothing
 * could catch it: such bytes never reach it.
 */
function soundPng(bytes: Buffer): boolean {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return true;
  const data: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR' && body.length >= 8) [width, height] = [body.readUInt32BE(0), body.readUInt32BE(4)];
    if (type === 'IDAT') data.push(body);
    if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!width || !height || width * height > MAX_IMAGE_PIXELS || !data.length) return false;
  try {
    // At most 8 bytes a pixel (16-bit RGBA) and a filter byte a row.
    inflateSync(Buffer.concat(data), { maxOutputLength: width * height * 8 + height });
    return true;
  } catch {
    return false;
  }
}

/** An image opened by pdfkit: its size in pixels, and its EXIF orientation (5 to 8 turn it a quarter). */
export interface OpenedImage {
  width: number;
  height: number;
  orientation?: number;
}

/** The image the document's pdfkit opens from these bytes, or null when it cannot be shown (it shows as its alt text). */
export function openImage(doc: PDFKit.PDFDocument, bytes: Uint8Array): OpenedImage | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!soundPng(buffer)) return null;
  try {
    const image = (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(buffer);
    return image.width && image.height && image.width * image.height <= MAX_IMAGE_PIXELS ? image : null;
  } catch {
    // Not an image pdfkit reads (a damaged or unusual file).
    return null;
  }
}
