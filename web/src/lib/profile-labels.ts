import type { FILTER_ORIENTATIONS, GENDER_IDENTITIES, SEXUAL_ORIENTATIONS } from '@contracts/chat';

type Orientation = (typeof SEXUAL_ORIENTATIONS)[number] | (typeof FILTER_ORIENTATIONS)[number];
type Gender = (typeof GENDER_IDENTITIES)[number];

/**
 * What users read for the stored orientation values (SPEC §3 enumerations, and the chat filter's
 * extra 'queer' and 'any', which SPEC §4 words 'Any orientation'). The values sent and stored stay as they are.
 */
export const ORIENTATION_LABELS: Record<Orientation, string> = {
  any: 'Any orientation',
  straight: 'Straight',
  gay: 'Gay',
  lesbian: 'Lesbian',
  bisexual: 'Bisexual',
  pansexual: 'Pansexual',
  questioning: 'Questioning',
  asexual: 'Asexual',
  queer: 'Queer',
};

/** What users read for the stored gender identity values (SPEC §3). */
export const GENDER_LABELS: Record<Gender, string> = {
  man: 'Man',
  woman: 'Woman',
  non_binary: 'Non-binary',
  genderfluid: 'Genderfluid',
  transgender: 'Transgender',
  other: 'Other',
  prefer_not_to_say: 'Prefer not to say',
};

/** 'open_relationship' → 'Open relationship'; the fallback for option values without a label of their own. */
export const humanize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ');

/** The label of an orientation, gender identity or other option value shown to users. */
export function optionLabel(value: string): string {
  return (
    (ORIENTATION_LABELS as Record<string, string>)[value] ??
    (GENDER_LABELS as Record<string, string>)[value] ??
    humanize(value)
  );
}
