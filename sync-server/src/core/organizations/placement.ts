import { type MoveBody, keyBetween } from '@quire/shared';
import { badRequest, forbidden, notFound } from '@quire/shared/domainErrors';
import { collectionSubtree, getCollection } from '../../store/collections';
import { lastPosition } from '../../store/tree';
import type { Queryable } from '../../store/db';
import { neighbourPosition, setPlacement, siblingPosition } from '../../store/spaces';
import type { OrgAccess } from '../access/callerAccess';
import { mayCollection } from '../policies/collections';
import { mayOrganization } from '../policies/organizations';

export interface Placeable {
  id: string;
  org_id: string;
  parent_id: string | null;
  position: string;
  /** Spaces only: an `in-collection` space cannot leave its collection. */
  visibility?: string;
}

/** Spaces visible `in-collection` take their audience from their collection: they need one. */
export const IN_COLLECTION = 'in-collection';

type Anchor = NonNullable<NonNullable<MoveBody['position']>['before']>;

function anchorRef(a: Anchor): { kind: 'space' | 'collection'; id: string } {
  return a.type === 'space' ? { kind: 'space', id: a.space } : { kind: 'collection', id: a.collection };
}

const INVALID_POSITION = 'Invalid body field "position": invalid position space or collection provided.';

/**
 * Moves a space or collection to a parent collection (or the organization root) and a
 * place among its siblings. Spaces and collections share one sibling order keyed by
 * fractional positions, so a move writes one row. Placing something takes the create role
 * where it goes, as creating it there would.
 */
export async function moveItem(db: Queryable, access: OrgAccess, kind: 'space' | 'collection', item: Placeable, body: MoveBody) {
  const parentId = body.parent === undefined ? item.parent_id : body.parent;
  if (parentId) {
    const parent = await getCollection(db, parentId);
    if (!parent || parent.org_id !== item.org_id || !access.roleOn(parent)) throw notFound('collection');
    if (!mayCollection(access.roleOn(parent), 'create')) throw forbidden('This needs the create role on the target collection.');
    if (kind === 'collection' && (await collectionSubtree(db, item.id)).includes(parentId)) {
      throw badRequest('Invalid body field "parent": a collection cannot be moved into itself or one of its descendants.');
    }
  } else {
    if (!mayOrganization(access, 'createContent')) throw forbidden('This needs the create role in the organization.');
    if (item.visibility === IN_COLLECTION) {
      throw badRequest(
        'Invalid body field "parent": a space visible "in-collection" must stay in a collection; change its visibility first.',
      );
    }
  }

  const resolve = async (a: Anchor | undefined) => {
    if (!a) return undefined;
    const ref = anchorRef(a);
    const row = await siblingPosition(db, ref.kind, ref.id);
    if (!row || row.org_id !== item.org_id || row.id === item.id || row.parent_id !== parentId) throw badRequest(INVALID_POSITION);
    return row;
  };
  const before = await resolve(body.position?.before);
  const after = await resolve(body.position?.after);

  let position: string;
  if (before && after) {
    if (after.position >= before.position) throw badRequest(INVALID_POSITION);
    position = keyBetween(after.position, before.position);
  } else if (before) {
    position = keyBetween(await neighbourPosition(db, item.org_id, parentId, before.position, 'before', item.id), before.position);
  } else if (after) {
    position = keyBetween(after.position, await neighbourPosition(db, item.org_id, parentId, after.position, 'after', item.id));
  } else if (parentId === item.parent_id) {
    throw badRequest('The operation would not result in any update.');
  } else {
    position = keyBetween(await lastPosition(db, item.org_id, parentId), null);
  }

  if (parentId === item.parent_id) {
    // Already exactly there: the neighbours on both sides are unchanged.
    const prev = await neighbourPosition(db, item.org_id, parentId, item.position, 'before', item.id);
    const next = await neighbourPosition(db, item.org_id, parentId, item.position, 'after', item.id);
    const wantPrev =
      after?.position ?? (before ? await neighbourPosition(db, item.org_id, parentId, before.position, 'before', item.id) : null);
    const wantNext =
      before?.position ?? (after ? await neighbourPosition(db, item.org_id, parentId, after.position, 'after', item.id) : null);
    if (prev === wantPrev && next === wantNext) throw badRequest('The operation would not result in any update.');
  }
  await setPlacement(db, kind, item.id, parentId, position);
}
