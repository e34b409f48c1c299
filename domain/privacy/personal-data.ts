/**
 * Which fields of which events are personal data, and whose (issue 23). The encrypting event
 * store seals exactly these fields with their data subject's key; once that key is forgotten
 * each field reads as its `forgotten` value, so projectors and deciders keep working and pages
 * show "Deleted user" or "[removed]". Ids, amounts, times and types are never listed: money and
 * audit stay provable without anyone's name.
 *
 * A new event type with personal data gets an entry here (domain/privacy/privacy.test.ts shows
 * what sealing does to one).
 */

/** What a removed text reads as. */
export const REMOVED = '[removed]';
/** The two halves of a forgotten person's name: "Deleted user" wherever a name is shown. */
export const DELETED_FIRST_NAME = 'Deleted';
export const DELETED_LAST_NAME = 'user';
export const DELETED_USER_NAME = `${DELETED_FIRST_NAME} ${DELETED_LAST_NAME}`;
/** A forgotten email: unique per person (read models keep emails unique), reachable by no one. */
export const forgottenEmail = (subjectId: string) => `deleted-${subjectId}@deleted.invalid`;

/** A field's value once its subject is forgotten: a constant, or made from the subject's id. */
type Forgotten = string | null | readonly never[] | ((subjectId: string) => string);

export interface PersonalFields {
  /** The field holding the data subject's user id. */
  subject: string;
  fields: Readonly<Record<string, Forgotten>>;
}

const name = { firstName: DELETED_FIRST_NAME, lastName: DELETED_LAST_NAME };
const email = { email: forgottenEmail };
const post = { title: REMOVED, content: REMOVED, mediaUrl: null };
const paymentAttempt = { subject: 'userId', fields: { cardHolderName: null, email: null } };
const tip = { subject: 'tipperId', fields: { message: null } };
const block = { subject: 'blockerId', fields: { reason: null } };

export const PERSONAL_DATA: Readonly<Record<string, PersonalFields>> = {
  UserRegistered: { subject: 'userId', fields: { ...email, ...name } },
  EmailClaimed: { subject: 'userId', fields: email },
  EmailReleased: { subject: 'userId', fields: email },
  ChatProfileSaved: {
    subject: 'userId',
    fields: {
      displayName: DELETED_USER_NAME,
      location: '',
      bio: '',
      interests: [],
      genderIdentity: '',
      sexualOrientation: '',
      relationshipType: [],
    },
  },
  ChatPreferencesSaved: {
    subject: 'userId',
    fields: { sexualActivities: [], kinks: [], rolePreferences: [], dealBreakers: [], mustHaves: [] },
  },
  ChatUserBlocked: block,
  UserBlocked: block,
  CreatorRegistered: { subject: 'userId', fields: { bio: '' } },
  CryptoWalletRegistered: { subject: 'userId', fields: { walletAddress: REMOVED } },
  CryptoConversionRequested: { subject: 'userId', fields: { walletAddress: REMOVED } },
  MessageSent: { subject: 'senderId', fields: { content: REMOVED, mediaUrl: null } },
  MassMessageSent: { subject: 'creatorId', fields: { content: REMOVED } },
  PaymentCaptured: paymentAttempt,
  PaymentFailed: paymentAttempt,
  PaymentAccountAdded: { subject: 'creatorId', fields: { accountHolderName: REMOVED, routingNumber: null } },
  PostPublished: { subject: 'creatorId', fields: post },
  PostScheduled: { subject: 'creatorId', fields: post },
  PostEdited: { subject: 'creatorId', fields: post },
  PostCommented: { subject: 'userId', fields: { content: REMOVED } },
  ReportFiled: { subject: 'reporterId', fields: { details: null } },
  ChatSessionReported: { subject: 'reporterId', fields: { reason: null } },
  TipRequested: tip,
  TipGiven: tip,
  IdentityVerificationSubmitted: { subject: 'creatorId', fields: { sealedIdentity: REMOVED } },
};

/** The value a field of a forgotten subject reads as. */
export function forgottenValue(forgotten: Forgotten, subjectId: string): unknown {
  return typeof forgotten === 'function' ? forgotten(subjectId) : forgotten;
}
