import { format, isValid, parseISO } from 'date-fns';

/** spec (section 2): "Dates display as 'MMM dd, yyyy'". */
export function displayDate(iso: string | null): string {
  if (!iso) return '';
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'MMM dd, yyyy') : '';
}

/** A scheduled email's time: the day as the spec shows dates, and the hour (it goes on the hour's round). */
export function displayDateTime(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'MMM dd, yyyy, h:mm a') : '';
}

/** spec (section 5): "Email open data exists only for notifications after March 2019." */
const openTrackingSince = Date.UTC(2019, 2, 1);

export function firstOpenText(notification: { first_open: string | null; created_at: string }): string {
  if (notification.first_open) return displayDate(notification.first_open);
  return Date.parse(notification.created_at) < openTrackingSince ? 'Not tracked' : 'Not opened';
}
