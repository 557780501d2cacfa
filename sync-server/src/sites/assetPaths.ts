import type { SpaceFile } from './contentSource';

/**
 * Raw HTML from a repository refers to its files by path as written
 * (`.gitbook/assets/icon_dark (1).svg`, `../.gitbook/assets/banner%20wide.png`); this
 * finds the space file it names: by the repository path it was imported from, else by
 * its file name.
 */
export function isRelativePath(src: string): boolean {
  return !!src && !/^[a-z][\w+.-]*:/i.test(src) && !src.startsWith('/') && !src.startsWith('#') && !src.startsWith('?');
}

function normalize(path: string): string {
  let p = path.split(/[?#]/)[0] ?? '';
  try {
    p = decodeURIComponent(p);
  } catch {}
  return p.replace(/^(\.{1,2}\/)+/, '').replace(/\/\.\//g, '/');
}

export function fileByPath(files: Record<string, SpaceFile>, path: string): SpaceFile | undefined {
  const wanted = normalize(path);
  if (!wanted) return undefined;
  const list = Object.values(files);
  const byGit = list.find((f) => f.gitPath && (f.gitPath === wanted || f.gitPath.endsWith(`/${wanted}`)));
  if (byGit) return byGit;
  const name = wanted.split('/').pop();
  return list.find((f) => f.name === name);
}
