/**
 * Raw HTML from a repository refers to its files by path as written
 * (`.gitbook/assets/icon_dark (1).svg`, `../.gitbook/assets/banner%20wide.png`); these
 * find the space file such a path names: by the repository path it was imported from,
 * else by its file name. Sites, `.md` pages and PDFs resolve them alike.
 */

/** A path relative to the page (no scheme, not rooted, not an anchor or a query). */
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

/** The file a repository path names, among files given with the repository path each came from. */
export function fileByPath<F extends { name: string; gitPath?: string }>(files: Iterable<F>, path: string): F | undefined {
  const wanted = normalize(path);
  if (!wanted) return undefined;
  const list = [...files];
  const byGit = list.find((f) => f.gitPath && (f.gitPath === wanted || f.gitPath.endsWith(`/${wanted}`)));
  if (byGit) return byGit;
  const name = wanted.split('/').pop();
  return list.find((f) => f.name === name);
}
