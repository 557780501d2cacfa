import { describe, expect, it } from 'vitest';
import { shownUrl } from './shownUrl';

describe('shownUrl', () => {
  it.each([
    ['https://user:pass@hooks.example/in?x=1#y', 'https://***:***@hooks.example/in?x=1#y'],
    ['https://token@hooks.example/in', 'https://***@hooks.example/in'],
    ['https://:pass@hooks.example/', 'https://***:***@hooks.example/'],
    ['https://hooks.example/in?next=a@b', 'https://hooks.example/in?next=a@b'],
    ['https://hooks.example', 'https://hooks.example'],
    ['http://user:pass@[bad/x', 'http://***@[bad/x'],
  ])('%s is shown as %s', (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });
});
