import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data directory holds the database (server secrets, the SAML private key, token
 * hashes), uploads and the journal: no other local account may read or write it. On
 * start the folder and everything below it are made private (folders 0700, files 0600),
 * which fixes a directory made by an older version or another tool, and the process
 * creates later files private too (umask 077). PGlite's file layer is the exception: it
 * sets the modes of the files it creates itself (0666), so the walk runs again once the
 * database has started (`makeTreePrivate`); what PGlite creates later is kept from other
 * accounts by the folder's own 0700.
 */
export function makeDataDirPrivate(dir: string) {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot set the umask; the walk below still fixes what exists.
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  privateTree(dir);
}

/** Folders 0700 and files 0600 below `dir`, as they are now. */
export function makeTreePrivate(dir: string) {
  privateTree(dir);
}

function privateTree(path: string) {
  const st = lstatSync(path);
  // A link is not followed: what it points at is not ours to change.
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) privateTree(join(path, name));
  } else if ((st.mode & 0o777) !== 0o600) {
    chmodSync(path, 0o600);
  }
}
