import { sql } from 'drizzle-orm';
import { type EffectiveLevel, highest } from '../../../src/contract/access.ts';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';

/** Who is asking: enough of a user to decide what they may reach. */
export type Actor = { id: number; globalPermission: boolean };

/** Chapters nest shallowly; the cap only protects against a parent cycle written by mistake. */
const maxDepth = 32;

/** `chain`: the organization and its ancestors, each with its depth (0 for the organization). */
const chainOf = (orgId: number) => sql`with recursive chain(id, parent_id, depth) as (
    select id, parent_id, 0 from organizations where id = ${orgId}
    union all
    select o.id, o.parent_id, chain.depth + 1
      from organizations o join chain on o.id = chain.parent_id
     where chain.depth < ${maxDepth}
  )`;

/** The organization and its ancestors (itself first), or [] when it does not exist. */
export async function organizationChain(db: Queryable, orgId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`${chainOf(orgId)}
        select id from chain order by depth`,
  );
  return [...new Set(rows.map((r) => Number(r.id)))];
}

/** The organization's descendants (chapters, and theirs), without the organization itself. */
export async function descendantIds(db: Queryable, orgId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with recursive tree(id, depth) as (
          select id, 0 from organizations where parent_id = ${orgId}
          union all
          select o.id, tree.depth + 1 from organizations o join tree on o.parent_id = tree.id
           where tree.depth < ${maxDepth}
        )
        select distinct id from tree where id <> ${orgId}`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * The actor's level on an organization: the highest level held directly on it or on any
 * ancestor (a parent's level applies to its chapters); super users are admin everywhere.
 * 'none' when the organization does not exist or nothing applies.
 */
export async function effectiveLevel(db: Queryable, actor: Actor, orgId: number): Promise<EffectiveLevel> {
  // One statement (the chain and the levels held on it): every organization-scoped request asks
  // this, and on PGlite each statement is a turn behind the other requests' (server/db/turns.ts).
  const [row] = await queryRows<{ found: boolean; levels: EffectiveLevel[] }>(
    db,
    sql`${chainOf(orgId)}
        select exists (select 1 from chain) as found,
               array(select p.level from permissions p
                      where p.user_id = ${actor.id} and p.org_id in (select id from chain)) as levels`,
  );
  if (!row?.found) return 'none';
  if (actor.globalPermission) return 'admin';
  return highest(row.levels);
}

/**
 * Every organization the actor may reach: those they hold a permission on, and all their
 * chapters. Super users reach 'all'.
 */
export async function reachableOrganizationIds(db: Queryable, actor: Actor): Promise<'all' | number[]> {
  if (actor.globalPermission) return 'all';
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with recursive reach(id, depth) as (
          select org_id, 0 from permissions where user_id = ${actor.id}
          union all
          select o.id, reach.depth + 1 from organizations o join reach on o.parent_id = reach.id
           where reach.depth < ${maxDepth}
        )
        select distinct id from reach`,
  );
  return rows.map((r) => Number(r.id));
}
