import type { Db } from '../../store/db';
import { type AgentInstructionsRow, getAgentInstructions, putAgentInstructions } from '../../store/organizations';

/*
 * An organization's instructions for AI agents: a document every member reads, its admins
 * replace (the role is checked where the organization is loaded for the caller).
 */

/** The instructions as last written; undefined when none were ever written. */
export function agentInstructionsOf(db: Db, orgId: string): Promise<AgentInstructionsRow | undefined> {
  return getAgentInstructions(db, orgId);
}

/** Replaces the instructions, noting who wrote them. */
export function replaceAgentInstructions(db: Db, orgId: string, instructions: unknown, userId: string): Promise<AgentInstructionsRow> {
  return putAgentInstructions(db, orgId, instructions, userId);
}
