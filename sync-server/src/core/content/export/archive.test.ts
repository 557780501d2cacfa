import { describe, expect, it } from 'vitest';
import { entryName, packArchive } from './archive';

const bytes = new TextEncoder().encode('x');

describe('archive entry names', () => {
  it.each(['SUMMARY.md', 'guide/install.md', '.gitbook/assets/logo (1).png', '.gitbook/includes/intro.md', 'a..b/c.md'])(
    'takes %j',
    (name) => {
      expect(entryName(name)).toBe(name);
    },
  );

  it.each(['../x.md', 'a/../../x.md', '/etc/passwd', 'a//b.md', './a.md', 'a/.', '..\\win.md', 'C:/x.md', 'c:x.md', 'a\u0000.md', ''])(
    'refuses %j, which would unpack outside the folder',
    async (name) => {
      expect(() => entryName(name)).toThrow(/outside the archive/);
      for (const format of ['zip', 'tar.gz'] as const) {
        await expect(Promise.resolve().then(() => packArchive(new Map([[name, bytes]]), format))).rejects.toThrow(/outside the archive/);
      }
    },
  );
});
