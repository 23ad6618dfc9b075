import { Me } from '../contract/index.ts';
import { request } from './client.ts';

/** GET /api/common: the signed-in user. */
export function common(): Promise<Me> {
  return request(Me, 'api/common');
}
