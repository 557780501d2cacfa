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
  const key = await serverSecret(db, SECRET);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export async function unsealCredentials(db: Queryable, sealed: string | null): Promise<GitCredentials | undefined> {
  if (!sealed) return undefined;
  const key = await serverSecret(db, SECRET);
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as GitCredentials;
}
