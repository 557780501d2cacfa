import { z } from 'zod';
import { ListQuerySchema, listOf, text } from './common';

/** `query`: the words searched for (the public client's parameter name). */
export const SearchQuery = ListQuerySchema.extend({
  query: text(512, 1).refine((s) => /[\p{L}\p{N}]/u.test(s), 'must contain a letter or a digit'),
});

/** How well a result matches: higher is better; comparable within one answer only. */
const Score = z.number();

export const SearchSectionSchema = z.object({
  /** The heading anchor of the section (`''`-free: the page's first section takes the page's id). */
  id: z.string(),
  title: z.string(),
  path: z.string(),
  body: z.string(),
  score: Score,
  resultType: z.literal('section'),
  urls: z.object({ app: z.string() }),
});

export const SpaceSearchResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    /** The page's description, `''` when it has none. */
    description: z.string(),
    path: z.string(),
    score: Score,
    /** Position of the page among the results, 1 for the best match. */
    rank: z.number().int(),
    resultType: z.literal('page'),
    sections: z.array(SearchSectionSchema),
    /** Titles of the pages above this one, from the top of the tree down. */
    ancestors: z.array(z.object({ title: z.string() })),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'SearchPageResult' });

export const OrgSearchResultSchema = z
  .object({
    type: z.literal('space'),
    /** The space. */
    id: z.string(),
    title: z.string(),
    score: Score,
    pages: z.array(SpaceSearchResultSchema),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'SearchSpaceResult' });

export const SpaceSearchListSchema = listOf(SpaceSearchResultSchema);
export const OrgSearchListSchema = listOf(OrgSearchResultSchema);
