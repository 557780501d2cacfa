import { crc32 } from 'node:zlib';

/**
 * One journal record on disk: a 12-byte header (magic, body length, CRC-32 of the body)
 * then the body (document id length, document id, seq, update). A record is written with
 * one `write()`; a crash can cut it anywhere, which the length and the checksum reveal.
 */
const MAGIC = 0x514a5231; // "QJR1"
const HEADER = 12;

export interface JournalRecord {
  docId: string;
  seq: number;
  update: Uint8Array;
}

export function encodeRecord(r: JournalRecord): Buffer {
  const id = Buffer.from(r.docId, 'utf8');
  const bodyLength = 2 + id.length + 8 + r.update.byteLength;
  const out = Buffer.allocUnsafe(HEADER + bodyLength);
  out.writeUInt32BE(MAGIC, 0);
  out.writeUInt32BE(bodyLength, 4);
  let at = HEADER;
  at = out.writeUInt16BE(id.length, at);
  at += id.copy(out, at);
  at = out.writeDoubleBE(r.seq, at);
  out.set(r.update, at);
  out.writeUInt32BE(crc32(out.subarray(HEADER)), 8);
  return out;
}

export type DecodeResult =
  | { kind: 'record'; record: JournalRecord; end: number }
  | { kind: 'end' }
  | { kind: 'torn'; reason: string }
  | { kind: 'corrupt'; reason: string };

/**
 * The record starting at `at` in `buf`: whole, the clean end of the file, cut short, or
 * failing its checksum. Files are zeroed ahead of their records, so only zeros left means
 * the end; a record is never all zeros (its magic is not).
 */
export function decodeRecord(buf: Buffer, at: number): DecodeResult {
  if (onlyZerosFrom(buf, at)) return { kind: 'end' };
  if (buf.length - at < HEADER) return { kind: 'torn', reason: 'the header is cut short' };
  if (buf.readUInt32BE(at) !== MAGIC) return { kind: 'corrupt', reason: 'no record starts here' };
  const bodyLength = buf.readUInt32BE(at + 4);
  const end = at + HEADER + bodyLength;
  if (end > buf.length) return { kind: 'torn', reason: 'the record is cut short' };
  const body = buf.subarray(at + HEADER, end);
  if (crc32(body) !== buf.readUInt32BE(at + 8)) return { kind: 'corrupt', reason: 'its checksum does not match' };
  const idLength = body.readUInt16BE(0);
  if (2 + idLength + 8 > body.length) return { kind: 'corrupt', reason: 'its body is malformed' };
  const docId = body.toString('utf8', 2, 2 + idLength);
  const seq = body.readDoubleBE(2 + idLength);
  const update = new Uint8Array(body.buffer, body.byteOffset + 2 + idLength + 8, body.length - 2 - idLength - 8);
  return { kind: 'record', record: { docId, seq, update }, end };
}

function onlyZerosFrom(buf: Buffer, at: number): boolean {
  for (let i = at; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}
