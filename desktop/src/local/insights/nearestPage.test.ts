import { describe, expect, it } from 'vitest';
import { nearestPage } from './nearestPage';

const page = (path: string) => ({ path, siteSpaceId: 'ss1', pageId: `p${path.length}` });

describe('nearestPage', () => {
  const pages = [page('/guides/install'), page('/guides/configure'), page('/reference/api'), page('/')];

  it('follows a page that moved to another folder', () => {
    expect(nearestPage('/setup/install', pages)?.path).toBe('/guides/install');
  });

  it('finds the page behind a typo or an old spelling', () => {
    expect(nearestPage('/guides/instal', pages)?.path).toBe('/guides/install');
    expect(nearestPage('/guides/configuration', pages)?.path).toBe('/guides/configure');
  });

  it('suggests nothing when the site has no page', () => {
    expect(nearestPage('/anything', [])).toBeNull();
  });
});
