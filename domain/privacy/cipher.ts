import { createSealer, type Sealer } from '../verification/sealing';
import type { KeyStore } from './key-store';
import { forgottenValue, PERSONAL_DATA, type PersonalFields } from './personal-data';

/**
 * Seals and opens the personal fields of events (personal-data.ts) with their subject's key
 * (AES-256-GCM, a fresh nonce each time). A sealed event's data keeps every other field plain
 * and carries its personal ones as one ciphertext beside the key id:
 * `{ ...plain, [SEALED]: { keyId, box } }`. Opening merges them back; when the key is gone the
 * fields read as their forgotten values. Data written before sealing existed opens as it is.
 */
export const SEALED = '$personal';

interface SealedFields {
  keyId: string;
  /** base64 of nonce, tag and ciphertext of the fields as JSON. */
  box: string;
}

type Data = Record<string, unknown>;
interface Event {
  type: string;
  data: unknown;
}

export class PersonalDataCipher {
  private readonly sealers = new Map<Buffer, Sealer>();

  constructor(readonly keys: KeyStore) {}

  /** The events with their personal fields sealed (or, for a forgotten subject, already forgotten). */
  async seal<E extends Event>(events: readonly E[]): Promise<E[]> {
    const subjects = events.map(subjectOf).filter((id): id is string => id !== null);
    if (subjects.length === 0) return [...events];
    const keys = await this.keys.keysFor(subjects);
    return events.map((event) => {
      const subjectId = subjectOf(event);
      if (subjectId === null) return event;
      const { fields } = PERSONAL_DATA[event.type];
      const data = { ...(event.data as Data) };
      const key = keys.get(subjectId) ?? null;
      if (key === null) return { ...event, data: forget(data, fields, subjectId) };
      const personal: Data = {};
      for (const field of Object.keys(fields)) {
        if (!(field in data)) continue;
        personal[field] = data[field];
        delete data[field];
      }
      const box = this.sealer(key)
        .seal(Buffer.from(JSON.stringify(personal)))
        .toString('base64');
      data[SEALED] = { keyId: subjectId, box } satisfies SealedFields;
      return { ...event, data };
    });
  }

  /** The events as written, personal fields opened, or forgotten where the key is gone. */
  async open<E extends Event>(events: readonly E[]): Promise<E[]> {
    const keyIds: string[] = [];
    for (const event of events) {
      const sealed = sealedOf(event);
      if (sealed) keyIds.push(sealed.keyId);
      // Another process forgot this person: drop the key this process may still hold.
      if (event.type === 'AccountDeleted') this.keys.evict((event.data as { userId: string }).userId);
    }
    if (keyIds.length === 0) return events as E[];
    const keys = await this.keys.findKeys(keyIds);
    return events.map((event) => {
      const sealed = sealedOf(event);
      if (!sealed) return event;
      const { [SEALED]: _, ...data } = event.data as Data;
      const key = keys.get(sealed.keyId) ?? null;
      const fields = PERSONAL_DATA[event.type]?.fields ?? {};
      if (key === null) return { ...event, data: forget(data, fields, sealed.keyId) };
      const opened = JSON.parse(this.sealer(key).open(Buffer.from(sealed.box, 'base64')).toString()) as Data;
      return { ...event, data: { ...data, ...opened } };
    });
  }

  private sealer(key: Buffer): Sealer {
    let sealer = this.sealers.get(key);
    if (!sealer) {
      sealer = createSealer(key);
      this.sealers.set(key, sealer);
    }
    return sealer;
  }
}

/** The subject whose fields this event carries, null when it carries none (or is sealed already). */
function subjectOf(event: Event): string | null {
  const entry = PERSONAL_DATA[event.type];
  const data = event.data as Data | null;
  if (!entry || !data || SEALED in data) return null;
  const subject = data[entry.subject];
  return typeof subject === 'string' ? subject : null;
}

function sealedOf(event: Event): SealedFields | null {
  const data = event.data as Data | null;
  return data && typeof data === 'object' && SEALED in data ? (data[SEALED] as SealedFields) : null;
}

function forget(data: Data, fields: PersonalFields['fields'], subjectId: string): Data {
  const forgotten = { ...data };
  for (const [field, value] of Object.entries(fields)) forgotten[field] = forgottenValue(value, subjectId);
  return forgotten;
}
