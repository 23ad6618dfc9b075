// Imported before the element bundle by the users tab browser test: the bundle reads the stored
// token as it loads, so the signed-in state must be in place first (ES modules evaluate in order).
import { signedIn } from '../donations/donations-test-support.ts';

signedIn();
