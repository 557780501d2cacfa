import { describe, expect, it } from 'vitest';
import type { PublishedPage } from './contentSource';
import { coverPosition, pageLayout } from './pageLayout';

const page = (yPos: unknown, size = 'hero') => ({ cover: { yPos }, layout: { cover: { size } } }) as unknown as PublishedPage;
const position = (yPos: unknown, image = { src: '/x', width: 1990, height: 960 }, size = 'hero') =>
  coverPosition(page(yPos, size), image, pageLayout(page(yPos, size)));

describe("a cover's coverY", () => {
  it('leaves a centred cover (0, missing, or an image that is not cropped) without a position', () => {
    expect(position(0)).toBeUndefined();
    expect(position(undefined)).toBeUndefined();
    expect(position(-40, { src: '/x', width: 3250, height: 1000 })).toBeUndefined();
    expect(position(-40, { src: '/x', width: 0, height: 0 })).toBeUndefined();
    expect(coverPosition(page(-40), undefined, pageLayout(page(-40)))).toBeUndefined();
  });

  it('moves the crop as GitBook does: up shows more of the lower part, down of the upper', () => {
    // 1990×960 drawn 780×376 in a 240 px band: 136 px to spare, 1 px of coverY is 0.39 px drawn.
    expect(position(-100)).toBe(80);
    expect(position(100)).toBe(20);
    expect(position(-10_000)).toBe(100);
    expect(position(10_000)).toBe(0);
  });

  it('is not applied to a full-size cover, which is never cropped', () => {
    expect(position(-100, undefined, 'full')).toBeUndefined();
  });
});
