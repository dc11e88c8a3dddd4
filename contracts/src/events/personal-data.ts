import { DELETED_USER_NAME } from '../constants.ts';

/**
 * Which fields of which events are a member's personal data (docs/security/erasure.md). The
 * event store seals them, per member and key, into encrypted boxes; destroying a member's keys
 * erases every copy in the log at once.
 */

/** A member's two keys: name, email and photo wherever they are copied; the text they wrote. */
export const SUBJECT_KEYS = ['identity', 'content'] as const;
export type SubjectKey = (typeof SUBJECT_KEYS)[number];

/** What a personal field is, which says what it reads as once erased. */
export type PersonalField = 'name' | 'email' | 'photo' | 'text';

/** What an erased field reads as for readers that compute state: what `AccountErased` leaves in the read models. */
export const ERASED_VALUES: Readonly<Record<PersonalField, string>> = { name: DELETED_USER_NAME, email: '', photo: '', text: '' };

export interface PersonalData {
  /** The data field naming whose data it is (the user id). */
  readonly subject: string;
  /** Per key, the personal fields by path ('changes.name' for a nested one) and what each is. */
  readonly keys: Readonly<Partial<Record<SubjectKey, Readonly<Record<string, PersonalField>>>>>;
}

const author = { authorName: 'name', authorEmail: 'email', authorPhoto: 'photo' } as const;

/** Per event type and stored schema version (`Type@version`), its personal data. Types not listed have none. */
export const PERSONAL_DATA: Readonly<Record<string, PersonalData>> = {
  'UserRegistered@1': { subject: 'userId', keys: { identity: { name: 'name', email: 'email', photoURL: 'photo' } } },
  'ProfileUpdated@1': { subject: 'userId', keys: { identity: { name: 'name', photoURL: 'photo' } } },
  'ProfileUpdated@2': { subject: 'userId', keys: { identity: { 'changes.name': 'name', 'changes.photoURL': 'photo' } } },
  'PostCreated@1': { subject: 'authorId', keys: { identity: author, content: { title: 'text', description: 'text' } } },
  'PostEdited@1': { subject: 'authorId', keys: { content: { title: 'text', description: 'text' } } },
  'CommentAdded@1': { subject: 'authorId', keys: { identity: author, content: { text: 'text' } } },
  'CommentEdited@1': { subject: 'authorId', keys: { content: { text: 'text' } } },
  'CommentReported@1': { subject: 'reporterId', keys: { identity: { reporterName: 'name', reporterEmail: 'email', reporterPhoto: 'photo' } } },
  'PostReported@1': { subject: 'reporterId', keys: { identity: { reporterName: 'name', reporterEmail: 'email', reporterPhoto: 'photo' } } },
  'AnnouncementPublished@1': { subject: 'authorId', keys: { identity: { authorName: 'name', authorPhoto: 'photo' } } },
  'UserWarned@1': { subject: 'userId', keys: { content: { commentQuote: 'text' } } },
  'HandleClaimed@1': { subject: 'userId', keys: { identity: { handle: 'name' } } },
  'HandleReleased@1': { subject: 'userId', keys: { identity: { handle: 'name' } } },
  'HandleChanged@1': { subject: 'userId', keys: { identity: { handle: 'name' } } },
};

/** The event types with personal data in some version. */
export const PERSONAL_DATA_TYPES: readonly string[] = [...new Set(Object.keys(PERSONAL_DATA).map((key) => key.slice(0, key.indexOf('@'))))];

/** Where an event's data keeps its sealed boxes. */
export const SEALED_KEY = '$sealed';
