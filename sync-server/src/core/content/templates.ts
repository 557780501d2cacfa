import { newId } from '@quire/shared';
import { type CreatePageInput, createPage } from '@quire/shared/content/index';
import type { ContentRef } from '@quire/shared/schemas/content';
import { DomainError, badRequest } from '@quire/shared/domainErrors';
import type { Db, Queryable } from '../../store/db';
import { getSpecByRef } from '../../store/openapiSpecs';
import type { SpaceRow } from '../../store/spaces';
import type { Branch } from './branches';
import { editBranch } from './revisions';

export type TemplatePage = Omit<CreatePageInput, 'parent'> & { children?: TemplatePage[] };

interface Template {
  title: string;
  /** Content references the template needs, by key. */
  needs?: { key: string; kind: ContentRef['kind'] }[];
  pages(refs: Record<string, ContentRef>): TemplatePage[];
}

/** Built-in templates: starting points a new space can be filled with. */
export const TEMPLATES: Record<string, Template> = {
  'getting-started': {
    title: 'Getting started',
    pages: () => {
      const quickstart = newId();
      const faq = newId();
      return [
        {
          title: 'Welcome',
          markdown: `This space holds the documentation of your product.\n\n{% hint style="info" %}\nEdit this page, or replace it by importing existing docs.\n{% endhint %}\n\n## Jump right in\n\n* [Quickstart](page:${quickstart})\n* [FAQ](page:${faq})\n`,
        },
        {
          id: quickstart,
          title: 'Quickstart',
          markdown:
            '## Install\n\nDescribe how to install the product.\n\n## Configure\n\nDescribe the first settings.\n\n## Use it\n\nShow the first thing a reader does with it.\n',
        },
        {
          id: faq,
          title: 'FAQ',
          markdown: '<details>\n\n<summary>Where do I ask a question?</summary>\n\nSay where readers get help.\n\n</details>\n',
        },
      ];
    },
  },
  'product-docs': {
    title: 'Product documentation',
    pages: () => [
      { title: 'Overview', markdown: 'What the product is, who it is for, and what it does.\n' },
      {
        title: 'Guides',
        type: 'group',
        children: [
          { title: 'Creating your first project', markdown: '1. Step one.\n2. Step two.\n' },
          { title: 'Inviting your team', markdown: 'How to bring others in.\n' },
        ],
      },
      { title: 'Changelog', markdown: '## Unreleased\n\n* Describe the change.\n' },
    ],
  },
  'api-reference': {
    title: 'API reference',
    needs: [{ key: 'spec', kind: 'openapi' }],
    pages: (refs) => [
      {
        title: 'API reference',
        markdown: 'Every operation of the API, generated from its OpenAPI specification.\n',
        computed: { type: 'builtin:openapi', dependencies: { spec: { ref: refs.spec as unknown as { [k: string]: string } } }, props: {} },
      },
    ],
  },
};

/**
 * A template's pages, once its id and content references are checked: a missing reference
 * is a 400, one naming something the organization does not have a 404. `field` is where
 * the template sits in the request body (`template.` when it is nested), for the messages.
 */
export async function templatePages(
  db: Queryable,
  orgId: string,
  templateId: string,
  refs: Record<string, ContentRef>,
  field = '',
): Promise<TemplatePage[]> {
  // Only the templates' own names: `constructor` or `__proto__` is no template either.
  const template = Object.hasOwn(TEMPLATES, templateId) ? TEMPLATES[templateId] : undefined;
  if (!template)
    throw badRequest(`Invalid body field "${field}id": no template "${templateId}"; templates are ${Object.keys(TEMPLATES).join(', ')}.`);
  for (const need of template.needs ?? []) {
    const ref = refs[need.key];
    if (!ref)
      throw badRequest(
        `Missing body field "${field}params.contentRefs.${need.key}": the ${templateId} template needs a content reference of kind ${need.kind}.`,
      );
    if (ref.kind !== need.kind) throw badRequest(`Invalid body field "${field}params.contentRefs.${need.key}.kind": must be ${need.kind}.`);
    if (ref.kind === 'openapi' && !(await getSpecByRef(db, orgId, ref.spec))) {
      throw new DomainError('not_found', 'No matching OpenAPI specification found.');
    }
  }
  return template.pages(refs);
}

/** Adds checked template pages at the end of a branch, as one revision (`template`). */
export function writeTemplate(tx: Queryable, branch: Branch, pages: TemplatePage[], userId: string) {
  return editBranch(
    tx,
    branch,
    (doc) => {
      const add = (list: TemplatePage[], parent: string | null) => {
        for (const { children, ...page } of list) {
          const id = createPage(doc, { ...page, parent });
          if (children) add(children, id);
        }
      };
      add(pages, null);
    },
    { type: 'template', createdBy: userId },
  );
}

/**
 * Adds a template's pages at the end of a branch (main, or a change request), as one
 * revision (`template`). Content references are checked before anything is written.
 */
export async function applyTemplate(
  db: Db,
  space: SpaceRow,
  branch: Branch,
  templateId: string,
  refs: Record<string, ContentRef>,
  userId: string,
) {
  const pages = await templatePages(db, space.org_id, templateId, refs);
  return db.transaction((tx) => writeTemplate(tx, branch, pages, userId));
}
