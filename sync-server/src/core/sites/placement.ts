import { keyBetween } from '@quire/shared';
import { badRequest } from '@quire/shared/domainErrors';
import type { Sibling } from '../../store/sitesStructure';

/** A move anchor: the sibling to go before or after. */
export interface AnchorRef {
  kind: Sibling['kind'];
  id: string;
}

/**
 * The new position of `itemId` among `siblings` (in order, the item included):
 * `before` puts it just before that sibling, `after` just after it, both between them
 * (which must then be neighbours). An anchor that is not a sibling, is the item itself,
 * or a pair in the wrong order is refused with `invalidMessage`; so is a move with no
 * anchor at all. Only the moved item gets a new key.
 */
export function positionAmong(
  siblings: Sibling[],
  itemId: string,
  anchors: { before?: AnchorRef; after?: AnchorRef },
  invalidMessage: string,
): string {
  const others = siblings.filter((s) => s.id !== itemId);
  const find = (a: AnchorRef | undefined) => {
    if (!a) return -1;
    const i = others.findIndex((s) => s.id === a.id && s.kind === a.kind);
    if (i < 0) throw badRequest(invalidMessage);
    return i;
  };
  if (!anchors.before && !anchors.after) throw badRequest(invalidMessage);
  const b = find(anchors.before);
  const a = find(anchors.after);
  if (anchors.before && anchors.after && a + 1 !== b) throw badRequest(invalidMessage);
  // The slot the item goes into: index in `others` it will take.
  const slot = anchors.before ? b : a + 1;
  const prev = others[slot - 1]?.position ?? null;
  const next = others[slot]?.position ?? null;
  if (prev !== null && next !== null && prev >= next) {
    // Equal keys (rows placed concurrently): give way to a key after the previous one only.
    return keyBetween(prev, null);
  }
  return keyBetween(prev, next);
}

/** The key after the last sibling: where new items go. */
export function positionAtEnd(siblings: Sibling[]): string {
  return keyBetween(siblings.at(-1)?.position ?? null, null);
}
