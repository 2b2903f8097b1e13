// The malformed-input walk over every route, part 2 of 3 (tests/helpers/malformed-walk.ts says what it
// sends and why it is cut in parts).
import { describeMalformedWalk } from '../helpers/malformed-walk';

describeMalformedWalk(2, 3);
