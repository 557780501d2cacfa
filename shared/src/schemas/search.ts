import { z } from 'zod';
import { ListQuerySchema, listOf, text } from './common';

/** `query`: the words searched for (the public client's parameter name). */
export const SearchQuery = ListQuerySchema.extend({
  query: text(512, 1).refine((s) => /[\p{L}\p{N}]/u.test(s), 'must contain a letter or a digit'),
});

export const SearchSectionSchema = z.object({
  /** The heading anchor of the section (`''`-free: the page's first section takes the page's id). */
  id: z.string(),
  title: z.string(),
  path: z.string(),
  body: z.string(),
  urls: z.object({ app: z.string() }),
});

export const SpaceSearchResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    path: z.string(),
    sections: z.array(SearchSectionSchema),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'SearchPageResult' });

export const OrgSearchResultSchema = z
  .object({
    /** The space. */
    id: z.string(),
    title: z.string(),
    pages: z.array(SpaceSearchResultSchema),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'SearchSpaceResult' });

export const SpaceSearchListSchema = listOf(SpaceSearchResultSchema);
export const OrgSearchListSchema = listOf(OrgSearchResultSchema);
