import { BLOCKED_MESSAGE } from '@contracts/safety';
import type { ApiError } from './api';
import { refusalText } from './safety-api';

const failure = (status: number, body: unknown): ApiError => ({
  status,
  statusText: '',
  bodyText: JSON.stringify(body),
  bodyJson: body,
  reqId: null,
  message: `${status}: ${JSON.stringify(body)}`,
});

describe('refusalText', () => {
  it("gives the server's words for a 403 (a block between the two), nothing for other failures", () => {
    expect(refusalText(failure(403, { error: BLOCKED_MESSAGE, code: 'FORBIDDEN' }))).toBe(BLOCKED_MESSAGE);
    expect(refusalText(failure(500, { error: 'Internal server error' }))).toBeNull();
    expect(refusalText(new Error('network'))).toBeNull();
  });
});
