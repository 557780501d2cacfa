import type { CreateSpaceBody } from '@quire/shared/schemas/spaceCreate';
import type { OrgAccess } from './access';
import { requireCreateIn } from './collections';
import { initSpaceContent } from './content/revisions';
import { templatePages, writeTemplate } from './content/templates';
import type { Db } from '../store/db';
import type { OrgRow } from '../store/organizations';
import { type SpaceCounts, spaceCounts } from '../store/spaceCounts';
import { type SpaceRow, createSpace, getSpace, updateSpace } from '../store/spaces';

/**
 * Creates a space at the organization's top level or in a collection (the create role
 * there), with its content started, from a template when one is named. A template that
 * cannot be applied creates nothing. Answers the space with its counters.
 */
export async function createSpaceIn(
  db: Db,
  org: OrgRow,
  access: OrgAccess,
  userId: string,
  fields: CreateSpaceBody,
): Promise<{ space: SpaceRow; counts: SpaceCounts }> {
  await requireCreateIn(db, org, access, fields.parent);
  // Checked before anything is written: a template that cannot be applied creates no space.
  const pages =
    fields.template && (await templatePages(db, org.id, fields.template.id, fields.template.params?.contentRefs ?? {}, 'template.'));
  const space = await db.transaction(async (tx) => {
    const created = await createSpace(tx, org.id, {
      title: fields.title ?? 'Untitled',
      emoji: fields.emoji,
      parentId: fields.parent,
      language: fields.language,
    });
    await initSpaceContent(tx, created.id);
    if (pages) await writeTemplate(tx, { spaceId: created.id }, pages, userId);
    // Locked last: a template fills the space before edits are closed.
    if (fields.editMode) await updateSpace(tx, created.id, { editMode: fields.editMode });
    return (await getSpace(tx, created.id)) as SpaceRow;
  });
  const counts = await spaceCounts(db, [space.id]);
  return { space, counts: counts.get(space.id) as SpaceCounts };
}
