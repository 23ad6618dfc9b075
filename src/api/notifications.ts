import { NotificationPreview } from '../contract/notifications.ts';
import { request } from './client.ts';

/** GET /api/notification/{id}/preview: a donor email as it was sent (without its open-tracking image). */
export function getNotificationPreview(id: string): Promise<NotificationPreview> {
  return request(NotificationPreview, `api/notification/${encodeURIComponent(id)}/preview`);
}
