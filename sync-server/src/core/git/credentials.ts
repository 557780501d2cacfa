import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Queryable } from '../../store/db';
import { serverSecret } from '../security/secrets';
import type { GitCredentials } from './address';

/*
 * The credentials of a queued operation must outlive a restart (the operation resumes),
 * so they are stored, sealed with a server secret, and erased when the operation ends.
 */

const SECRET = 'git-credentials';

export async function sealCredentials(db: Queryable, credentials: GitCredentials | undefined): Promise<string | null> {
  if (!credentials) return null;
  return seal(db, JSON.stringify(credentials));
}

export async function unsealCredentials(db: Queryable, sealed: string | null): Promise<GitCredentials | undefined> {
  if (!sealed) return undefined;
  return JSON.parse(await unseal(db, sealed)) as GitCredentials;
}

/** A secret sealed with the server's key (AES-256-GCM): what the database holds of a token or a webhook secret. */
export async function seal(db: Queryable, plain: string): Promise<string> {
  const key = await serverSecret(db, SECRET);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export async function unseal(db: Queryable, sealed: string): Promise<string> {
  const key = await serverSecret(db, SECRET);
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
