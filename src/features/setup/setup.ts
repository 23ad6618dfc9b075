import { differenceInMilliseconds } from 'date-fns';
import type { Organization, SetupStep } from '../../contract/index.ts';

/** What each checklist step asks for (spec section 5 says when each shows; the words are ours). */
export const stepTexts: Record<SetupStep, { title: string; text: string }> = {
  details: {
    title: 'Organization details',
    text: 'Fill in your organization’s name, type, phone number, mission and website.',
  },
  categories: {
    title: 'Categories',
    text: 'Choose the categories that describe your work, so companies know what they are matching.',
  },
  communication: {
    title: 'Contact information',
    text: 'Name the primary contact who receives billing and donor emails.',
  },
  address: {
    title: 'Address',
    text: 'Add your organization’s mailing address, where paper matching forms can reach you.',
  },
  documents: {
    title: 'Logo',
    text: 'Upload your logo (PNG or JPG). It shows on your matching page and in the emails donors get.',
  },
  billing: {
    title: 'Choose a plan',
    text: 'Pick the plan that turns matching on for your donors.',
  },
};

/** spec (section 9): "Organization update delay: 2 seconds." */
export const completeDelay = 2000;
/** spec (section 9): "Welcome card hidden 1 day after onboarded." */
export const welcomeDuration = 24 * 60 * 60 * 1000;

/** The step to show once the list changed under it (a step got done): stay in range. */
export function clampStep(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(Math.max(0, index), count - 1);
}

/**
 * spec (section 2): "Once the organization is complete and premium, a welcome card shows ... It
 * disappears once the onboarded date is more than one day old." A chapter premium through its
 * parent ('parent') counts as premium here.
 */
export function showWelcome(
  organization: Pick<Organization, 'complete' | 'is_premium' | 'onboarded'>,
  now: Date = new Date(),
): boolean {
  if (!organization.complete || !organization.is_premium) return false;
  if (!organization.onboarded) return true;
  const onboarded = new Date(organization.onboarded);
  if (Number.isNaN(onboarded.getTime())) return true;
  return differenceInMilliseconds(now, onboarded) <= welcomeDuration;
}

export interface Debounced {
  /** (Re)start the wait: the action runs once, `delay` ms after the last call. */
  schedule(): void;
  /** Run a pending action now (e.g. the card goes away before the wait is over). */
  flush(): void;
  cancel(): void;
  readonly pending: boolean;
}

/** spec (section 4, Onboarding): "The update is delayed by 2 seconds (debounced)." */
export function debounce(action: () => void, delay: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    action();
  };
  return {
    schedule() {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(run, delay);
    },
    flush() {
      if (timer === null) return;
      clearTimeout(timer);
      run();
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
    get pending() {
      return timer !== null;
    },
  };
}
