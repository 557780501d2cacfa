import type { Queryable } from '../../store/db';

/**
 * Steps that copy what a space owns beyond its row (content branches, files) when it is
 * duplicated. Features that own such data register a step; duplicate runs them all in
 * the same transaction.
 */
export type SpaceCopyStep = (tx: Queryable, fromSpaceId: string, toSpaceId: string) => Promise<void>;

const steps: SpaceCopyStep[] = [];

export function onSpaceCopy(step: SpaceCopyStep) {
  steps.push(step);
}

export async function runSpaceCopySteps(tx: Queryable, fromSpaceId: string, toSpaceId: string) {
  for (const step of steps) await step(tx, fromSpaceId, toSpaceId);
}
