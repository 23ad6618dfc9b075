import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyOrganization, remainingSetupSteps, setupStepLinks } from '../../contract/index.ts';
import { clampStep, completeDelay, debounce, showWelcome } from './setup.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('Mark Setup Complete', () => {
  it('waits 2 seconds, and clicks within them send once', () => {
    vi.useFakeTimers();
    const send = vi.fn();
    const d = debounce(send, completeDelay);
    d.schedule();
    vi.advanceTimersByTime(1500);
    d.schedule();
    vi.advanceTimersByTime(1999);
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends at once when the card goes away during the wait, and not at all when cancelled', () => {
    vi.useFakeTimers();
    const send = vi.fn();
    const d = debounce(send, completeDelay);
    d.schedule();
    expect(d.pending).toBe(true);
    d.flush();
    expect(send).toHaveBeenCalledTimes(1);
    d.flush();
    expect(send).toHaveBeenCalledTimes(1);
    d.schedule();
    d.cancel();
    vi.advanceTimersByTime(5000);
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('setup step navigation', () => {
  it('stays in range when a step gets done under it', () => {
    expect(clampStep(0, 3)).toBe(0);
    expect(clampStep(2, 3)).toBe(2);
    expect(clampStep(2, 2)).toBe(1);
    expect(clampStep(-1, 2)).toBe(0);
    expect(clampStep(4, 0)).toBe(0);
  });

  it('lists the steps of a new organization in the spec order, each with its tab', () => {
    const steps = remainingSetupSteps({ ...emptyOrganization, needed: ['donor_contact'] });
    expect(steps).toEqual(['details', 'categories', 'communication', 'address', 'documents', 'billing']);
    expect(steps.map((s) => setupStepLinks[s])).toEqual([
      '/portal/organization-details?tab=basic',
      '/portal/organization-details?tab=categories',
      '/portal/organization-details?tab=contact',
      '/portal/organization-details?tab=address',
      '/portal/organization-details?tab=files',
      '/portal/billing',
    ]);
  });
});

describe('the welcome card', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const complete = { complete: true, is_premium: true, onboarded: '2026-11-23T08:00:00Z' } as const;

  it('shows for a complete, premium organization onboarded within the day', () => {
    expect(showWelcome(complete, now)).toBe(true);
    expect(showWelcome({ ...complete, onboarded: '2026-11-22T12:00:00Z' }, now)).toBe(true);
  });

  it('is gone more than a day after onboarding, and never shows before complete and premium', () => {
    expect(showWelcome({ ...complete, onboarded: '2026-11-22T11:59:59Z' }, now)).toBe(false);
    expect(showWelcome({ ...complete, complete: false }, now)).toBe(false);
    expect(showWelcome({ ...complete, is_premium: false }, now)).toBe(false);
  });
});
