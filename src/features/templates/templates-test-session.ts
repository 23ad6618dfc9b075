// Imported before the element bundle: the bundle reads the stored token as it loads.
import { signedIn } from '../donations/donations-test-support.ts';

signedIn();
