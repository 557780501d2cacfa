import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Credentials {
  url: string;
  token: string;
}

/**
 * Where the server token lives. The Electron app keeps it encrypted with the OS keychain
 * (safeStorage); headless runs keep it in memory or in a private file. The LocalNode
 * never writes the token into its database.
 */
export interface CredentialStore {
  /** True when the token is encrypted at rest by the operating system. */
  readonly encrypted: boolean;
  load(): Promise<Credentials | null>;
  save(credentials: Credentials): Promise<void>;
  clear(): Promise<void>;
}

/** Forgets everything on exit: tests, throwaway sessions. */
export class MemoryCredentialStore implements CredentialStore {
  readonly encrypted = false;
  private value: Credentials | null;
  constructor(initial: Credentials | null = null) {
    this.value = initial;
  }
  async load() {
    return this.value;
  }
  async save(credentials: Credentials) {
    this.value = credentials;
  }
  async clear() {
    this.value = null;
  }
}

/**
 * A JSON file readable by the owner only, optionally passed through an encryptor (the
 * Electron main process plugs safeStorage in here).
 */
export class FileCredentialStore implements CredentialStore {
  constructor(
    private readonly path: string,
    private readonly codec?: { encrypt(plain: string): Buffer; decrypt(data: Buffer): string },
  ) {}

  get encrypted() {
    return !!this.codec;
  }

  async load(): Promise<Credentials | null> {
    if (!existsSync(this.path)) return null;
    try {
      const raw = readFileSync(this.path);
      const text = this.codec ? this.codec.decrypt(raw) : raw.toString('utf8');
      const parsed = JSON.parse(text) as Partial<Credentials>;
      return typeof parsed.url === 'string' && typeof parsed.token === 'string' ? { url: parsed.url, token: parsed.token } : null;
    } catch {
      // Unreadable (another OS account's keychain, a damaged file): sign in again.
      return null;
    }
  }

  async save(credentials: Credentials) {
    mkdirSync(dirname(this.path), { recursive: true });
    const text = JSON.stringify(credentials);
    writeFileSync(this.path, this.codec ? this.codec.encrypt(text) : text, { mode: 0o600 });
    chmodSync(this.path, 0o600);
  }

  async clear() {
    rmSync(this.path, { force: true });
  }
}
