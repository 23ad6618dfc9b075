import * as z from 'zod/mini';

/** spec (section 2): "A preview link per sent notification opens /preview-notification/{id}". */
export const notificationPreviewPath = (id: number | string) =>
  `/preview-notification/${encodeURIComponent(String(id))}`;

/**
 * GET /api/notification/{id}/preview: a donor email as it was sent (without its open-tracking
 * image, so previewing does not count as an open).
 */
export const NotificationPreview = z.object({
  id: z.number(),
  donation_id: z.number(),
  subject: z.string(),
  /** The donor's address it went to. */
  to: z.string(),
  created_at: z.string(),
  html: z.string(),
  text: z.string(),
});
export type NotificationPreview = z.infer<typeof NotificationPreview>;

export const notificationTexts = {
  notFound: 'Notification not found',
  loadFailed: 'Failed to load notification emails',
} as const;
