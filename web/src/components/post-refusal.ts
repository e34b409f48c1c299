import { isApiError, serverErrorText } from '@/lib/api';

/** The server's reason for refusing (a 4xx), not the text of a failure. */
export const refusalOf = (error: unknown) => (isApiError(error) && error.status < 500 ? serverErrorText(error) : null);
