import { FILTER_ORIENTATIONS, GENDER_IDENTITIES, SEXUAL_ORIENTATIONS } from '@contracts/chat';
import { GENDER_LABELS, ORIENTATION_LABELS, optionLabel } from './profile-labels';

describe('profile option labels', () => {
  it('capitalises orientation and gender labels while the values stay the stored ones', () => {
    expect(SEXUAL_ORIENTATIONS.map(optionLabel)).toEqual([
      'Straight',
      'Gay',
      'Lesbian',
      'Bisexual',
      'Pansexual',
      'Questioning',
      'Asexual',
    ]);
    expect(GENDER_IDENTITIES.map(optionLabel)).toEqual([
      'Man',
      'Woman',
      'Non-binary',
      'Genderfluid',
      'Transgender',
      'Other',
      'Prefer not to say',
    ]);
    expect(ORIENTATION_LABELS.any).toBe('Any orientation');
    expect(FILTER_ORIENTATIONS.every((o) => ORIENTATION_LABELS[o])).toBe(true);
    expect(Object.keys(GENDER_LABELS)).toEqual([...GENDER_IDENTITIES]);
  });

  it('other option values fall back to a capitalised word', () => {
    expect(optionLabel('open_relationship')).toBe('Open relationship');
    expect(optionLabel('beginner')).toBe('Beginner');
  });
});
