import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { mediaUrlSecret } from '../media-url-secret';
import { normalizeCode, readViewerCode, viewerCode, watermarkSecret } from '../../domain/media/watermark';
import { watermarkCandidates } from '../../projections/creators';
import { displayName } from '../../projections/users';
import type { OpsCommand } from './command';

/** Staff trace a leaked picture: its watermark's viewer code (or the picture itself) to an account. */
export const watermarkLookupCommand: OpsCommand = {
  name: 'watermark-lookup',
  args: '<code|image file>',
  summary: "Name the account a watermarked image was served to, from the watermark's viewer code",
  help: `Images of creators who turned the watermark on are served to everyone else with the page
name and an eight-character viewer code (e.g. 7K3QZ9MA). Give the code as printed (dashes,
spaces and lower case are fine), or the path of a served image file: its code is then read from
the strip of black and white cells in its bottom-left corner. Prints the account (name, email,
user id) whose code it is. Uses the media URL secret (MEDIA_URL_SECRET or the one in the data
folder): run it where the API runs.
Example: npm run ops -- watermark-lookup 7K3QZ9MA`,
  async run(args, context) {
    const input = args[0]?.trim();
    if (!input) {
      context.out('Usage: npm run ops -- watermark-lookup <code|image file>');
      return 2;
    }
    const code = existsSync(input) ? await readViewerCode(await readFile(input)) : normalizeCode(input);
    if (!code) {
      context.out(
        existsSync(input)
          ? `No watermark code found in ${input} (only files as served carry the corner strip; type the printed code instead)`
          : `${input} is not a viewer code: eight letters and digits, e.g. 7K3QZ9MA`,
      );
      return 2;
    }
    const secret = watermarkSecret(mediaUrlSecret(context.config.dataDir));
    const { db } = await context.connect();
    const matches = (await watermarkCandidates(db)).filter((user) => viewerCode(secret, user.id) === code);
    if (matches.length === 0) {
      context.out(`No account has viewer code ${code} (was the image served by this installation?)`);
      return 1;
    }
    for (const user of matches)
      context.out(`Viewer code ${code}: ${displayName(user)} <${user.email}> (user ${user.id})`);
    return 0;
  },
};
