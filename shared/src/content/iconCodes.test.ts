import { describe, expect, it } from 'vitest';
import { headingAnchors } from './anchors';
import { iconOfClasses, splitIconCodes, withoutIconCodes } from './iconCodes';
import { markdownToBody } from './markdown/parse';
import { bodySections } from './text';

describe('icon codes', () => {
  it('finds codes that stand as words, and nothing that only looks like one', () => {
    expect(splitIconCodes(':rocket: Launch, then (:globe:).')).toEqual([
      { icon: 'rocket' },
      { text: ' Launch, then (' },
      { icon: 'globe' },
      { text: ').' },
    ]);
    for (const plain of ['10:30:00', 'std::map::find', 'a:b:c', 'ratio 1:2:3', 'Note: see: here']) {
      expect(withoutIconCodes(plain)).toBe(plain);
    }
    expect(withoutIconCodes('Click :hand-pointer: here')).toBe('Click here');
  });

  it('reads the icon and its style from Font Awesome classes', () => {
    expect(iconOfClasses(['fa-hand-pointer'])).toEqual({ name: 'hand-pointer' });
    expect(iconOfClasses(['fa-brands', 'fa-github', 'fa-fw'])).toEqual({ name: 'github', style: 'brands' });
    expect(iconOfClasses(['fas', 'fa-2x', 'fa-code'])).toEqual({ name: 'code', style: 'solid' });
    expect(iconOfClasses(['fa-solid'])).toBeUndefined();
  });

  it('leaves codes out of heading anchors and search sections', () => {
    const { doc } = markdownToBody('## :rocket: Launch\n\nGo :globe: now.\n\n## <i class="fa-gear">:gear:</i> Settings\n');
    expect(headingAnchors(doc).map((h) => [h.anchor, h.title.trim()])).toEqual([
      ['launch', 'Launch'],
      ['settings', 'Settings'],
    ]);
    expect(bodySections(doc).map((s) => s.text)).toEqual(['Go now.', '']);
  });
});
