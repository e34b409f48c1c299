/**
 * What a person reading events (the finance console's stream view, the system event browser,
 * any staff export of events) may see. Events keep everything (they are the record, and
 * `ops export` is the engineers' full backup); views mask secrets and private text.
 *
 * Two rules:
 * - per event type, fields masked whatever their name (the text of private messages);
 * - for every type, at any depth of data and metadata, fields named like a secret or a gateway's
 *   customer handle (hash, token, secret, password, customerId, ...), unless the type lists the
 *   field as public. So an event type added later is masked safely by default.
 */
export const REDACTED = '[REDACTED]';

interface EventPolicy {
  /** Top-level data fields never shown, whatever their name. */
  mask?: readonly string[];
  /** Top-level data fields shown although their name looks secret (public facts). */
  keep?: readonly string[];
}

export const EVENT_REDACTION_POLICY: Readonly<Record<string, EventPolicy>> = {
  // Secret-named fields listed anyway, so the policy reads as the list of what is hidden.
  UserRegistered: { mask: ['passwordHash', 'gatewayCustomerId'] },
  PasswordChanged: { mask: ['passwordHash'] },
  PasswordResetRequested: { mask: ['tokenHash'] },
  // Two-factor: the sealed TOTP secret and the recovery codes' digests (time steps and indexes stay).
  TwoFactorSetupStarted: { mask: ['sealedSecret'] },
  TwoFactorEnabled: { mask: ['recoveryCodeHashes'] },
  // Identity verification: the legal name and birth date travel sealed (AES-256-GCM with the
  // verification key); the sealed value is hidden too, and staff read them only in the console.
  IdentityVerificationSubmitted: { mask: ['sealedIdentity', 'providerReference'] },
  PaymentCaptured: { mask: ['gatewayCustomerId'] },
  PaymentFailed: { mask: ['gatewayCustomerId'] },
  PaymentCardUpdated: { mask: ['gatewayCustomerId'] },
  // Private messages: amounts, parties and times stay, the words and the attachment do not.
  MessageSent: { mask: ['content', 'mediaUrl'] },
  // Intimate preferences (special-category data) are nobody's business in a finance console.
  ChatPreferencesSaved: { mask: ['sexualActivities', 'kinks', 'rolePreferences', 'dealBreakers', 'mustHaves'] },
  // A blockchain transaction hash is public and is what finance reconciles a conversion with.
  CryptoConversionCompleted: { keep: ['transactionHash'] },
};

const SECRET_NAMED =
  /hash|token|secret|password|passwd|pwd|cvv|cvc|card[_-]?number|authorization|cookie|customer[_-]?id/i;
const MAX_DEPTH = 12;

/** `value` with every secret-named field masked at any depth; past the depth limit nothing is shown. */
function maskSecretNamed(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => maskSecretNamed(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      SECRET_NAMED.test(key) ? REDACTED : maskSecretNamed(field, depth + 1),
    ]),
  );
}

/** An event's data as a person may see it. */
export function redactEventData(type: string, data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return maskSecretNamed(data, 0);
  const policy = EVENT_REDACTION_POLICY[type] ?? {};
  const shown: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(data)) {
    if (policy.mask?.includes(key)) shown[key] = REDACTED;
    else if (policy.keep?.includes(key)) shown[key] = field;
    else shown[key] = SECRET_NAMED.test(key) ? REDACTED : maskSecretNamed(field, 1);
  }
  return shown;
}

/** An event's metadata as a person may see it (envelope ids and times; nothing secret-named). */
export const redactEventMetadata = (metadata: Record<string, unknown>) =>
  maskSecretNamed(metadata, 0) as Record<string, unknown>;
