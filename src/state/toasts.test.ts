import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultToastDuration, dismissToast, toast, toasts } from './toasts.ts';

beforeEach(() => {
  vi.useFakeTimers();
  dismissToast();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows only one toast at a time: the newest replaces the one showing', () => {
    toast({ title: 'Login Successful', description: 'Welcome back, Ada!' });
    toast({ title: 'Login Failed', description: 'Invalid email or password', variant: 'destructive' });
    expect(toasts.value).toHaveLength(1);
    expect(toasts.value[0]).toMatchObject({ title: 'Login Failed', variant: 'destructive' });
  });

  it('goes away after 5000 ms by default', () => {
    expect(defaultToastDuration).toBe(5000);
    toast({ title: 'Logged out' });
    vi.advanceTimersByTime(4999);
    expect(toasts.value.map((t) => t.title)).toEqual(['Logged out']);
    vi.advanceTimersByTime(1);
    expect(toasts.value).toEqual([]);
  });

  it('a replaced toast does not take its successor down with its timer', () => {
    toast({ title: 'First' });
    vi.advanceTimersByTime(4000);
    toast({ title: 'Second' });
    vi.advanceTimersByTime(1500);
    expect(toasts.value.map((t) => t.title)).toEqual(['Second']);
  });

  it('can be dismissed before its time', () => {
    const id = toast({ title: 'Magic Link Created' });
    dismissToast(id);
    expect(toasts.value).toEqual([]);
  });
});
