// Imported before the element bundle by the browser tests: the bundle reads the stored token as
// it loads, so the signed-in state must be in place first (ES modules evaluate in import order).
import { signedIn } from './donations-test-support.ts';

signedIn();
