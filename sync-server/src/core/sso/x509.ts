import { type KeyObject, X509Certificate, createPublicKey, randomBytes, sign } from 'node:crypto';

/*
 * Just enough DER to write a self-signed X.509 v3 certificate for an RSA key: SAML metadata
 * publishes the service provider's signing key as a certificate, and node:crypto can read
 * certificates but not write them.
 */

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}

const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const nul = () => Buffer.from([0x05, 0x00]);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const bitString = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);

function integer(b: Buffer): Buffer {
  let body = b;
  while (body.length > 1 && body[0] === 0 && ((body[1] as number) & 0x80) === 0) body = body.subarray(1);
  if (((body[0] as number) & 0x80) !== 0) body = Buffer.concat([Buffer.from([0]), body]);
  return tlv(0x02, body);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [40 * (parts[0] as number) + (parts[1] as number)];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [];
    let v = p;
    do {
      chunk.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i] = (chunk[i] as number) | 0x80;
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on, as RFC 5280 requires. */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const COMMON_NAME = '2.5.4.3';

export interface SelfSignedOptions {
  privateKey: KeyObject;
  commonName: string;
  notBefore?: Date;
  notAfter?: Date;
}

/** A PEM certificate for an RSA key pair, signed by itself (SHA-256). */
export function selfSignedCertificate(opts: SelfSignedOptions): string {
  const publicKey = createPublicKey(opts.privateKey);
  const notBefore = opts.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter = opts.notAfter ?? new Date(notBefore.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const name = seq(set(seq(oid(COMMON_NAME), utf8(opts.commonName))));
  const algorithm = seq(oid(SHA256_WITH_RSA), nul());
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    algorithm,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, opts.privateKey);
  const der = seq(tbs, algorithm, bitString(signature));
  const b64 =
    der
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? '';
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

/**
 * A certificate as given by an administrator (PEM, or the bare base64 many identity
 * providers show) in normalized PEM; undefined when it is not an X.509 certificate.
 */
export function normalizeCertificate(input: string): string | undefined {
  const body = input.replace(/-----BEGIN CERTIFICATE-----|-----END CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return undefined;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return undefined;
  }
}
