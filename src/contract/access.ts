/**
 * Who may do what. The one table both the server guard and the UI read.
 *
 * spec (part 1, section 6): levels are admin, write and read; admins manage users; super users
 * (global permission) may act on any organization. Where the spec is silent we decided:
 * - read sees an organization and everything in it;
 * - write also changes matches, templates, reports, campaigns and the organization's own details;
 * - admin also manages users, API keys, webhooks, settings (keys, notifees) and billing;
 * - a level held on a parent organization applies to each of its chapters (children), and the
 *   highest level along the chain wins;
 * - super users act as admin on every organization.
 */
export const permissionLevels = ['read', 'write', 'admin'] as const;
export type PermissionLevel = (typeof permissionLevels)[number];
/** spec: "The level defaults to 'none' when missing." */
export type EffectiveLevel = PermissionLevel | 'none';

const rank: Record<EffectiveLevel, number> = { none: 0, read: 1, write: 2, admin: 3 };

export function atLeast(have: EffectiveLevel, need: PermissionLevel): boolean {
  return rank[have] >= rank[need];
}

export function highest(levels: Iterable<EffectiveLevel>): EffectiveLevel {
  let best: EffectiveLevel = 'none';
  for (const level of levels) if (rank[level] > rank[best]) best = level;
  return best;
}

/** Capabilities by the minimum level they need. UI hides or disables what a level cannot do. */
export const capabilities = {
  'organization.view': 'read',
  'organization.update': 'write',
  'donations.view': 'read',
  'donations.change': 'write',
  'templates.change': 'write',
  'reports.change': 'write',
  'campaigns.change': 'write',
  'users.manage': 'admin',
  'settings.manage': 'admin',
  'keys.manage': 'admin',
  'webhooks.manage': 'admin',
  'billing.manage': 'admin',
} as const satisfies Record<string, PermissionLevel>;
export type Capability = keyof typeof capabilities;

export function can(level: EffectiveLevel, capability: Capability): boolean {
  return atLeast(level, capabilities[capability]);
}

/**
 * What a route requires of its caller. Every server route declares one of these next to its
 * definition; organization-scoped levels also name how the organization id is found.
 */
export type RouteAccess =
  | 'anonymous'
  | 'authenticated'
  | 'donor'
  | 'super'
  | { level: PermissionLevel; capability?: Capability };
