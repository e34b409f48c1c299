/**
 * SPEC §8: the texts shown for failed login, registration and reset calls, matched on the
 * error's message ('{status}: {body}').
 */
export function loginErrorText(message: string): string {
  if (message.includes('Invalid email or password')) return 'Invalid email or password. Please try again.';
  if (message.includes('Account temporarily locked'))
    return 'Account temporarily locked due to failed login attempts. Please try again later.';
  if (message.includes('Account has been deactivated'))
    return 'Your account has been deactivated. Please contact support.';
  if (message.includes('429')) return 'Too many login attempts. Please wait before trying again.';
  return 'Login failed. Please try again.';
}

export function registerErrorText(message: string): string {
  if (message.includes('already exists'))
    return 'An account with this email already exists. Please use a different email or try logging in.';
  if (message.includes('Invalid email format')) return 'Please enter a valid email address.';
  if (message.includes('429')) return 'Too many registration attempts. Please wait before trying again.';
  if (message.includes('VALIDATION_ERROR')) return 'Please check all fields and try again.';
  return 'Registration failed. Please try again.';
}

export function resetErrorText(message: string): string {
  if (message.includes('Invalid email format')) return 'Please enter a valid email address.';
  if (message.includes('429')) return 'Too many reset requests. Please wait before trying again.';
  return 'Unable to process your request. Please try again.';
}
