import { computed, signal } from '@preact/signals-react';
import { ApiError, errorMessage } from '../api/client.ts';
import { getOrganization, searchOrganizations } from '../api/organization.ts';
import type { Organization, OrganizationSummary, OrgRef, PermissionLevel } from '../contract/index.ts';
import { reloadPage } from './navigation.ts';
import { user } from './session.ts';
import { readStored, removeStored, storageKeys, writeStored } from './storage.ts';
import { toast } from './toasts.ts';

interface OrganizationState {
  /** Whose selection this is: a different user signing in starts afresh. */
  userId: number | null;
  organization: Organization | null;
  accessible: OrganizationSummary[];
  level: PermissionLevel | null;
  loading: boolean;
}

const empty: OrganizationState = {
  userId: null,
  organization: null,
  accessible: [],
  level: null,
  loading: false,
};
const state = signal<OrganizationState>(empty);

function mine(): OrganizationState {
  const s = state.value;
  return s.userId !== null && s.userId === user.value?.id ? s : empty;
}

/** The organization the portal is working on, or null. */
export const currentOrganization = computed(() => mine().organization);
/** It and its chapters: what the caller may reach from it. */
export const accessibleOrganizations = computed(() => mine().accessible);
/** The caller's effective level on the current organization. */
export const currentLevel = computed(() => mine().level);
export const organizationLoading = computed(() => mine().loading);

/** Every organization a member reaches (memberships and their chapters), fetched once per user. */
const reachableState = signal<{ userId: number | null; list: OrganizationSummary[] }>({
  userId: null,
  list: [],
});
let reachableRequest: { userId: number; promise: Promise<void> } | null = null;

/**
 * Loads every organization the signed-in member can reach, so the dropdown lists the same ones
 * whichever is current. Super users search instead. Once per user; a failure leaves what the
 * sign-in and the current organization already tell us.
 */
export function loadReachableOrganizations(): Promise<void> {
  const me = user.value;
  if (!me || me.globalPermission) return Promise.resolve();
  if (reachableRequest?.userId === me.id) return reachableRequest.promise;
  const promise = searchOrganizations('')
    .then((list) => {
      if (user.value?.id === me.id) reachableState.value = { userId: me.id, list };
    })
    .catch(() => {
      if (reachableRequest?.userId === me.id) reachableRequest = null;
    });
  reachableRequest = { userId: me.id, promise };
  return promise;
}

/** An organization as the dropdown lists it: a chapter sits under its parent, one level in. */
export type OrganizationChoice = OrgRef & { depth: number };

/**
 * Every organization the user is known to reach: their own (me.orgs), everything the server says
 * they reach, and the current one's chapters. Parents by name, each followed by its chapters by
 * name; a chapter whose parent the user cannot reach stands on its own.
 */
export const knownOrganizations = computed<OrganizationChoice[]>(() => {
  const me = user.value;
  const byId = new Map<number, { id: number; name: string; parent_id: number | null }>();
  for (const o of me?.orgs ?? []) byId.set(o.id, { id: o.id, name: o.name, parent_id: null });
  const reachable = reachableState.value.userId === me?.id ? reachableState.value.list : [];
  for (const o of [...reachable, ...accessibleOrganizations.value]) {
    const known = byId.get(o.id);
    byId.set(o.id, { id: o.id, name: o.name, parent_id: o.parent_id ?? known?.parent_id ?? null });
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const all = [...byId.values()];
  const isTop = (o: (typeof all)[number]) => o.parent_id === null || !byId.has(o.parent_id);
  const choices: OrganizationChoice[] = [];
  for (const top of all.filter(isTop).sort(byName)) {
    choices.push({ id: top.id, name: top.name, depth: 0 });
    for (const chapter of all.filter((o) => o.parent_id === top.id && !isTop(o)).sort(byName))
      choices.push({ id: chapter.id, name: chapter.name, depth: 1 });
  }
  return choices;
});

export type SelectionSource = 'user' | 'stored' | 'auto';

let latest = 0;

/**
 * spec (part 1, section 4, Current organization): "Selecting an organization loads it and its
 * accessible organizations. Super users get the toast 'Organization Selected'. If loading fails,
 * the stored ids are cleared and the page reloads."
 * An automatic first pick that fails is reported instead of reloading, so a reload can never loop.
 */
export async function selectOrganization(id: number, source: SelectionSource = 'user'): Promise<void> {
  const me = user.value;
  if (!me) return;
  const ticket = ++latest;
  state.value = { ...mine(), userId: me.id, loading: true };
  try {
    const result = await getOrganization(id);
    if (ticket !== latest || user.value?.id !== me.id) return;
    state.value = {
      userId: me.id,
      organization: result.organization,
      accessible: result.accessibleOrganizations,
      level: result.level,
      loading: false,
    };
    writeStored(storageKeys.currentOrganizationId, String(result.organization.id));
    if (me.globalPermission && source === 'user') {
      toast({ title: 'Organization Selected', description: result.organization.name });
    }
  } catch (error) {
    if (ticket !== latest) return;
    state.value = { ...mine(), userId: me.id, loading: false };
    // The API client already signed the user out on a 401.
    if (error instanceof ApiError && error.status === 401) return;
    removeStored(storageKeys.currentOrganizationId);
    removeStored(storageKeys.orgs);
    if (source === 'auto')
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    else reloadPage();
  }
}

function storedOrganizationId(): number | null {
  const raw = readStored(storageKeys.currentOrganizationId);
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * spec: "On start, if none is set, the stored id is used. Otherwise, for non-super users,
 * organizations are searched with an empty term and the first is selected. If none is found,
 * the stored id is cleared." Super users without a stored id pick one themselves.
 */
export async function startOrganization(): Promise<void> {
  const me = user.value;
  if (!me) return;
  const s = mine();
  if (s.organization || s.loading) return;
  const stored = storedOrganizationId();
  if (stored !== null) return selectOrganization(stored, 'stored');
  if (me.globalPermission) return;
  let first: { id: number } | undefined;
  try {
    first = (await searchOrganizations(''))[0];
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return;
    // Same fallback as the picker: the organizations the sign-in told us about.
    first = me.orgs[0];
  }
  // The user may have picked an organization while the search was out: their choice stands.
  if (user.value?.id !== me.id || mine().organization || mine().loading) return;
  if (first) return selectOrganization(first.id, 'auto');
  removeStored(storageKeys.currentOrganizationId);
}

/**
 * Replace the current organization with a fresh answer (after a save), so everything that shows it
 * (the sidebar's name and logo, the setup card) updates. Ignored if the user or organization changed.
 */
export function replaceCurrentOrganization(response: {
  organization: Organization;
  accessibleOrganizations?: OrganizationSummary[];
  level?: PermissionLevel;
}): void {
  const s = mine();
  if (!s.organization || s.organization.id !== response.organization.id) return;
  state.value = {
    ...s,
    organization: response.organization,
    accessible: response.accessibleOrganizations ?? s.accessible,
    level: response.level ?? s.level,
  };
}

/** Change some fields of the current organization (an upload's documents and file_logo, a users list). */
export function patchCurrentOrganization(id: number, fields: Partial<Organization>): void {
  const s = mine();
  if (!s.organization || s.organization.id !== id) return;
  state.value = { ...s, organization: { ...s.organization, ...fields } };
}
